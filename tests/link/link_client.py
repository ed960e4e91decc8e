"""A small pyzmq DEALER client speaking PROTOCOL.md, and a ``pyagent serve`` started for a test or a
benchmark."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import zmq

REPO = Path(__file__).resolve().parents[2]


def start_agent(ifc: Path, port: int) -> subprocess.Popen[str]:
    """``python -m pyagent serve`` on ``ifc`` at tcp://127.0.0.1:port (no speech, no journal), once it listens."""
    proc = subprocess.Popen([sys.executable, "-m", "pyagent", "serve", "--ifc", str(ifc), "--no-speech",
                             "--no-journal", "--endpoint", f"tcp://127.0.0.1:{port}"], cwd=REPO,
                            env=dict(os.environ, PYTHONPATH=str(REPO)), stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline() if proc.stdout else ""
    if not line.startswith("listening on"):
        proc.kill()
        raise RuntimeError(f"pyagent serve did not start: {line!r}")
    return proc


def stop_agent(proc: subprocess.Popen[str]) -> None:
    """SIGTERM, then kill if it has not stopped within 10 s."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class LinkClient:
    """An engine stand-in: a DEALER socket sending JSON frames (plus an optional binary frame)."""

    def __init__(self, endpoint: str, context: zmq.Context | None = None) -> None:
        self.ctx = context or zmq.Context.instance()
        self.sock = self.ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect(endpoint)

    def send(self, body: dict[str, Any] | bytes, data: bytes | None = None) -> None:
        frame = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.sock.send_multipart([frame] if data is None else [frame, data])

    def send_frames(self, frames: list[bytes]) -> None:
        self.sock.send_multipart(frames)

    def recv(self, timeout_ms: int = 2000) -> tuple[dict[str, Any], list[bytes]] | None:
        if not self.sock.poll(timeout_ms):
            return None
        frames = self.sock.recv_multipart()
        return json.loads(frames[0]), frames[1:]

    def recv_all(self, timeout_ms: int = 20) -> list[dict[str, Any]]:
        """Every message that arrives with gaps shorter than ``timeout_ms``."""
        out = []
        while (got := self.recv(timeout_ms)) is not None:
            out.append(got[0])
        return out

    def close(self) -> None:
        self.sock.close(linger=0)


def free_port() -> int:
    """A TCP port on loopback that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
