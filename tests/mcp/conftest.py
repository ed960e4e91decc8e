"""Fixtures for the MCP tests: a session on the shipped house and an MCP client from the official SDK."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HOUSE = REPO / "ifc" / "AC20-FZK-Haus.ifc"


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
