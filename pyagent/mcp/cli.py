"""``python -m pyagent mcp``: the action API as an MCP server.

    python -m pyagent mcp --ifc FILE                  # stdio (an MCP client starts it)
    python -m pyagent mcp --ifc FILE --http 8765      # streamable HTTP on http://127.0.0.1:8765/mcp
    python -m pyagent mcp --attach http://127.0.0.1:8765/mcp   # stdio, relayed to a running serve --mcp-http

The live review (engines in the headset) is ``python -m pyagent serve --ifc FILE --mcp-http 8765``: the MCP
endpoint then runs inside ``serve`` and shares its session (``attach_http``).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from collections.abc import Sequence
from typing import Any

log = logging.getLogger("pyagent.mcp")

DEFAULT_HOST = "127.0.0.1"
TOKEN_ENV = "PYAGENT_MCP_TOKEN"


def parse_where(text: str) -> tuple[str, int]:
    """``PORT``, ``HOST:PORT`` or ``[V6]:PORT`` -> (host, port); ``ValueError`` otherwise."""
    text = text.strip()
    host, port_text = DEFAULT_HOST, text
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest.removeprefix(":")
    elif ":" in text:
        host, _, port_text = text.rpartition(":")
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535 or not host:
        raise ValueError(f"{text!r} is not PORT or HOST:PORT")
    return host, int(port_text)


def attach_http(link_server: Any, session: Any, where: str, token: str | None) -> Any:
    """Start the MCP HTTP endpoint inside ``serve``: its calls run on ``link_server``'s thread (a
    ``JobLinkServer``). Returns the running ``HttpMcp`` (``stop()`` it when the link stops)."""
    from pyagent.mcp.app import HttpMcp
    from pyagent.mcp.gateway import Gateway

    host, port = parse_where(where)
    endpoint = HttpMcp(Gateway(session, runner=link_server), host, port, token).start()
    log.info("MCP endpoint on %s%s", endpoint.url, " (bearer token required)" if token else "")
    print(f"mcp on {endpoint.url}", flush=True)
    return endpoint


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pyagent mcp",
                                description="The BimVoice action API as an MCP server (stdio by default).")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--ifc", help="the IFC file to open")
    src.add_argument("--attach", metavar="URL",
                     help="relay stdio to the MCP endpoint of a running 'serve --mcp-http' (the live session)")
    p.add_argument("--http", metavar="[HOST:]PORT",
                   help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (default host 127.0.0.1)")
    p.add_argument("--token", default=os.environ.get(TOKEN_ENV),
                   help=f"bearer token: required of HTTP clients when given, and for any non-loopback host "
                        f"(default ${TOKEN_ENV}); with --attach, sent to the endpoint")
    p.add_argument("--journal", metavar="DIR", nargs="?", const="default",
                   help="journal every change (default folder .cache/sessions/<file sha>/) and restore it on start")
    p.add_argument("--fresh", action="store_true", help="with --journal: keep the old journal aside, start anew")
    p.add_argument("--save-dir", metavar="DIR", help="where 'save' writes IFC revisions (default: next to the file)")
    p.add_argument("-v", "--verbose", action="store_true")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # stdout is the protocol on stdio: every log line goes to stderr.
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    for name in ("httpx2", "mcp"):  # one line per HTTP request otherwise
        logging.getLogger(name).setLevel(logging.DEBUG if args.verbose else logging.WARNING)
    if args.attach:
        from pyagent.mcp.relay import relay_stdio

        return relay_stdio(args.attach, args.token)
    from pyagent.journal import JournalError
    from pyagent.mcp.app import HttpMcp, is_loopback, run_stdio
    from pyagent.mcp.gateway import Gateway
    from pyagent.session import Session

    where: tuple[str, int] | None = None
    if args.http:
        try:
            where = parse_where(args.http)
        except ValueError as exc:
            print(f"error: --http: {exc}", file=sys.stderr)
            return 2
        if not is_loopback(where[0]) and not args.token:
            print("error: an MCP endpoint beyond loopback needs --token SECRET", file=sys.stderr)
            return 2
    journal: str | bool | None = None if args.journal is None else (True if args.journal == "default"
                                                                     else args.journal)
    try:
        session = Session.open(args.ifc, journal_dir=journal, fresh=args.fresh, save_dir=args.save_dir,
                               pose_interval_s=0.0)
    except JournalError as exc:
        print(f"error: {exc} (to drive a running 'serve', start it with --mcp-http and use --attach)",
              file=sys.stderr)
        return 2
    if journal:
        print(session.restore_report.summary(), file=sys.stderr)
    gateway = Gateway(session)
    try:
        if where is None:
            run_stdio(gateway)
        else:
            endpoint = HttpMcp(gateway, where[0], where[1], args.token).start()
            print(f"mcp on {endpoint.url}", flush=True)
            stop = threading.Event()
            for sig in (signal.SIGINT, signal.SIGTERM):
                signal.signal(sig, lambda *_: stop.set())
            stop.wait()
            endpoint.stop()
    finally:
        gateway.close()
        session.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
