"""Helpers shared by the MCP tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
HOUSE = REPO / "ifc" / "AC20-FZK-Haus.ifc"

DOORS = {"1Oms875aH3Wg$9l65H2ZGw", "0pGAjlJMP3ifYPATVF5xAR", "2qiPPF3FrF8OIqfrKiSUqm", "2jTRqchjf7oB0yhQ6462T0",
         "1M$gxUrX1Fiwe3P64ww7U5"}
INNER_DOOR_1 = "1Oms875aH3Wg$9l65H2ZGw"  # in front of a reviewer at (4, 4.5, 1.6) looking along +X


def data(result: Any) -> dict[str, Any]:
    """The structured answer of a tool call (also present as JSON after the text)."""
    assert result.structured_content is not None, result
    text = result.content[0].text
    assert json.loads(text.split("\n\n", 1)[1]) == result.structured_content
    return result.structured_content


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_serve_with_mcp(ifc: str, link_port: int, mcp_port: int, journal: str, repo: str) -> Any:
    """``python -m pyagent serve --mcp-http`` (no speech), once both endpoints are up."""
    import os
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-m", "pyagent", "serve", "--ifc", ifc, "--no-speech",
                             "--journal", journal, "--endpoint", f"tcp://127.0.0.1:{link_port}",
                             "--mcp-http", str(mcp_port)], cwd=repo, env=dict(os.environ, PYTHONPATH=repo),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: list[str] = []
    deadline = time.monotonic() + 120
    assert proc.stdout is not None
    while not any(s.startswith("listening on") for s in seen):
        line = proc.stdout.readline()
        if not line or time.monotonic() > deadline:
            proc.kill()
            err = proc.stderr.read() if proc.stderr else ""
            raise RuntimeError(f"serve --mcp-http did not start: {seen} {err[-2000:]}")
        seen.append(line.strip())
    assert f"mcp on http://127.0.0.1:{mcp_port}/mcp" in seen, seen
    return proc


def stop(proc: Any) -> None:
    import signal
    import subprocess

    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Engine:
    """An engine stand-in on the link: a DEALER socket speaking PROTOCOL.md."""

    def __init__(self, endpoint: str) -> None:
        import zmq

        self.zmq = zmq
        self.ctx = zmq.Context()
        self.sock = self.ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect(endpoint)

    def send(self, body: dict[str, Any]) -> None:
        self.sock.send(json.dumps(body).encode())

    def recv(self, timeout_ms: int = 5000) -> dict[str, Any] | None:
        if not self.sock.poll(timeout_ms):
            return None
        return json.loads(self.sock.recv_multipart()[0])

    def wait_for(self, kind: str, timeout_ms: int = 5000) -> dict[str, Any]:
        while (msg := self.recv(timeout_ms)) is not None:
            if msg.get("type") == kind:
                return msg
        raise AssertionError(f"no {kind} message")

    def close(self) -> None:
        self.sock.close(linger=0)
        self.ctx.term()
