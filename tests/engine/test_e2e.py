"""End to end: the Godot engine against a real ``python -m pyagent serve`` on the shipped house."""

from __future__ import annotations

import json
import math
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from engine_support import REPO, assert_passed, run_scene_test

pytestmark = pytest.mark.godot

HOUSE = REPO / "ifc" / "AC20-FZK-Haus.ifc"
UTTERANCE = "hide the door in front of me"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _door_in_front() -> tuple[str, dict, int]:
    """The front door, a pose 2 m outside it facing it (checked with the agent in Python), and
    the number of elements the glb has."""
    from pyagent.model import Pose
    from pyagent.session import Session

    session = Session.open(str(HOUSE))
    try:
        elements = session.building.elements.values()
        door = next(e for e in elements if e.ifc_class == "IfcDoor" and e.name == "Haustuer")
        size = door.bbox_max - door.bbox_min
        normal = np.array([1.0, 0.0, 0.0]) if size[0] < size[1] else np.array([0.0, 1.0, 0.0])
        outside = session.building.elements  # the eye goes on the side away from the house centre
        centre = np.mean([e.centre for e in outside.values() if e.has_geometry], axis=0)
        sign = 1.0 if np.dot(door.centre - centre, normal) > 0 else -1.0
        eye = door.centre + sign * normal * 2.0
        eye[2] = door.bbox_min[2] + 1.6
        yaw = math.degrees(math.atan2(-sign * normal[1], -sign * normal[0]))
        pose = {"position": [round(float(c), 4) for c in eye], "yaw": round(yaw, 3), "pitch": 0.0}
        session.set_pose(Pose.from_json(pose))
        result = session.say(UTTERANCE).to_json()
        assert result["ok"], result
        assert session.state()["hidden"] == [door.id], session.state()["hidden"]
        count = sum(1 for e in elements if e.has_geometry and e.ifc_class != "IfcSpace")
        return door.id, pose, count
    finally:
        session.close()


@pytest.fixture()
def agent() -> Iterator[str]:
    from pyagent.loader import load

    load(HOUSE)  # cached first: a first load would serve a first view and stream the rest (test_streaming.py)
    endpoint = f"tcp://127.0.0.1:{_free_port()}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "pyagent", "serve", "--ifc", str(HOUSE), "--endpoint", endpoint, "--no-speech",
         "--no-journal"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 120
        assert proc.stdout is not None
        line = proc.stdout.readline()
        while "listening on" not in line:
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"agent did not start: {line}{proc.stderr.read() if proc.stderr else ''}")
            line = proc.stdout.readline()
        yield endpoint
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_hide_the_door_in_front_of_me(godot: list[str], agent: str, tmp_path: Path) -> None:
    door, pose, count = _door_in_front()
    expect = tmp_path / "expect.json"
    expect.write_text(json.dumps({"pose": pose, "door": door, "elements": count}))
    proc = run_scene_test("tests/godot/test_e2e.gd", ["--agent", agent, "--expect", str(expect)], timeout=300)
    assert_passed(proc)
