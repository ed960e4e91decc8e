"""The engine link under bad input, floods and crashes (the link server itself is pyagent/link/; these tests
only drive it): loopback by default, a token for remote engines, every malformed message refused without
changing anything, no change lost in a flood, and a restarted agent hands engines the journaled state."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import zmq
from persist_helpers import FZK, change_lines, copy_ifc

from pyagent.link.server import LinkServer
from pyagent.session import Session

LOOPBACK = "tcp://127.0.0.1:*"


@contextmanager
def serving(session: Session, token: str | None = None) -> Iterator[LinkServer]:
    server = LinkServer(session, LOOPBACK, token=token)
    thread = threading.Thread(target=server.run, kwargs={"install_signals": False}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stop()
        thread.join(10)
        server.close()


class Engine:
    """A DEALER socket standing in for the Godot engine."""

    def __init__(self, endpoint: str) -> None:
        self.ctx = zmq.Context()
        self.sock = self.ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect(endpoint)

    def send(self, body: dict[str, Any] | bytes, *extra: bytes) -> None:
        frame = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.sock.send_multipart([frame, *extra])

    def recv(self, timeout_ms: int = 5000) -> dict[str, Any] | None:
        if not self.sock.poll(timeout_ms):
            return None
        return json.loads(self.sock.recv_multipart()[0])

    def until(self, kind: str, timeout_s: float = 10.0) -> dict[str, Any]:
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            msg = self.recv(100)
            if msg is not None and msg.get("type") == kind:
                return msg
        raise AssertionError(f"no {kind} message")

    def alive(self) -> bool:
        t = random.random()
        self.send({"type": "ping", "t": t})
        end = time.monotonic() + 5
        while time.monotonic() < end:
            msg = self.recv(100)
            if msg is not None and msg.get("type") == "pong" and msg.get("t") == t:
                return True
        return False

    def close(self) -> None:
        self.sock.close(0)
        self.ctx.term()


@pytest.fixture
def session(tmp_path: Path) -> Session:
    return Session.open(copy_ifc(FZK, tmp_path / "model"), journal_dir=tmp_path / "journal")


def test_only_loopback_unless_remote_is_asked_for_with_a_token(session: Session) -> None:
    with pytest.raises(ValueError, match="loopback"):
        LinkServer(session, "tcp://0.0.0.0:*")
    with pytest.raises(ValueError, match="token"):
        LinkServer(session, "tcp://0.0.0.0:*", allow_remote=True)


def test_without_the_token_nothing_gets_in(session: Session) -> None:
    before = session.state()
    wall = sorted(e.id for e in session.building.products() if e.ifc_class.startswith("IfcWall"))[0]
    hide = {"type": "do", "id": 1, "program": {"steps": [{"op": "hide", "target": {"ids": [wall]}}]}}
    with serving(session, token="s3cret") as server:
        engine = Engine(server.endpoint)
        try:
            engine.send(hide)
            assert "not authorised" in engine.until("error")["message"]
            engine.send({"type": "hello", "protocol": 2, "token": "guess"})
            assert "not authorised" in engine.until("error")["message"]
            engine.send(hide)
            engine.until("error")
            assert session.state() == before
            engine.send({"type": "hello", "protocol": 2, "token": "s3cret"})
            assert engine.until("welcome")["state"] == before
            engine.send(hide)
            assert engine.until("result")["ok"] is True
        finally:
            engine.close()
    assert session.state()["hidden"] == [wall]


HOSTILE: list[list[bytes]] = [
    [b""], [b"\xff\xfe\x00"], [b"not json"], [b"[]"], [b"null"], [b'{"type": 5}'], [b'{"type": "nope"}'],
    [b'{"type": "do", "id": 1}'], [b'{"type": "do", "id": 1, "program": "rm -rf /"}'],
    [b'{"type": "do", "id": 2, "program": {"steps": [{"op": "delete", "target": {"class": ["IfcSpace"]}}]}}'],
    [b'{"type": "pose", "pose": {"position": [NaN, 0, 0], "yaw": 0, "pitch": 0}}'],
    [b'{"type": "pose", "pose": {"position": [1e300, 0, 0], "yaw": 0, "pitch": 0}}'],
    [b'{"type": "select", "ids": ["../../etc/passwd"]}'], [b'{"type": "select", "ids": "all"}'],
    [b'{"type": "get_model", "hash": "../../../../etc/passwd"}'],
    [b'{"type": "say", "id": 3, "text": "' + b"x" * 5000 + b'"}'],
    [b'{"type": "hello", "protocol": 99}'], [b'{"type": "ping", "t": 1}', b"unexpected binary"],
    [b'{"type": "audio", "id": 1}', b"\x00"], [b"{" + b'"a":' * 20 + b"1" + b"}" * 20],
    [b'{"type": "do", "id": 4, "program": ' + json.dumps({"steps": [{"op": "hide", "target": {
        "except": json.loads('{"except": ' * 600 + "{}" + "}" * 600)}}]}).encode() + b"}"],
    [b'{"type": "select", "ids": ' + json.dumps(["x" * 22] * 40000).encode() + b"}"],
    [b'{"type": "say", "id": 5, "text": "' + b"a" * (2 << 20) + b'"}'],
]


def test_hostile_messages_are_refused_and_change_nothing(session: Session) -> None:
    before = session.state()
    with serving(session) as server:
        engine = Engine(server.endpoint)
        try:
            engine.send({"type": "hello", "protocol": 2})
            engine.until("welcome")
            for frames in HOSTILE:
                engine.sock.send_multipart(frames)
                reply = engine.recv(10_000)
                assert reply is not None, frames[0][:80]
                assert reply["type"] == "error" or (reply["type"] == "result" and reply["ok"] is False), reply
                assert session.state() == before, frames[0][:80]
            assert engine.alive()
        finally:
            engine.close()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_deeply_nested_frame_does_not_stop_the_server(session: Session) -> None:
    with serving(session) as server:
        engine = Engine(server.endpoint)
        try:
            engine.send(b"[" * 10000 + b"]" * 10000)
            assert engine.alive()
        finally:
            engine.close()


def test_a_flood_loses_no_change(session: Session, tmp_path: Path) -> None:
    """3000 poses, 400 changes and 400 malformed messages as fast as the socket takes them: every change
    is answered and applied in order, and the journal has them all."""
    rng = random.Random(9)
    ref = Session.open(session.building.path)
    programs = [x["do"] for x in change_lines(session.building, rng, 1200) if "do" in x
                and x["do"]["steps"][0]["op"] not in ("turn", "teleport", "add_prop")][:400]
    with serving(session) as server:
        engine = Engine(server.endpoint)
        try:
            engine.send({"type": "hello", "protocol": 2})
            engine.until("welcome")
            for i, program in enumerate(programs):
                for _ in range(8):
                    engine.send({"type": "pose", "pose": {"position": [rng.uniform(1, 9), rng.uniform(1, 9), 1.6],
                                                          "yaw": rng.uniform(-180, 180), "pitch": 0}})
                engine.send(b'{"type": "do", "id": "x"}')
                engine.send({"type": "do", "id": i, "program": program})
                ref.do(program)
            last_pose = {"position": [2.0, 3.0, 1.6], "yaw": 45.0, "pitch": 0.0}
            engine.send({"type": "pose", "pose": last_pose})
            results: dict[int, Any] = {}
            errors = 0
            end = time.monotonic() + 120
            while len(results) < len(programs) and time.monotonic() < end:
                msg = engine.recv(1000)
                if msg is None:
                    continue
                if msg["type"] == "result":
                    results[msg["id"]] = msg
                elif msg["type"] == "error":
                    errors += 1
            assert engine.alive()
        finally:
            engine.close()
    assert len(results) == len(programs) and errors >= len(programs)
    expected = {**ref.state(), "pose": last_pose}
    assert session.state() == expected
    session.persistence.journal._fh.close()  # crash: no close
    session.persistence.journal._lock_fh.close()
    assert Session.open(session.building.path, journal_dir=tmp_path / "journal").state() == expected


def test_after_a_crash_engines_get_the_journaled_state(session: Session, tmp_path: Path) -> None:
    windows = sorted(e.id for e in session.building.products() if e.ifc_class == "IfcWindow")
    with serving(session) as server:
        engine = Engine(server.endpoint)
        try:
            engine.send({"type": "hello", "protocol": 2})
            engine.until("welcome")
            engine.send({"type": "do", "id": 1, "program": {"steps": [
                {"op": "color", "target": {"ids": windows[:3]}, "rgba": [1, 0, 0, 1]}]}})
            assert engine.until("result")["ok"]
            engine.send({"type": "select", "ids": windows[3:4]})
            assert engine.alive()
        finally:
            engine.close()
    acknowledged = session.state()
    session.persistence.journal._fh.close()  # crash: no close
    session.persistence.journal._lock_fh.close()
    restarted = Session.open(session.building.path, journal_dir=tmp_path / "journal")
    with serving(restarted) as server:
        engine = Engine(server.endpoint)
        try:
            engine.send({"type": "hello", "protocol": 2})
            welcome = engine.until("welcome")
        finally:
            engine.close()
    assert welcome["state"] == acknowledged
    assert welcome["state"]["colors"] and welcome["state"]["selected"] == windows[3:4]
