"""The link server (pyagent/link/server.py) against pyzmq DEALER clients, with the real Session."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import zmq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from link_client import LinkClient, free_port

from pyagent.actions.delta import element_changes
from pyagent.link.protocol import MAX_JSON_BYTES
from pyagent.link.server import SPEECH_NOT_CONFIGURED, LinkServer, serve_main
from pyagent.session import Session

REPO = Path(__file__).resolve().parents[2]
HAUS = REPO / "ifc" / "AC20-FZK-Haus.ifc"
DOOR = "0pGAjlJMP3ifYPATVF5xAR"  # Innentuer-2, at (5.66, 5.8) on the ground floor
FACING_DOOR = {"position": [5.66, 4.0, 1.6], "yaw": 90.0, "pitch": 0.0}
HIDE_DOOR = {"steps": [{"op": "hide", "target": {"ids": [DOOR]}}]}
DOOR_IN_FRONT = {"steps": [{"op": "list", "target": {"class": ["IfcDoor"], "relations": [{"rel": "in_front"}],
                                                      "order": "nearest", "limit": 1}}]}


@pytest.fixture
def ctx() -> zmq.Context:
    context = zmq.Context()
    yield context
    context.term()


@pytest.fixture
def session() -> Session:
    return Session.open(HAUS)


@pytest.fixture
def server(session: Session, ctx: zmq.Context, request: pytest.FixtureRequest) -> LinkServer:
    srv = LinkServer(session, f"inproc://link-{request.node.name}", context=ctx)
    yield srv
    srv.close()


@pytest.fixture
def client(server: LinkServer, ctx: zmq.Context) -> LinkClient:
    c = LinkClient(server.endpoint, ctx)
    yield c
    c.close()


def exchange(client: LinkClient, server: LinkServer, body: dict[str, Any] | bytes,
             data: bytes | None = None) -> list[dict[str, Any]]:
    """Send one message, let the server handle it, return every reply."""
    client.send(body, data)
    server.poll_once(2000)
    return client.recv_all()


def hello(client: LinkClient, server: LinkServer, **extra: Any) -> dict[str, Any]:
    replies = exchange(client, server, {"type": "hello", "protocol": 2, **extra})
    assert len(replies) == 1, replies
    return replies[0]


def test_hello_gets_welcome_with_full_state_and_model(client: LinkClient, server: LinkServer,
                                                      session: Session) -> None:
    w = hello(client, server)
    assert w["type"] == "welcome" and w["protocol"] == 2 and w["seq"] == 0
    assert w["state"] == json.loads(json.dumps(session.state()))
    glb = session.glb_path.read_bytes()
    assert w["model"] == {"hash": hashlib.sha256(glb).hexdigest(), "name": server.model.name, "size": len(glb)}
    assert w["model"]["name"]


def test_model_bytes(client: LinkClient, server: LinkServer, session: Session) -> None:
    w = hello(client, server)
    client.send({"type": "get_model", "hash": w["model"]["hash"]})
    server.poll_once(2000)
    body, frames = client.recv()
    assert body["type"] == "model" and body["hash"] == w["model"]["hash"]
    assert len(frames) == 1 and frames[0] == session.glb_path.read_bytes()
    assert frames[0][:4] == b"glTF"
    err = exchange(client, server, {"type": "get_model", "hash": "0" * 64})
    assert err[0]["type"] == "error" and "unknown model" in err[0]["message"]


def test_do_sends_delta_then_result_with_increasing_seq(client: LinkClient, server: LinkServer,
                                                         session: Session) -> None:
    hello(client, server)
    replies = exchange(client, server, {"type": "do", "id": 7, "program": HIDE_DOOR})
    assert [r["type"] for r in replies] == ["delta", "result"]
    delta, result = replies
    assert delta["seq"] == 1
    assert delta["changes"]["elements"] == [{"ids": [DOOR], "hidden": True, "color": None, "transform": None,
                                             "deleted": False}]
    assert delta["changes"]["props_added"] == [] and delta["changes"]["props_removed"] == []
    assert result["id"] == 7 and result["ok"] is True and result["seq"] == 1
    assert result["program"] == HIDE_DOOR and result["error"] is None
    assert DOOR in session.state()["hidden"]
    color = {"steps": [{"op": "color", "target": {"ids": [DOOR]}, "rgba": [1, 0, 0, 1]}]}
    replies = exchange(client, server, {"type": "do", "id": 8, "program": color})
    assert [(r["type"], r["seq"]) for r in replies] == [("delta", 2), ("result", 2)]
    assert element_changes(replies[0]["changes"])[DOOR]["color"] == [1.0, 0.0, 0.0, 1.0]
    # A program that fails changes nothing: a result, no delta, seq stays.
    bad = {"steps": [{"op": "hide", "target": {"ids": ["NoSuchGlobalId000000"]}}]}
    replies = exchange(client, server, {"type": "do", "id": 9, "program": bad})
    assert [r["type"] for r in replies] == ["result"]
    assert replies[0]["ok"] is False and replies[0]["error"] and replies[0]["seq"] == 2
    assert server.seq == 2


def test_say_result_matches_the_session(client: LinkClient, server: LinkServer) -> None:
    hello(client, server)
    text = "how many windows are on the ground floor?"
    twin = Session.open(HAUS)
    want = json.loads(json.dumps(twin.say(text).to_json()))
    replies = exchange(client, server, {"type": "say", "id": 3, "text": text})
    result = [r for r in replies if r["type"] == "result"]
    assert len(result) == 1
    got = {k: result[0][k] for k in want}
    assert got == want and result[0]["id"] == 3


def _front_end_missing() -> str | None:
    try:
        import pyagent.language.front  # noqa: F401
    except ImportError as exc:
        return f"the language front end is not available yet ({exc})"
    return None


@pytest.mark.skipif(_front_end_missing() is not None, reason=str(_front_end_missing()))
def test_pose_then_say_hides_the_door_in_front(client: LinkClient, server: LinkServer) -> None:
    hello(client, server)
    client.send({"type": "pose", "pose": FACING_DOOR})
    replies = exchange(client, server, {"type": "say", "id": 1, "text": "hide the door in front of me"})
    assert [r["type"] for r in replies] == ["delta", "result"], replies
    assert replies[1]["ok"] is True, replies[1]
    assert replies[0]["changes"]["elements"] == [{"ids": [DOOR], "hidden": True, "color": None,
                                                  "transform": None, "deleted": False}]


def test_poses_are_coalesced_and_not_echoed(client: LinkClient, server: LinkServer, session: Session) -> None:
    hello(client, server)
    for i in range(30):
        pose = {"position": [1.0 + i * 0.01, 2.0, 1.6], "yaw": float(i), "pitch": 0.0}
        client.send({"type": "pose", "pose": pose})
    client.send({"type": "pose", "pose": FACING_DOOR})
    replies = exchange(client, server, {"type": "do", "id": 1, "program": DOOR_IN_FRONT})
    assert server.stats.poses_received == 31 and server.stats.poses_applied == 1
    assert [r["type"] for r in replies] == ["result"]  # the engine's own pose is not sent back
    assert replies[0]["value"] == [DOOR]
    for i in range(20):
        client.send({"type": "pose", "pose": {"position": [2.0, 3.0, 1.6], "yaw": float(i), "pitch": 1.0}})
    server.poll_once(2000)
    while server.poll_once(50):
        pass
    assert server.stats.poses_received == 51 and server.stats.poses_applied <= 3
    assert session.state()["pose"]["yaw"] == 19.0 and session.state()["pose"]["pitch"] == 1.0
    assert client.recv_all() == []


def test_teleport_pose_change_is_sent_as_delta(client: LinkClient, server: LinkServer) -> None:
    hello(client, server)
    client.send({"type": "pose", "pose": FACING_DOOR})
    turn = {"steps": [{"op": "turn", "degrees": 180}]}
    replies = exchange(client, server, {"type": "do", "id": 2, "program": turn})
    assert [r["type"] for r in replies] == ["delta", "result"] and replies[1]["ok"], replies
    assert replies[0]["changes"]["pose"]["yaw"] % 360 == pytest.approx(270.0)
    assert replies[0]["changes"]["pose"]["position"] == FACING_DOOR["position"]


MALFORMED: list[tuple[list[bytes], str]] = [
    ([b"not json"], "not UTF-8 JSON"),
    ([b"\xff\xfe"], "not UTF-8 JSON"),
    ([b"[1, 2]"], "must be a JSON object"),
    ([b'{"id": 1}'], '"type"'),
    ([b'{"type": "explode"}'], "unknown message type"),
    ([b'{"type": "say", "id": "1", "text": "hi"}'], "'id' must be an integer"),
    ([b'{"type": "say", "id": true, "text": "hi"}'], "'id' must be an integer"),
    ([b'{"type": "say", "id": 1}'], "missing field 'text'"),
    ([b'{"type": "do", "id": 1, "program": [1]}'], "'program' must be an object"),
    ([b'{"type": "select", "ids": "abc"}'], "'ids' must be a list of strings"),
    ([b'{"type": "select", "ids": [1, 2]}'], "'ids' must be a list of strings"),
    ([b'{"type": "hello", "protocol": "1"}'], "'protocol' must be an integer"),
    ([b'{"type": "ping", "t": NaN}'], "not UTF-8 JSON"),
    ([b'{"type": "pose", "pose": {"position": [1, 2], "yaw": 0, "pitch": 0}}'], "pose"),
    ([b'{"type": "pose", "pose": {"position": [1, 2, "x"], "yaw": 0, "pitch": 0}}'], "pose"),
    ([b'{"type": "pose", "pose": 5}'], "'pose' must be an object"),
    ([b'{"type": "audio", "id": 1}'], "frame 1"),
    ([b'{"type": "audio", "id": 1}', b"abc"], "even number of bytes"),
    ([b'{"type": "audio_start", "id": 1, "sample_rate": 5}'], "sample_rate"),
    ([b'{"type": "say", "id": 1, "text": "hi"}', b"xx"], "unexpected binary frame"),
    ([b'{"type": "say", "id": 1, "text": "hi"}', b"a", b"b"], "one or two frames"),
    ([b'{"type": "say", "id": 1, "text": "' + b"a" * MAX_JSON_BYTES + b'"}'], "too large"),
    ([b'{"type": "audio", "id": 1}', b"\x00" * (2 << 20)], "too large"),
    ([b'{"type": "do", "id": 4, "program": {"steps": "hide everything"}}'], ""),
]


@pytest.mark.parametrize(("frames", "expect"), MALFORMED, ids=[m[1] or "schema" for m in MALFORMED])
def test_malformed_messages_get_an_error_and_change_nothing(client: LinkClient, server: LinkServer,
                                                            session: Session, frames: list[bytes],
                                                            expect: str) -> None:
    hello(client, server)
    before = json.dumps(session.state(), sort_keys=True)
    client.send_frames(frames)
    server.poll_once(2000)
    replies = client.recv_all()
    assert len(replies) == 1, replies
    if expect:
        assert replies[0]["type"] == "error" and expect in replies[0]["message"], replies[0]
    else:  # well-formed message, invalid program: the session refuses it
        assert replies[0]["type"] == "result" and replies[0]["ok"] is False and replies[0]["error"]
    assert json.dumps(session.state(), sort_keys=True) == before
    assert server.seq == 0
    # and the link still works
    assert exchange(client, server, {"type": "ping", "t": 1.5}) == [{"type": "pong", "t": 1.5}]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.binary(max_size=64) | st.builds(
    lambda t, extra: json.dumps({"type": t, **extra}).encode(),
    st.sampled_from(["hello", "pose", "say", "do", "select", "audio_start", "audio", "audio_end", "get_model",
                     "ping", "nope"]),
    st.dictionaries(st.sampled_from(["id", "text", "program", "ids", "pose", "t", "hash", "protocol",
                                     "sample_rate"]),
                    st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.lists(st.integers(),
                                                                                            max_size=3)),
), min_size=1, max_size=2))
def test_fuzzed_messages_never_break_the_loop(client: LinkClient, server: LinkServer, frames: list[bytes]) -> None:
    client.send_frames(frames)
    server.poll_once(2000)
    client.recv_all(timeout_ms=0)
    client.send({"type": "ping", "t": 2})
    server.poll_once(2000)
    assert client.recv_all(timeout_ms=0)[-1] == {"type": "pong", "t": 2}


def test_select_is_mirrored_and_unknown_ids_refused(client: LinkClient, server: LinkServer) -> None:
    hello(client, server)
    replies = exchange(client, server, {"type": "select", "ids": [DOOR]})
    assert replies == [{"type": "delta", "seq": 1, "changes": {"elements": [], "props_added": [],
                                                               "props_removed": [], "selected": [DOOR]}}]
    replies = exchange(client, server, {"type": "select", "ids": ["bogus"]})
    assert [r["type"] for r in replies] == ["error"] and server.seq == 1


def test_deltas_go_to_every_engine_that_said_hello(server: LinkServer, ctx: zmq.Context) -> None:
    a, b, quiet = (LinkClient(server.endpoint, ctx) for _ in range(3))
    try:
        hello(a, server)
        hello(b, server)
        quiet.send({"type": "ping", "t": 0})
        server.poll_once(2000)
        assert quiet.recv()[0]["type"] == "pong"
        a.send({"type": "do", "id": 1, "program": HIDE_DOOR})
        server.poll_once(2000)
        assert [m["type"] for m in a.recv_all()] == ["delta", "result"]
        assert [(m["type"], m["seq"]) for m in b.recv_all()] == [("delta", 1)]
        assert quiet.recv_all() == []  # no baseline, no deltas
        # a second hello (as after a seq gap) gets the full state, which includes the change
        w = hello(b, server)
        assert w["seq"] == 1 and DOOR in w["state"]["hidden"]
    finally:
        for c in (a, b, quiet):
            c.close()


def test_token_is_required_and_checked(session: Session, ctx: zmq.Context) -> None:
    with pytest.raises(ValueError, match="token"):
        LinkServer(session, "tcp://0.0.0.0:*", allow_remote=True, context=ctx)
    with pytest.raises(ValueError, match="loopback"):
        LinkServer(session, "tcp://0.0.0.0:*", token="s3cret", context=ctx)
    with LinkServer(session, "tcp://127.0.0.1:*", token="s3cret", context=ctx) as srv:
        c = LinkClient(srv.endpoint, ctx)
        try:
            r = exchange(c, srv, {"type": "say", "id": 1, "text": "hide all doors"})
            assert r == [{"type": "error", "message": "not authorised: send hello with the agent's token first",
                          "id": 1}]
            r = exchange(c, srv, {"type": "do", "id": 2, "program": HIDE_DOOR})
            assert r[0]["type"] == "error" and session.state()["hidden"] == []
            assert exchange(c, srv, {"type": "hello", "protocol": 2})[0]["type"] == "error"
            r = exchange(c, srv, {"type": "hello", "protocol": 2, "token": "guess"})
            assert r == [{"type": "error", "message": "not authorised: wrong or missing token"}]
            assert exchange(c, srv, {"type": "pose", "pose": FACING_DOOR})[0]["type"] == "error"
            assert srv.stats.refused == 5 and srv.stats.poses_applied == 0
            assert hello(c, srv, token="s3cret")["type"] == "welcome"
            r = exchange(c, srv, {"type": "do", "id": 3, "program": HIDE_DOOR})
            assert [m["type"] for m in r] == ["delta", "result"] and r[1]["ok"]
        finally:
            c.close()


def test_remote_listen_with_token(session: Session, ctx: zmq.Context) -> None:
    with LinkServer(session, "tcp://0.0.0.0:*", token="tok", allow_remote=True, context=ctx) as srv:
        port = srv.endpoint.rsplit(":", 1)[1]
        c = LinkClient(f"tcp://127.0.0.1:{port}", ctx)
        try:
            assert hello(c, srv, token="tok")["type"] == "welcome"
        finally:
            c.close()


def test_wrong_protocol_version_refused(client: LinkClient, server: LinkServer) -> None:
    r = exchange(client, server, {"type": "hello", "protocol": 1})
    assert r[0]["type"] == "error" and "protocol 2" in r[0]["message"]


class FakeSpeech:
    """A speech service by the interface's rules: partials while feeding, the transcript at the end."""

    def __init__(self, transcript: str, fail_on_feed: bool = False) -> None:
        self.transcript = transcript
        self.fail_on_feed = fail_on_feed
        self.started: dict[int, int] = {}
        self.audio: dict[int, bytes] = {}

    def start(self, utt_id: int, sample_rate: int) -> None:
        self.started[utt_id] = sample_rate
        self.audio[utt_id] = b""

    def feed(self, utt_id: int, pcm16: bytes) -> str | None:
        if self.fail_on_feed:
            raise RuntimeError("decoder exploded")
        self.audio[utt_id] += pcm16
        words = self.transcript.split()
        n = len(self.audio[utt_id]) // 3200  # one word per 0.1 s at 16 kHz
        return " ".join(words[:n]) if n else None

    def finish(self, utt_id: int) -> str:
        return self.transcript if self.audio.pop(utt_id) else ""


def test_audio_without_speech_is_refused_once(client: LinkClient, server: LinkServer, session: Session) -> None:
    hello(client, server)
    r = exchange(client, server, {"type": "audio_start", "id": 5, "sample_rate": 16000})
    assert len(r) == 1 and r[0]["type"] == "result" and r[0]["id"] == 5 and r[0]["ok"] is False
    assert r[0]["error"].startswith(SPEECH_NOT_CONFIGURED)
    assert "python -m" not in r[0]["answer"], r[0]["answer"]  # the user gets a sentence, the log the command
    assert "python -m pyagent models fetch" in r[0]["error"]
    assert exchange(client, server, {"type": "audio", "id": 5}, b"\x00\x00" * 1600) == []
    assert exchange(client, server, {"type": "audio_end", "id": 5}) == []
    r = exchange(client, server, {"type": "audio_end", "id": 6})
    assert r[0]["type"] == "error" and "no audio_start" in r[0]["message"]


def test_audio_runs_the_transcript(session: Session, ctx: zmq.Context) -> None:
    speech = FakeSpeech("hide the door in front of me")
    with LinkServer(session, "inproc://audio", context=ctx, speech=speech) as srv:
        c = LinkClient(srv.endpoint, ctx)
        try:
            hello(c, srv)
            assert exchange(c, srv, {"type": "audio_start", "id": 1, "sample_rate": 16000}) == []
            assert list(speech.started.values()) == [16000]
            partials = []
            for _ in range(4):
                partials += exchange(c, srv, {"type": "audio", "id": 1}, b"\x01\x00" * 1600)
            assert [p["text"] for p in partials] == ["hide", "hide the", "hide the door", "hide the door in"]
            assert all(p["type"] == "partial" and p["id"] == 1 for p in partials)
            twin = Session.open(HAUS)
            want = json.loads(json.dumps(twin.say(speech.transcript).to_json()))
            r = exchange(c, srv, {"type": "audio_end", "id": 1})
            res = r[-1]
            assert res["type"] == "result" and res["id"] == 1 and res["transcript"] == speech.transcript
            assert {k: res[k] for k in want} == want
            # silence: nothing recognised
            exchange(c, srv, {"type": "audio_start", "id": 2, "sample_rate": 16000})
            r = exchange(c, srv, {"type": "audio_end", "id": 2})
            assert r[0]["ok"] is False and r[0]["transcript"] == "" and r[0]["error"] == "nothing was recognised"
            # a speech failure is a result, not a crash; the utterance's remaining audio is ignored
            speech.fail_on_feed = True
            exchange(c, srv, {"type": "audio_start", "id": 3, "sample_rate": 16000})
            r = exchange(c, srv, {"type": "audio", "id": 3}, b"\x00\x00" * 10)
            assert r[0]["type"] == "result" and "decoder exploded" in r[0]["error"]
            assert exchange(c, srv, {"type": "audio_end", "id": 3}) == []
        finally:
            c.close()


def test_a_failing_session_does_not_stop_the_loop(client: LinkClient, server: LinkServer, session: Session,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    hello(client, server)

    def broken(_program: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(session, "do", broken)
    r = exchange(client, server, {"type": "do", "id": 11, "program": HIDE_DOOR})
    assert r[0]["type"] == "result" and r[0]["id"] == 11 and r[0]["ok"] is False and "boom" in r[0]["error"]
    assert exchange(client, server, {"type": "ping", "t": 3}) == [{"type": "pong", "t": 3}]


def test_run_stops_on_stop(server: LinkServer) -> None:
    import threading

    t = threading.Thread(target=server.run, kwargs={"install_signals": False})
    t.start()
    time.sleep(0.2)
    server.stop()
    t.join(5)
    assert not t.is_alive()


def test_serve_main_refuses_listen_without_token(capsys: pytest.CaptureFixture[str]) -> None:
    assert serve_main(["--ifc", str(HAUS), "--listen", "0.0.0.0"]) == 2
    assert "--token" in capsys.readouterr().err


def test_serve_subprocess_and_sigterm() -> None:
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-m", "pyagent", "serve", "--ifc", str(HAUS), "--no-speech",
                             "--no-journal",
                             "--endpoint", f"tcp://127.0.0.1:{port}"], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening on tcp://127.0.0.1:"), line + proc.stderr.read()
        c = LinkClient(f"tcp://127.0.0.1:{port}")
        c.send({"type": "hello", "protocol": 2})
        got = c.recv(10000)
        assert got is not None and got[0]["type"] == "welcome"
        c.send({"type": "audio_start", "id": 1, "sample_rate": 16000})
        got = c.recv(10000)
        assert got is not None and got[0]["ok"] is False and "--no-speech" in got[0]["error"]
        c.close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
