"""The MCP server (official ``mcp`` SDK, low-level ``Server``): tools and resources over a ``Gateway``.

Transports: stdio (``run_stdio``; every input line bounded) and streamable HTTP (``HttpMcp``: uvicorn
on a background thread, loopback by default with DNS-rebinding protection; any other address needs a
bearer token, checked in constant time before the SDK sees the request).
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import sys
import threading
import time
from typing import Any

import anyio
import mcp_types as types
import uvicorn
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError

from pyagent.mcp.gateway import Gateway, Outcome
from pyagent.mcp.lines import BoundedLines
from pyagent.mcp.tools import tool_specs

log = logging.getLogger("pyagent.mcp")

SERVER_NAME = "bimvoice"
MAX_HTTP_BODY = 256 << 10
RESOURCES = {
    "bimvoice://building/summary": ("building-summary", "The building: storeys (lowest first), their rooms with "
                                    "areas, element counts by IFC class."),
    "bimvoice://session/state": ("session-state", "The live scene state (hidden, colours, moves, deletions, "
                                 "props, selection, the reviewer's pose) and its revision."),
    "bimvoice://review/notes": ("review-notes", "The review notes (BCF topics) recorded in this session."),
}
INSTRUCTIONS = (
    "BimVoice: a live design review of one IFC building, possibly with a person in VR inside it. Query "
    "tools (count, list, get, ...) answer; change tools (hide, color, move, select, note, ...) change what the "
    "reviewer sees at once and can be undone with 'undo'. Selectors use IFC classes (IfcDoor, IfcSpace, ...), "
    "names, storeys and rooms, and relations to the reviewer's pose. Read bimvoice://building/summary first."
)


def _result(outcome: Outcome) -> types.CallToolResult:
    text = outcome.text
    if outcome.data:
        text += "\n\n" + json.dumps(outcome.data, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                structured_content=outcome.data or None, is_error=not outcome.ok)


def build_server(gateway: Gateway) -> Server[Any]:
    """The SDK server whose handlers run every request through ``gateway``."""
    specs = tool_specs()
    tools = [types.Tool(name=s.name, description=s.description, input_schema=s.input_schema,
                        annotations=types.ToolAnnotations(read_only_hint=s.read_only,
                                                          destructive_hint=s.name in ("delete", "reset"),
                                                          open_world_hint=False))
             for s in specs]
    summary: dict[str, Any] = {}

    async def wait(job: Any) -> Any:
        fut = gateway.submit(job)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(fut), gateway.timeout_s)
        except TimeoutError:
            fut.cancel()
            raise MCPError(types.INTERNAL_ERROR, "the agent did not answer in time") from None

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            outcome: Outcome = await wait(gateway.job(params.name, params.arguments))
        except MCPError as exc:
            outcome = Outcome(False, f"Failed: {exc.error.message}.", {"error": exc.error.message})
        except Exception as exc:  # noqa: BLE001 - one failing request must not end the session
            log.exception("tool %s failed", params.name)
            outcome = Outcome(False, f"Failed: internal error: {exc}.", {"error": f"internal error: {exc}"})
        return _result(outcome)

    async def list_resources(_ctx: Any, _params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[
            types.Resource(uri=uri, name=name, description=text, mime_type="application/json")
            for uri, (name, text) in RESOURCES.items()])

    async def read_resource(_ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri == "bimvoice://building/summary":
            if not summary:
                summary.update(await wait(gateway.summary))
            data = summary
        elif uri == "bimvoice://session/state":
            data = await wait(gateway.state)
        elif uri == "bimvoice://review/notes":
            data = await wait(gateway.notes)
        else:
            raise MCPError(types.INVALID_PARAMS, f"unknown resource {uri[:200]!r}; see resources/list")
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=uri, mime_type="application/json", text=json.dumps(data, ensure_ascii=False))])

    from pyagent import __version__

    return Server(SERVER_NAME, version=str(__version__), title="BimVoice live design review",
                  instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool,
                  on_list_resources=list_resources, on_read_resource=read_resource)


# ---------------------------------------------------------------------------------------------- stdio

def run_stdio(gateway: Gateway) -> None:
    server = build_server(gateway)

    async def main() -> None:
        stdin = anyio.wrap_file(BoundedLines(sys.stdin.buffer))  # type: ignore[arg-type]  # a bounded text file
        async with stdio_server(stdin=stdin) as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)


# ---------------------------------------------------------------------------------------------- HTTP

def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class BearerToken:
    """ASGI middleware: every HTTP request needs ``Authorization: Bearer <token>``."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = b""
            for key, value in scope.get("headers", []):
                if key.lower() == b"authorization" and value[:7].lower() == b"bearer ":
                    given = value[7:].strip()
            if not hmac.compare_digest(given, self.token):
                log.warning("refused an MCP request from %s: %s token", scope.get("client"),
                            "wrong" if given else "missing")
                body = json.dumps({"error": "not authorised: send Authorization: Bearer <token>"}).encode()
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"www-authenticate", b"Bearer"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def http_app(gateway: Gateway, host: str = "127.0.0.1", token: str | None = None) -> Any:
    if not is_loopback(host) and not token:
        raise ValueError("an MCP endpoint beyond loopback needs a token (--mcp-token SECRET)")
    server = build_server(gateway)
    security = None
    if not is_loopback(host):  # remote clients name this machine however they reach it; the token guards it
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app = server.streamable_http_app(host=host, max_request_body_size=MAX_HTTP_BODY, transport_security=security)
    return BearerToken(app, token) if token else app


class HttpMcp:
    """The streamable-HTTP MCP endpoint on a background thread (``http://HOST:PORT/mcp``)."""

    def __init__(self, gateway: Gateway, host: str = "127.0.0.1", port: int = 0, token: str | None = None) -> None:
        self.app = http_app(gateway, host, token)
        self.host = host
        config = uvicorn.Config(self.app, host=host, port=port, log_level="warning", lifespan="on",
                                access_log=False, timeout_graceful_shutdown=2)
        self.server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, name="mcp-http", daemon=True)
        self._failed: BaseException | None = None

    def _serve(self) -> None:
        try:
            self.server.run()
        except BaseException as exc:  # noqa: BLE001 - uvicorn exits with SystemExit when it cannot bind
            self._failed = exc

    def start(self, timeout_s: float = 20.0) -> HttpMcp:
        self._thread.start()
        deadline = time.monotonic() + timeout_s
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise OSError(f"the MCP endpoint could not start on {self.host} ({self._failed!r})")
            time.sleep(0.02)
        return self

    @property
    def port(self) -> int:
        return int(self.server.servers[0].sockets[0].getsockname()[1])

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/mcp"

    def stop(self) -> None:
        self.server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(10)
