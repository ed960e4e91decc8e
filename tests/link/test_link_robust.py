"""The link server under the attacks of issue 14: numbers no parser should let through, strangers
flooding the peer table, unauthenticated peers fishing for detail, a save that would block the loop."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import zmq
from link_client import LinkClient

from pyagent.link.server import MAX_ENGINES, MAX_STRANGERS, NOT_AUTHORISED, LinkServer, serve_main
from pyagent.session import Session

REPO = Path(__file__).resolve().parents[2]
HAUS = REPO / "ifc" / "AC20-FZK-Haus.ifc"
DOOR = "0pGAjlJMP3ifYPATVF5xAR"
HIDE_DOOR = {"steps": [{"op": "hide", "target": {"ids": [DOOR]}}]}
HUGE = "1" + "0" * 400


@pytest.fixture(scope="module")
def session() -> Session:
    return Session.open(HAUS)


@pytest.fixture
def ctx() -> zmq.Context:
    context = zmq.Context()
    yield context
    context.term()


def _server(session: Session, ctx: zmq.Context, name: str, token: str | None = None) -> LinkServer:
    return LinkServer(session, f"inproc://robust-{name}", context=ctx, token=token)


def _exchange(client: LinkClient, server: LinkServer, frame: bytes | dict[str, Any]) -> list[dict[str, Any]]:
    client.send(frame)
    server.poll_once(2000)
    return client.recv_all()


def _alive(client: LinkClient, server: LinkServer) -> bool:
    return _exchange(client, server, {"type": "ping", "t": 7}) == [{"type": "pong", "t": 7}]


HOSTILE_NUMBERS = [
    b'{"type":"ping","t":' + HUGE.encode() + b"}",
    b'{"type":"ping","t":-' + HUGE.encode() + b"}",
    b'{"type":"ping","t":1e999}',
    b'{"type":"ping","t":' + b"1" * 5000 + b"}",
    b'{"type":"pose","pose":{"position":[' + HUGE.encode() + b',0,0],"yaw":0,"pitch":0}}',
    b'{"type":"pose","pose":{"position":[1,2,1.6],"yaw":' + HUGE.encode() + b',"pitch":0}}',
    b'{"type":"pose","pose":{"position":[1e999,0,0],"yaw":0,"pitch":0}}',
    b'{"type":"say","id":' + HUGE.encode() + b',"text":"hi"}',
    b'{"type":"say","id":1,"text":"\\ud800"}',
    b'{"type":"do","id":1,"program":{"steps":[{"op":"hide","target":{"ids":["\\udfff"]}}]}}',
    b'{"type":"hello","protocol":' + HUGE.encode() + b"}",
    # issue 14.2: a 170 KB frame of invalid steps blocked the link for 23 s and the error repeated it
    json.dumps({"type": "do", "id": 9, "program": {"steps": [
        {"op": "hide", "target": {"ids": ["0pGAjlJMP3ifYPATVF5xAR"] * 3}, "junk": 1}] * 1700}}).encode(),
    json.dumps({"type": "do", "id": 10, "program": {"steps": [
        {"op": "hide", "target": {"ids": ["0pGAjlJMP3ifYPATVF5xAR"] * 3000}, "junk": 1}] * 8}}).encode(),
]


@pytest.mark.parametrize("token", [None, "s3cret"])
def test_hostile_numbers_and_strings_never_end_the_loop(session: Session, ctx: zmq.Context,
                                                        token: str | None) -> None:
    """Issue 14.1: a 400-digit integer in a ping or pose raised OverflowError out of poll_once."""
    before = session.state()
    server = _server(session, ctx, f"numbers-{token}", token)
    client = LinkClient(server.endpoint, ctx)
    try:
        if token:  # before authenticating: nothing but a refusal, whatever was sent
            for frame in HOSTILE_NUMBERS:
                replies = _exchange(client, server, frame)
                assert [(r["type"], r["message"]) for r in replies] == [("error", NOT_AUTHORISED)], (frame[:60],
                                                                                             replies)
        hello = {"type": "hello", "protocol": 2, **({"token": token} if token else {})}
        assert _exchange(client, server, hello)[0]["type"] == "welcome"
        for frame in HOSTILE_NUMBERS:
            replies = _exchange(client, server, frame)
            assert len(replies) == 1, (frame[:60], replies)
            reply = replies[0]
            assert reply["type"] == "error" or (reply["type"] == "result" and not reply["ok"]), reply
            assert len(json.dumps(reply)) < 600, "the error repeats the input"
            assert _alive(client, server)
        assert session.state() == before
    finally:
        client.close()
        server.close()


def test_strangers_cannot_push_out_a_logged_in_engine(session: Session, ctx: zmq.Context) -> None:
    """Issue 14.4: 65 connections evicted the engine that had said hello with the token."""
    server = _server(session, ctx, "evict", "s3cret")
    engine = LinkClient(server.endpoint, ctx)
    strangers: list[LinkClient] = []
    try:
        assert _exchange(engine, server, {"type": "hello", "protocol": 2, "token": "s3cret"})[0]["type"] == "welcome"
        for _ in range(3 * MAX_STRANGERS):
            c = LinkClient(server.endpoint, ctx)
            strangers.append(c)
            c.send({"type": "ping", "t": 1})
        while server.poll_once(200):
            pass
        for c in strangers:
            assert c.recv_all() == [{"type": "error", "message": NOT_AUTHORISED}]
        assert len([p for p in server.peers if not p.helloed]) <= MAX_STRANGERS
        replies = _exchange(engine, server, {"type": "do", "id": 1, "program": HIDE_DOOR})
        assert replies[-1]["type"] == "result" and replies[-1]["ok"], replies
        assert session.state()["hidden"] == [DOOR]
        _exchange(engine, server, {"type": "do", "id": 2, "program": {"steps": [{"op": "reset"}]}})
    finally:
        for c in [engine, *strangers]:
            c.close()
        server.close()


def test_the_engine_table_is_bounded_but_live_engines_stay(session: Session, ctx: zmq.Context) -> None:
    server = _server(session, ctx, "engines")
    engines = [LinkClient(server.endpoint, ctx) for _ in range(MAX_ENGINES + 1)]
    try:
        for e in engines[:MAX_ENGINES]:
            assert _exchange(e, server, {"type": "hello", "protocol": 2})[0]["type"] == "welcome"
        refused = _exchange(engines[-1], server, {"type": "hello", "protocol": 2})
        assert refused[0]["type"] == "error" and "too many engines" in refused[0]["message"]
        for e in engines[:MAX_ENGINES]:
            assert _alive(e, server)
    finally:
        for e in engines:
            e.close()
        server.close()


def test_token_from_a_file_or_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 14.11: the token showed in /proc/PID/cmdline; --token-file and $PYAGENT_LINK_TOKEN keep it out."""
    from pyagent.link.server import build_parser, resolve_token

    secret = tmp_path / "token"
    secret.write_text("from-file\n")
    assert resolve_token(build_parser().parse_args(["--ifc", "x", "--token-file", str(secret)])) == "from-file"
    monkeypatch.setenv("PYAGENT_LINK_TOKEN", "from-env")
    assert resolve_token(build_parser().parse_args(["--ifc", "x"])) == "from-env"
    empty = tmp_path / "empty"
    empty.write_text("\n")
    assert serve_main(["--ifc", str(HAUS), "--token-file", str(empty), "--no-speech", "--no-journal"]) == 2
    assert "empty" in capsys.readouterr().err
    assert serve_main(["--ifc", str(HAUS), "--token-file", str(tmp_path / "missing"), "--no-journal"]) == 2


def test_save_runs_in_the_background_and_the_link_keeps_answering(tmp_path: Path, ctx: zmq.Context) -> None:
    """Issue 14.7: saving blocked the link (33 s for an edited MiniProject, pings waited). Now the revision
    is written by a child process: the result comes at once, pings are answered meanwhile, a second save
    is refused clearly, and a status message says when the revision is on disk."""
    import shutil

    model = tmp_path / "model" / HAUS.name
    model.parent.mkdir()
    shutil.copy(HAUS, model)
    session = Session.open(model, save_dir=tmp_path / "out")
    server = _server(session, ctx, "save")
    client = LinkClient(server.endpoint, ctx)
    try:
        assert _exchange(client, server, {"type": "hello", "protocol": 2})[0]["type"] == "welcome"
        walls = sorted(e.id for e in session.building.products() if e.ifc_class.startswith("IfcWall"))[:3]
        _exchange(client, server, {"type": "do", "id": 1, "program": {"steps": [
            {"op": "move", "target": {"ids": walls}, "delta": [0.5, 0, 0]},
            {"op": "color", "target": {"ids": walls}, "rgba": [1, 0, 0, 1]}]}})
        replies = _exchange(client, server, {"type": "do", "id": 2, "program": {"steps": [{"op": "save"}]}})
        result = next(r for r in replies if r["type"] == "result")
        assert result["ok"] and "being written" in result["answer"], result
        assert session.persistence.saving
        assert _alive(client, server)  # answered while the revision is being written
        again = _exchange(client, server, {"type": "do", "id": 3, "program": {"steps": [{"op": "save"}]}})
        again_result = next(r for r in again if r["type"] == "result")
        assert not again_result["ok"] and "still being written" in again_result["error"], again_result
        status: list[dict[str, Any]] = []
        for _ in range(600):
            server.poll_once(100)
            status += [m for m in client.recv_all(0) if m["type"] == "status"]
            if status:
                break
        assert status and status[0]["text"].startswith("Saved a new revision"), status
        revisions = list((tmp_path / "out").glob("*.rev*.ifc"))
        assert len(revisions) == 1 and session.persistence.last_save is not None
        assert session.persistence.last_save.moved == 3 and not session.persistence.saving
    finally:
        client.close()
        server.close()
        session.close()
