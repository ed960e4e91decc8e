"""The GDScript ZMTP client (addons/bimvoice/link) against real ZeroMQ peers, run by headless Godot."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
import zmq
from link_client import free_port, start_agent, stop_agent
from link_godot_project import GodotProject

pytestmark = pytest.mark.godot


def pattern(n: int, seed: int) -> bytes:
    """The same bytes as ``_pattern`` in test_zmtp_router.gd."""
    return bytes((i * seed + (i >> 8)) & 0xFF for i in range(n))


def finish(proc: subprocess.Popen[str], timeout: float = 30) -> str:
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return out


def test_frames_conversions(godot_project: GodotProject) -> None:
    out = godot_project.run("tests/godot/link/test_frames.gd")
    assert out.returncode == 0, out.stdout + out.stderr
    assert " 0 failures" in out.stdout


def _router(ctx: zmq.Context, port: int) -> zmq.Socket:
    sock = ctx.socket(zmq.ROUTER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.HEARTBEAT_IVL, 100)
    sock.setsockopt(zmq.HEARTBEAT_TIMEOUT, 2000)
    sock.bind(f"tcp://127.0.0.1:{port}")
    return sock


def test_zmtp_client_against_pyzmq_router(godot_project: GodotProject) -> None:
    port = free_port()
    ctx = zmq.Context()
    router = _router(ctx, port)
    proc = godot_project.start("tests/godot/link/test_zmtp_router.gd", f"--port={port}")
    seen: list[list[bytes]] = []
    restarted = done = False
    big = pattern(3 * 1024 * 1024, 7)
    try:
        deadline = time.monotonic() + 90
        while not done and proc.poll() is None and time.monotonic() < deadline:
            if not router.poll(100):
                continue
            ident, *frames = router.recv_multipart()
            seen.append(frames)
            if frames == [b"restart"]:
                router.close(linger=0)
                time.sleep(0.5)
                router = _router(ctx, port)
                restarted = True
            elif frames == [b"big"]:
                router.send_multipart([ident, big])
            elif frames == [b"done"]:
                done = True
            else:
                router.send_multipart([ident, b"echo", *frames])
        out = finish(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
        router.close(linger=0)
        ctx.term()
    assert proc.returncode == 0, out
    assert " 0 failures" in out, out
    assert restarted and done
    first = seen[0]
    assert first[0] == b"multi" and first[1] == pattern(300, 1) and first[2] == pattern(70000, 3)
    assert first[3] == b""
    assert [f[1] for f in seen if f[0] == b"n"] == [str(i).encode() for i in range(200)]
    assert [b"after-restart", pattern(300, 1)] in seen


def _raw_zmtp30_router(listener) -> None:  # noqa: ANN001 - a socket.socket
    """A minimal ZMTP 3.0 ROUTER written from the spec: greet 3.0, READY, echo one message, then PING."""
    conn, _ = listener.accept()
    with conn:
        conn.settimeout(20)
        greeting = bytearray(64)
        greeting[0], greeting[9], greeting[10], greeting[11] = 0xFF, 0x7F, 3, 0
        greeting[12:16] = b"NULL"
        conn.sendall(bytes(greeting))
        buf = b""

        def need(n: int) -> bytes:
            nonlocal buf
            while len(buf) < n:
                chunk = conn.recv(65536)
                if not chunk:
                    raise ConnectionError("client went away")
                buf += chunk
            out, buf = buf[:n], buf[n:]
            return out

        def frame() -> tuple[int, bytes]:
            flags = need(1)[0]
            size = int.from_bytes(need(8), "big") if flags & 2 else need(1)[0]
            return flags, need(size)

        peer = need(64)
        assert peer[0] == 0xFF and peer[9] == 0x7F and peer[10] == 3 and peer[12:16] == b"NULL"
        flags, ready = frame()
        assert flags == 0x04 and ready.startswith(b"\x05READY")
        assert b"\x0bSocket-Type\x00\x00\x00\x06DEALER" in ready
        meta = b"\x0bSocket-Type\x00\x00\x00\x06ROUTER"
        body = b"\x05READY" + meta
        conn.sendall(bytes([0x04, len(body)]) + body)
        parts = []
        while True:
            flags, data = frame()
            parts.append(data)
            if not flags & 1:
                break
        reply = [b"echo30", *parts]
        for i, part in enumerate(reply):
            more = 1 if i < len(reply) - 1 else 0
            head = bytes([more | 2]) + len(part).to_bytes(8, "big") if len(part) > 255 else bytes([more, len(part)])
            conn.sendall(head + part)
        # A heartbeat PING (as a 3.1 peer would send) must be answered with PONG and the same context.
        ping = b"\x04PING" + (10).to_bytes(2, "big") + b"ctx42"
        conn.sendall(bytes([0x04, len(ping)]) + ping)
        flags, pong = frame()
        assert flags == 0x04 and pong == b"\x04PONGctx42", pong
        conn.sendall(bytes([0x00, 3]) + b"bye")
        need(1)  # wait for the client to send its last message


def test_zmtp_client_against_zmtp30_peer(godot_project: GodotProject) -> None:
    import socket
    import threading

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    errors: list[BaseException] = []

    def serve() -> None:
        try:
            _raw_zmtp30_router(listener)
        except (AssertionError, OSError) as exc:
            errors.append(exc)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    out = godot_project.run("tests/godot/link/test_zmtp30.gd", f"--port={port}", timeout=60)
    thread.join(10)
    listener.close()
    assert not errors, errors
    assert out.returncode == 0, out.stdout + out.stderr


REPO = Path(__file__).resolve().parents[2]
HAUS = REPO / "ifc" / "AC20-FZK-Haus.ifc"
POSE = {"position": [5.66, 4.0, 1.6], "yaw": 90.0, "pitch": 0.0}  # as sent by test_agent_e2e.gd


def _front_end_missing() -> str | None:
    try:
        import pyagent.language.front  # noqa: F401
    except ImportError as exc:
        return f"the language front end is not available ({exc})"
    return None


@pytest.mark.skipif(_front_end_missing() is not None, reason=str(_front_end_missing()))
def test_engine_says_hide_the_door_in_front(godot_project: GodotProject) -> None:
    from pyagent.model import Pose
    from pyagent.session import Session

    twin = Session.open(HAUS)
    twin.set_pose(Pose.from_json(POSE))
    door_in_front = twin.do({"steps": [{"op": "list", "target": {
        "class": ["IfcDoor"], "relations": [{"rel": "in_front"}], "order": "nearest", "limit": 1}}]}).value
    assert len(door_in_front) == 1
    port = free_port()
    agent = start_agent(HAUS, port)
    try:
        out = godot_project.run("tests/godot/link/test_agent_e2e.gd", f"--port={port}",
                                f"--door={door_in_front[0]}",
                                f"--model-size={twin.glb_path.stat().st_size}", timeout=120)
    finally:
        stop_agent(agent)
    assert out.returncode == 0, out.stdout + out.stderr
    assert " 0 failures" in out.stdout


def test_engine_without_agent_reports_once_and_connects_later(godot_project: GodotProject) -> None:
    port = free_port()
    proc = godot_project.start("tests/godot/link/test_agent_offline.gd", f"--port={port}")
    agent = None
    try:
        assert proc.stdout is not None
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "READY-FOR-AGENT" in line:
                agent = start_agent(HAUS, port)
                break
        out = "".join(lines) + finish(proc, timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        if agent is not None:
            stop_agent(agent)
    assert agent is not None, out
    assert proc.returncode == 0, out
    assert " 0 failures" in out
    assert out.count("agent not running on") == 1, out  # printed once, however many retries
    assert "ERROR" not in out, out
