"""``python -m pyagent mcp --attach URL``: an MCP client that speaks only stdio (a desktop assistant)
reaches the live session of ``serve --mcp-http``. Messages are relayed unchanged between this process's
stdin/stdout and the streamable-HTTP endpoint (with the bearer token when one is given); the session,
its bounds and its validation stay in ``serve``."""

from __future__ import annotations

import logging
import sys
from typing import Any

import anyio
from mcp.client.streamable_http import streamable_http_client
from mcp.server.stdio import stdio_server
from mcp.shared._httpx_utils import create_mcp_http_client

from pyagent.mcp.lines import BoundedLines

log = logging.getLogger("pyagent.mcp")


async def _pump(source: Any, sink: Any, what: str) -> None:
    async with sink:
        async for message in source:
            if isinstance(message, Exception):  # a line that is not JSON-RPC, or a transport error
                log.warning("%s: %s", what, message)
                continue
            await sink.send(message)


async def relay(url: str, token: str | None) -> None:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with create_mcp_http_client(headers=headers) as http, \
            streamable_http_client(url, http_client=http) as (remote_read, remote_write), \
            stdio_server(stdin=anyio.wrap_file(BoundedLines(sys.stdin.buffer))) as (local_read, local_write):  # type: ignore[arg-type]
        async with anyio.create_task_group() as tg:
            async def upstream() -> None:
                await _pump(local_read, remote_write, "from the client")
                tg.cancel_scope.cancel()  # the client closed stdin: done

            tg.start_soon(upstream)
            tg.start_soon(_pump, remote_read, local_write, "from the agent")


def relay_stdio(url: str, token: str | None) -> int:
    try:
        anyio.run(relay, url, token)
    except OSError as exc:
        print(f"error: cannot reach the MCP endpoint {url}: {exc}", file=sys.stderr)
        return 2
    return 0
