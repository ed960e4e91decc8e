"""The real transports: streamable HTTP on loopback (with and without a token) and stdio."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_support import DOORS, HOUSE, REPO, data

from pyagent.mcp.app import HttpMcp, http_app

TOKEN = "s3cret-for-the-test"


@pytest.fixture()
def endpoint(gateway: Any) -> Iterator[HttpMcp]:
    e = HttpMcp(gateway, "127.0.0.1", 0).start()
    yield e
    e.stop()


@pytest.fixture()
def guarded(gateway: Any) -> Iterator[HttpMcp]:
    e = HttpMcp(gateway, "127.0.0.1", 0, token=TOKEN).start()
    yield e
    e.stop()


async def _count_doors(client: Client) -> int:
    r = await client.call_tool("count", {"target": {"class": ["IfcDoor"]}})
    assert not r.is_error, r.content[0].text
    return int(data(r)["value"])


def test_streamable_http_on_loopback(endpoint: HttpMcp, session: Any) -> None:
    async def main() -> tuple[int, list[str]]:
        async with Client(endpoint.url) as client:
            n = await _count_doors(client)
            tools = [t.name for t in (await client.list_tools()).tools]
            r = await client.call_tool("hide", {"target": {"class": ["IfcDoor"]}})
            assert not r.is_error
            return n, tools

    n, tools = asyncio.run(main())
    assert n == 5 and "run_program" in tools and "say" in tools
    assert set(session.state()["hidden"]) == DOORS


def test_http_token_is_required_when_set(guarded: HttpMcp) -> None:
    async def main(token: str | None) -> int:
        headers = {"Authorization": f"Bearer {token}"} if token else None
        async with create_mcp_http_client(headers=headers) as http, \
                Client(streamable_http_client(guarded.url, http_client=http)) as client:
            return await _count_doors(client)

    assert asyncio.run(main(TOKEN)) == 5
    for token in (None, "wrong"):
        with pytest.raises(BaseException):  # noqa: B017 - the SDK reports the 401 in its own way
            asyncio.run(main(token))
    plain = httpx2.post(guarded.url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                        headers={"Authorization": "Bearer wrong"})
    assert plain.status_code == 401 and "not authorised" in plain.text


def test_http_beyond_loopback_needs_a_token(gateway: Any) -> None:
    with pytest.raises(ValueError, match="token"):
        http_app(gateway, "0.0.0.0")
    assert http_app(gateway, "0.0.0.0", token=TOKEN) is not None


def test_http_request_body_is_bounded(endpoint: HttpMcp) -> None:
    big = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
           "params": {"name": "say", "arguments": {"text": "x" * (1 << 20)}}}
    r = httpx2.post(endpoint.url, json=big, headers={"Accept": "application/json, text/event-stream"})
    assert r.status_code == 413


def test_stdio_server_process() -> None:
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "pyagent", "mcp", "--ifc", str(HOUSE)],
                                   cwd=str(REPO), env={**os.environ, "PYTHONPATH": str(REPO)})

    async def main() -> tuple[int, dict[str, Any]]:
        async with Client(params) as client:
            n = await _count_doors(client)
            await client.call_tool("hide", {"target": {"class": ["IfcDoor"]}})
            state = data(await client.call_tool("get_state", {}))
            return n, state

    n, state = asyncio.run(main())
    assert n == 5 and set(state["state"]["hidden"]) == DOORS


def test_stdio_lines_are_bounded() -> None:
    import io

    from pyagent.mcp.lines import BoundedLines

    raw = b'{"a": 1}\n' + b"x" * 5000 + b"\n" + b'{"b": 2}\n' + b"y" * 10 + b"\n"
    lines = BoundedLines(io.BytesIO(raw), limit=1000)
    got = [lines.readline() for _ in range(5)]
    assert got[0] == '{"a": 1}\n' and got[2] == '{"b": 2}\n' and got[3] == "y" * 10 + "\n" and got[4] == ""
    assert "too large" in got[1] and lines.skipped == 1
