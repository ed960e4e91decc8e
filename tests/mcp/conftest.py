"""Fixtures for the MCP tests: a session on the shipped house and an MCP client from the official SDK."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from mcp_support import HOUSE


@pytest.fixture()
def session() -> Iterator[object]:
    from pyagent.session import Session

    s = Session.open(HOUSE)
    yield s
    s.close()


@pytest.fixture()
def gateway(session: object) -> Iterator[object]:
    from pyagent.mcp.gateway import Gateway

    g = Gateway(session)
    yield g
    g.close()
