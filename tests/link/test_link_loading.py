"""While serve loads a building the first time, engines that connect hear how far it got (status
lines over the link, token respected), then get their welcome from the real link on the same
socket without saying hello again; the loader reports its stages to a progress callback, and the
terminal bar stays off stdout. serve's loading process writes the cache after handing the building over."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import zmq
from link_client import LinkClient

from pyagent.link.loading import NOT_AUTHORISED, LoadingResponder
from pyagent.link.server import LinkServer
from pyagent.link.streaming import BackgroundLoad
from pyagent.loader import is_cached, load, save_cache
from pyagent.progress import STAGES, TerminalBar, Throttled
from pyagent.session import Session

REPO = Path(__file__).resolve().parents[2]
DUPLEX = REPO / "ifc" / "duplex.ifc"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_loading_responder_answers_hello_and_sends_each_new_line() -> None:
    endpoint = f"tcp://127.0.0.1:{_port()}"
    responder = LoadingResponder(endpoint, token="s3cret")
    stranger, engine = LinkClient(endpoint), LinkClient(endpoint)
    try:
        stranger.send({"type": "hello", "protocol": 2})
        got = stranger.recv(3000)
        assert got is not None and got[0] == {"type": "error", "message": NOT_AUTHORISED}
        engine.send({"type": "hello", "protocol": 2, "token": "s3cret"})
        got = engine.recv(3000)
        assert got is not None and got[0]["type"] == "status" and got[0]["text"].startswith("Loading")
        line = "Loading x.ifc: making the geometry: 50 % (1 of 2)"
        responder.update(line)
        got = engine.recv(3000)
        assert got is not None and got[0] == {"type": "status", "text": line}
        assert stranger.recv(300) is None  # strangers hear nothing more
    finally:
        stranger.close()
        engine.close()
        responder.close()


def test_the_link_goes_on_with_the_responders_socket_and_welcomes_who_waited(tmp_path: Path) -> None:
    endpoint = f"tcp://127.0.0.1:{_port()}"
    ctx = zmq.Context()
    responder = LoadingResponder(endpoint, token="s3cret", context=ctx)
    waiting, stranger, late = LinkClient(endpoint, ctx), LinkClient(endpoint, ctx), LinkClient(endpoint, ctx)
    server: LinkServer | None = None
    try:
        waiting.send({"type": "hello", "protocol": 2, "token": "s3cret"})
        got = waiting.recv(3000)
        assert got is not None and got[0]["type"] == "status"
        stranger.send({"type": "hello", "protocol": 2, "token": "guess"})
        got = stranger.recv(3000)
        assert got is not None and got[0] == {"type": "error", "message": NOT_AUTHORISED}
        bound, hellos = responder.hand_over()
        assert len(hellos) == 1  # only the engine with the token waits for a welcome
        late.send({"type": "hello", "protocol": 2, "token": "s3cret"})  # sent while the socket has no reader
        session = Session.from_loaded(load(DUPLEX, cache=tmp_path))
        server = LinkServer(session, endpoint, token="s3cret", bound=bound)
        assert server.endpoint == endpoint and server.socket is bound
        server.welcome_waiting(hellos)
        got = waiting.recv(3000)  # no second hello: the welcome comes as the link starts
        assert got is not None and got[0]["type"] == "welcome" and got[0]["model"]["size"] > 100_000
        server.poll_once(2000)  # the hello that came in between is read by the link, from the same socket
        got = late.recv(3000)
        assert got is not None and got[0]["type"] == "welcome"
        assert stranger.recv(300) is None and len(server._engines) == 2
        waiting.send({"type": "do", "id": 1, "program": {"steps": [{"op": "hide", "target": {"class": ["IfcDoor"]}}]}})
        server.poll_once(2000)
        kinds = [m["type"] for m in waiting.recv_all(500)]
        assert kinds == ["delta", "result"], kinds
    finally:
        for c in (waiting, stranger, late):
            c.close()
        if server is not None:
            server.close()
        else:
            responder.close()
        ctx.term()


def test_a_first_load_leaves_the_cache_to_the_caller_when_asked(tmp_path: Path) -> None:
    loaded = load(DUPLEX, cache=tmp_path, write_cache=False)
    assert loaded.glb_path.is_file() and not is_cached(DUPLEX, tmp_path)
    save_cache(loaded)
    assert is_cached(DUPLEX, tmp_path)
    again = load(DUPLEX, cache=tmp_path)
    assert again.cached and again.meshes.ids == loaded.meshes.ids
    assert set(again.building.elements) == set(loaded.building.elements)
    # serve's loading process hands the building over first, then writes the cache
    other = tmp_path / "other"
    background = BackgroundLoad(DUPLEX, cache=other)
    assert not background.full().cached
    background.join(120)
    assert is_cached(DUPLEX, other) and load(DUPLEX, cache=other).cached


def test_a_first_load_reports_every_stage_and_a_cached_load_none(tmp_path: Path) -> None:
    heard: list[tuple[str, int, int]] = []
    load(DUPLEX, cache=tmp_path, progress=lambda s, d, t: heard.append((s, d, t)))
    stages = [s for s, _, _ in heard]
    assert list(dict.fromkeys(stages)) == list(STAGES)
    tess = [(d, t) for s, d, t in heard if s == "tessellate"]
    assert tess[0][0] == 0 and tess[-1][0] == tess[-1][1] > 100 and len(tess) > 3
    assert all(a[0] <= b[0] for a, b in zip(tess, tess[1:], strict=False))
    again: list[tuple[str, int, int]] = []
    assert load(DUPLEX, cache=tmp_path, progress=lambda s, d, t: again.append((s, d, t))).cached
    assert again == []


def test_progress_shows_only_on_a_terminal_and_throttles_lines() -> None:
    quiet = io.StringIO()
    with TerminalBar("x.ifc", stream=quiet) as bar:
        bar("tessellate", 5, 10)
    assert quiet.getvalue() == ""  # not a terminal: nothing
    lines: list[str] = []
    t = Throttled(lines.append, "x.ifc", interval=3600)
    for i in range(100):
        t("tessellate", i, 100)
    t("tessellate", 100, 100)
    t("ingest", 0, 1)
    assert lines == ["Loading x.ifc: making the geometry: 0 % (0 of 100)",
                     "Loading x.ifc: making the geometry: 100 % (100 of 100)", "Loading x.ifc: reading the elements"]


def test_serve_tells_engines_how_far_its_first_load_got_then_welcomes_them_unasked(tmp_path: Path) -> None:
    endpoint = f"tcp://127.0.0.1:{_port()}"
    env = dict(os.environ, PYAGENT_CACHE=str(tmp_path / "cache"))
    proc = subprocess.Popen([sys.executable, "-m", "pyagent", "serve", "--ifc", str(DUPLEX), "--endpoint", endpoint,
                             "--no-journal", "--no-speech"], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    ctx = zmq.Context()
    client = LinkClient(endpoint, ctx)
    statuses: list[str] = []
    welcomed = False
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not welcomed:
            if not statuses:  # once the responder has heard it, the link answers that hello: no second one
                client.send({"type": "hello", "protocol": 2})
            for msg in client.recv_all(400):
                if msg["type"] == "status":
                    statuses.append(msg["text"])
                welcomed |= msg["type"] == "welcome"
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert welcomed
        assert any(s.startswith("Loading duplex.ifc: making the geometry") for s in statuses), statuses
    finally:
        client.close()
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
        ctx.term()
    assert out.strip().splitlines()[-1].startswith("listening on")  # stdout: the protocol line only


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_sees_the_bar_unless_quiet() -> None:
    shown, quiet = _Terminal(), _Terminal()
    with TerminalBar("x.ifc", stream=shown) as bar:
        bar("tessellate", 5, 10)
        bar("ingest", 0, 1)
    with TerminalBar("x.ifc", stream=quiet, quiet=True) as bar:
        bar("tessellate", 5, 10)
    assert "x.ifc: making the geometry" in shown.getvalue() and "x.ifc: reading the elements" in shown.getvalue()
    assert quiet.getvalue() == ""


def test_load_takes_quiet_and_keeps_stdout_its_own(tmp_path: Path) -> None:
    env = dict(os.environ, PYAGENT_CACHE=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-m", "pyagent", "load", "--quiet", str(DUPLEX)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("duplex.ifc: ") and "making the geometry" not in proc.stdout + proc.stderr
