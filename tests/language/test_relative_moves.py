"""Moves of the user relative to their pose by voice (pyagent/language/relative_moves.py +
data/relative_moves.yaml), spoken through the whole front end on the shipped house; storey levels from the
file (ifcopenshell)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import ifcopenshell
import pytest

from pyagent.language import evaluate as ev
from pyagent.language import relative_moves
from pyagent.language.parser import normalise
from pyagent.model import Pose
from pyagent.spatial import EYE_HEIGHT

IFC = Path(__file__).resolve().parents[2] / "ifc"
HOUSE = "AC20-FZK-Haus.ifc"
IN_KITCHEN = (2.5, 2.2, 1.6)


@pytest.fixture(scope="module")
def sessions() -> ev.Sessions:
    return ev.Sessions(use_llm=False)


def session_at(sessions: ev.Sessions, yaw: float = 0.0) -> Any:
    s = sessions.fresh(HOUSE)
    s.set_pose(Pose.from_json({"position": list(IN_KITCHEN), "yaw": yaw, "pitch": 0.0}))
    return s


@pytest.mark.parametrize(("text", "direction", "metres"), [
    ("move forward two metres", "forward", 2.0), ("step back", "back", 1.0), ("step back a bit", "back", 0.5),
    ("walk 50 centimetres to the left", "left", 0.5), ("take two steps to the right", "right", 1.5),
    ("go forward one and a half metres", "forward", 1.5), ("back up a little", "back", 0.5),
    ("move me forward by 3 feet", "forward", 0.9144), ("walk three metres", "forward", 3.0),
    ("walk 2 metres more", "forward", 2.0)])
def test_phrasings(text: str, direction: str, metres: float) -> None:
    steps = relative_moves.clause(normalise(text))
    assert steps == [{"op": "walk", "direction": direction, "distance": pytest.approx(metres)}]


@pytest.mark.parametrize(("text", "by"), [("go up one floor", 1), ("go down a floor", -1), ("go two floors up", 2),
                                          ("take me one floor down", -1), ("move up 1 floor", 1)])
def test_floor_phrasings(text: str, by: int) -> None:
    assert relative_moves.clause(normalise(text)) == [{"op": "change_floor", "by": by}]


@pytest.mark.parametrize("text", ["go back", "move the door forward 2 m", "turn around", "turn left",
                                  "go upstairs"])
def test_not_relative_moves(text: str) -> None:
    assert relative_moves.clause(normalise(text)) is None


@pytest.mark.parametrize(("text", "yaw", "angle", "metres"), [
    ("move forward two metres", 90.0, 90.0, 2.0), ("step back a bit", 0.0, 180.0, 0.5),
    ("step to the left", 0.0, 90.0, 1.0)])
def test_walking_moves_the_pose(sessions: ev.Sessions, text: str, yaw: float, angle: float, metres: float) -> None:
    s = session_at(sessions, yaw)
    r = s.say(text)
    assert r.ok, r
    p = s.executor.state.pose
    a = math.radians(angle)
    assert p.position[0] == pytest.approx(IN_KITCHEN[0] + metres * math.cos(a), abs=1e-6)
    assert p.position[1] == pytest.approx(IN_KITCHEN[1] + metres * math.sin(a), abs=1e-6)
    assert p.yaw == pytest.approx(yaw) and p.position[2] == pytest.approx(IN_KITCHEN[2])
    assert s.say("undo").ok and s.executor.state.pose.position == pytest.approx(IN_KITCHEN)


def test_up_and_down_a_floor(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / HOUSE))
    levels = sorted(float(st.Elevation) for st in model.by_type("IfcBuildingStorey"))
    s = session_at(sessions, 45.0)
    r = s.say("go up one floor")
    assert r.ok, r
    p = s.executor.state.pose
    assert p.position[2] == pytest.approx(levels[1] + EYE_HEIGHT, abs=0.1) and p.yaw == pytest.approx(45.0)
    assert p.position[:2] == pytest.approx(IN_KITCHEN[:2])
    assert s.say("go down a floor").ok
    assert s.executor.state.pose.position[2] == pytest.approx(levels[0] + EYE_HEIGHT, abs=0.1)
    r = s.say("go down a floor")
    assert not r.ok and s.executor.state.pose.position[2] == pytest.approx(levels[0] + EYE_HEIGHT, abs=0.1)


@pytest.mark.parametrize(("text", "degrees"), [("turn around", 180.0), ("turn left", 90.0)])
def test_turning_still_turns(sessions: ev.Sessions, text: str, degrees: float) -> None:
    s = session_at(sessions)
    assert s.say(text).ok
    assert math.cos(math.radians(s.executor.state.pose.yaw - degrees)) == pytest.approx(1.0)
