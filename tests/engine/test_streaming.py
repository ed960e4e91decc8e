"""Progressive first load, engine side: Godot against a real ``python -m pyagent serve`` loading the shipped
duplex for the first time (a fresh cache) gets the first view, then the second glb part, and ends with
the element set and boxes of a one-shot load; a hide made between the parts holds
(``tests/godot/test_streaming.gd``)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from engine_support import REPO, assert_passed, run_scene_test

from pyagent.glb import node_names
from pyagent.link.streaming import HOLD_ENV
from pyagent.loader import load
from pyagent.tessellate import BOOLEANS_ENV

pytestmark = pytest.mark.godot

# duplex's fast pass leaves its furniture out (surface models with openings cut into them): it streams a part,
# held back a few seconds (HOLD_ENV) so that the engine has the first view when the test hides between parts
HOUSE = REPO / "ifc" / "duplex.ifc"


@pytest.fixture(autouse=True)
def _streams(monkeypatch: pytest.MonkeyPatch) -> None:
    # boolean bodies left to the second pass, so that duplex streams (with them in the first pass it comes whole)
    monkeypatch.setenv(BOOLEANS_ENV, "0")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_engine_gets_the_rest_as_a_second_part(godot: list[str], tmp_path: Path) -> None:
    one_shot = load(HOUSE, cache=tmp_path / "one-shot")
    expect = tmp_path / "expect.json"
    expect.write_text(json.dumps({"ids": node_names(one_shot.glb_path), "glb": str(one_shot.glb_path)}))
    endpoint = f"tcp://127.0.0.1:{_free_port()}"
    # Not waited for: the engine connects while the agent loads, and gets its welcome at the first view.
    agent = subprocess.Popen(
        [sys.executable, "-m", "pyagent", "serve", "--ifc", str(HOUSE), "--endpoint", endpoint, "--no-speech",
         "--no-journal", "-q"], cwd=REPO,
        env=dict(os.environ, PYAGENT_CACHE=str(tmp_path / "cache"), **{HOLD_ENV: "8"}),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        proc = run_scene_test("tests/godot/test_streaming.gd", ["--agent", endpoint, "--expect", str(expect)],
                              timeout=300)
    finally:
        agent.terminate()
        try:
            _, err = agent.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            agent.kill()
            _, err = agent.communicate()
    assert_passed(proc)
    assert "the rest of duplex.ifc is in" in err, err[-3000:]
