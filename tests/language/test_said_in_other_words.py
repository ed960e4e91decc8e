"""Things said in words the building does not use itself, checked against the files with ifcopenshell: a room
label said digit by digit ("living room a one oh two" is A102), a storey named by a room word ("the cellar"
of a house whose basement storey is "Keller"), the other unit of a duplex ("the kitchen in the other unit"),
a word for a room and a fitting said beside another fitting ("the toilets and the washbasins")."""

from __future__ import annotations

from pathlib import Path

import ifcopenshell
import ifcopenshell.util.element as ue
import pytest

from pyagent.language import evaluate as ev
from pyagent.model import Pose

ROOT = Path(__file__).resolve().parents[2]
IFC = ROOT / "ifc"
BUILDINGS = Path(__file__).resolve().parent / "buildings"
IN_A_FOYER = {"position": [7.0, -15.0, 1.6], "yaw": 90.0, "pitch": 0.0}  # duplex, A101, Level 1


@pytest.fixture(scope="module")
def sessions() -> ev.Sessions:
    return ev.Sessions(use_llm=False)


def _space(model: ifcopenshell.file, name: str) -> str:
    return next(str(sp.GlobalId) for sp in model.by_type("IfcSpace") if sp.Name == name)


@pytest.mark.parametrize(("text", "name"), [
    ("what is the floor area of living room a one oh two", "A102"),
    ("what's the area of room b one oh three", "B103"),
    ("floor area of a 102", "A102"),
])
def test_a_room_label_said_digit_by_digit(sessions: ev.Sessions, text: str, name: str) -> None:
    model = ifcopenshell.open(str(IFC / "duplex.ifc"))
    r = sessions.fresh("duplex.ifc").say(text)
    assert r.ok, r.answer
    assert r.program["steps"][0]["target"]["ids"] == [_space(model, name)]


def test_a_storey_named_by_a_room_word_is_that_storey(sessions: ev.Sessions) -> None:
    path = BUILDINGS / "archicad9_jasmin-sun.ifc"
    model = ifcopenshell.open(str(path))
    keller = next(st for st in model.by_type("IfcBuildingStorey") if st.Name == "Keller")
    windows = [e for e in model.by_type("IfcWindow") if ue.get_container(e) == keller]
    s = sessions.fresh("buildings/archicad9_jasmin-sun.ifc")
    s.set_pose(Pose.from_json({"position": [4.0, 5.0, 1.6], "yaw": 0.0, "pitch": 0.0}))
    first = s.say("how many windows are there on the ground floor")
    assert first.ok
    r = s.say("and in the cellar?")
    assert r.ok, r.answer
    assert r.value == len(windows) == 3


def test_the_kitchen_in_the_other_unit(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / "duplex.ifc"))
    s = sessions.fresh("duplex.ifc")
    s.set_pose(Pose.from_json(IN_A_FOYER))
    assert _space(model, "A101") in str(ev.place_of(s)(s.state()["pose"])[1])
    r = s.say("could you take me over to the kitchen in the other unit?")
    assert r.ok, r.answer
    assert _space(model, "B103") in str(ev.place_of(s)(s.state()["pose"])[1])
    # and this unit's rooms are not the other unit's
    mine = s.say("how many rooms are in this flat").value
    other = sessions.fresh("duplex.ifc")
    other.set_pose(Pose.from_json(IN_A_FOYER))
    theirs = other.say("how many bathrooms are in the other flat")
    assert theirs.ok and theirs.value == 2 and mine == 10


def test_toilets_said_beside_washbasins_are_the_fittings(sessions: ev.Sessions) -> None:
    path = BUILDINGS / "revit2020nld_gymzaal-hambakendreef.ifc"
    model = ifcopenshell.open(str(path))
    wanted = {str(e.GlobalId) for e in model.by_type("IfcSanitaryTerminal")
              if "toilet" in (e.Name or "").lower() or "wastafel" in (e.Name or "").lower()}
    s = sessions.fresh("buildings/revit2020nld_gymzaal-hambakendreef.ifc")
    r = s.say("colour the toilets and the washbasins blue")
    assert r.ok, r.answer
    coloured = set(s.state()["colors"])
    assert coloured == wanted and len(wanted) == 7
    # said alone, "the toilets" of a building with toilet rooms are the rooms
    alone = sessions.fresh("buildings/revit2020nld_gymzaal-hambakendreef.ifc").say("colour the toilets blue")
    assert alone.ok and alone.program["steps"][0]["target"].get("class") == ["IfcSpace"]
