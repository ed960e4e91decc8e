"""The engine shows how far the agent's first load got: the status lines a loading ``serve`` sends
(here its ``LoadingResponder`` alone, fed two stage lines) appear in the HUD text, on the desktop HUD
and on the XR HUD panel, in order."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import pytest
from engine_support import assert_passed, run_scene_test

from pyagent.link.loading import LoadingResponder
from pyagent.progress import Throttled

pytestmark = pytest.mark.godot


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_hud_shows_the_agents_loading_progress(godot: list[str], tmp_path: Path) -> None:
    lines: list[str] = []
    throttled = Throttled(lines.append, "house.ifc", interval=0.0)
    throttled("tessellate", 40, 100)
    throttled("ingest", 0, 1)
    first, second = lines[0], lines[-1]
    assert first != second and "40 %" in first
    endpoint = f"tcp://127.0.0.1:{_free_port()}"
    responder = LoadingResponder(endpoint)
    responder.update(first)
    stop = threading.Event()

    def next_stage() -> None:  # once the engine has heard the first line, the load moves on
        while not stop.is_set() and responder.sent == 0:
            time.sleep(0.05)
        time.sleep(0.5)
        responder.update(second)

    mover = threading.Thread(target=next_stage, daemon=True)
    mover.start()
    expect = tmp_path / "expect.json"
    expect.write_text(json.dumps({"first": first, "second": second}))
    try:
        proc = run_scene_test("tests/godot/test_loading_status.gd",
                              ["--agent", endpoint, "--expect", str(expect)], timeout=180)
    finally:
        stop.set()
        mover.join(timeout=5)
        responder.close()
    assert_passed(proc)
