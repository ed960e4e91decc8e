"""Properties said as words (pyagent/language/parser.py ``_holds``, ``_which_hold``, relative clauses and
yes-or-no property words from ``Lexicon.flags``): "is this wall load-bearing?", "the load-bearing walls",
"which parts are S355?", "everything that is ...". Spoken through the whole front end on public buildings;
reference values read from the files with ifcopenshell, not from pyagent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ifcopenshell
import ifcopenshell.util.element as ue
import pytest

from pyagent.language import evaluate as ev
from pyagent.model import Pose

BUILDINGS = Path(__file__).resolve().parent / "buildings"
HOMEMAKER = "buildings/blenderbim_homemaker-test.ifc"
FREECAD = "buildings/freecad_testhouse.ifc"
ROOFTOP = "buildings/archicad20_rooftop-4zones.ifc"
STANDING = {"position": [9.0, 4.0, 1.6], "yaw": 0.0, "pitch": 0.0}


@pytest.fixture(scope="module")
def sessions() -> ev.Sessions:
    return ev.Sessions(use_llm=False)


@pytest.fixture(scope="module")
def homemaker() -> ifcopenshell.file:
    return ifcopenshell.open(str(BUILDINGS / "blenderbim_homemaker-test.ifc"))


def say(sessions: ev.Sessions, ifc: str, *texts: str, pose: dict[str, Any] = STANDING) -> Any:
    s = sessions.fresh(ifc)
    s.set_pose(Pose.from_json(pose))
    result = None
    for text in texts:
        result = s.say(text)
    return result


def _load_bearing(model: ifcopenshell.file) -> dict[str, bool]:
    out = {}
    for wall in model.by_type("IfcWall"):
        value = ue.get_psets(wall).get("Pset_WallCommon", {}).get("LoadBearing")
        if isinstance(value, bool):
            out[wall.GlobalId] = value
    return out


def test_load_bearing_walls_are_counted_hidden_and_asked_about(sessions: ev.Sessions,
                                                              homemaker: ifcopenshell.file) -> None:
    bearing = _load_bearing(homemaker)
    want = sum(bearing.values())
    assert 0 < want < len(homemaker.by_type("IfcWall"))  # the test means something: not every wall bears
    for text in ("how many load-bearing walls are there?", "how many walls are load bearing?",
                 "how many of the walls are loadbearing"):
        got = say(sessions, HOMEMAKER, text)
        assert got.ok and got.value == want, (text, got.answer)
    hidden = say(sessions, HOMEMAKER, "hide the load bearing walls")
    assert hidden.ok and hidden.answer == f"Hid {want} walls."  # never every wall, the property dropped
    which = say(sessions, HOMEMAKER, "which walls are load-bearing?")
    assert which.ok and set(which.value) == {g for g, v in bearing.items() if v}


def test_yes_or_no_about_one_wall_follows_its_own_property(sessions: ev.Sessions,
                                                           homemaker: ifcopenshell.file) -> None:
    bearing = _load_bearing(homemaker)
    got = say(sessions, HOMEMAKER, "which wall is nearest to me?", "is it load-bearing?")
    listed = say(sessions, HOMEMAKER, "which wall is nearest to me?")
    assert got.ok and listed.ok and len(listed.value) == 1
    assert got.value is bearing.get(listed.value[0], False)
    assert got.answer.startswith("Yes: " if got.value else "No: ")
    again = say(sessions, HOMEMAKER, "is the nearest wall load bearing")
    assert again.value is got.value
    assert again.program["steps"][0]["op"] == "list" and again.program["steps"][1]["target"]["step"] == 0


def test_a_yes_or_no_test_is_not_a_filter_before_the_choice(sessions: ev.Sessions) -> None:
    """"Is the nearest window wider than 3 m?" asks about the nearest window, not for the nearest wide one."""
    got = say(sessions, HOMEMAKER, "is the nearest window wider than 30 metres?")
    assert got.ok and got.value is False and got.answer.startswith("No: ")
    anyone = say(sessions, HOMEMAKER, "is any of the windows wider than 30 metres?")
    assert anyone.ok and anyone.value is False


def test_materials_written_in_names_pick_elements_without_materials(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(BUILDINGS / "freecad_testhouse.ifc"))
    metal = {e.GlobalId for cls in ("IfcColumn", "IfcBeam") for e in model.by_type(cls)
             if "metal" in (e.Name or "").lower()}
    assert metal and not any(ue.get_material(model.by_guid(g)) for g in metal)
    got = say(sessions, FREECAD, "which columns are steel?")
    assert got.ok and set(got.value) == {g for g in metal if model.by_guid(g).is_a("IfcColumn")}


def test_a_room_word_that_names_a_thing_and_not_a_room(sessions: ev.Sessions) -> None:
    """No room of the flat is a kitchen; its kitchen is a unit typed 'Konzeptküche'."""
    model = ifcopenshell.open(str(BUILDINGS / "archicad20_rooftop-4zones.ifc"))
    units = [e.GlobalId for e in model.by_type("IfcFurnishingElement")
             if "küche" in (ue.get_type(e).Name if ue.get_type(e) else "").lower()]
    assert len(units) == 1
    assert not any("kitchen" in f"{s.Name} {s.LongName}".lower() for s in model.by_type("IfcSpace"))
    got = say(sessions, ROOFTOP, "could you colour the kitchen yellow")
    assert got.ok and got.program["steps"][0]["target"]["name"] == "küche"
    wall = say(sessions, ROOFTOP, "what is the wall between the bath and the technical room made of?")
    assert wall.ok and "OSB" in wall.value


@pytest.mark.parametrize(("text", "ops"), [
    ("the window on my left, how high is it?", ["get"]),
    ("the doors upstairs, hide them", ["hide"]),
    ("um yeah can you like hide the doors", ["hide"]),
    ("let's hide the windows and the doors", ["hide", "hide"]),
    ("get rid of the roof for now", ["hide"]),
    ("I'm not sure, but is any of the furniture taller than two metres?", ["exists"]),
    ("go straight ahead, like, three metres", ["walk"]),
    ("I just want to see the walls, hide everything else", ["isolate"]),
])
def test_spoken_shapes_of_requests(sessions: ev.Sessions, text: str, ops: list[str]) -> None:
    got = say(sessions, "duplex.ifc", text, pose={"position": [3.0, -15.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    assert got.program is not None, (text, got.answer)
    assert [s["op"] for s in got.program["steps"]] == ops


def test_a_property_compared_with_a_number(sessions: ev.Sessions) -> None:
    """"How many windows have a U-value above one?": the building's own ThermalTransmittance."""
    model = ifcopenshell.open(str(BUILDINGS / "archicad11_smiley-west.ifc"))
    values = [ue.get_psets(w).get("Pset_WindowCommon", {}).get("ThermalTransmittance")
              for w in model.by_type("IfcWindow")]
    above = sum(1 for v in values if isinstance(v, (int, float)) and v > 1.0)
    below = sum(1 for v in values if isinstance(v, (int, float)) and v < 1.0)
    assert above and above != len(values)  # the case separates windows
    for text in ("how many windows have a U-value above one?", "how many windows with a u value over 1 are there"):
        got = say(sessions, "buildings/archicad11_smiley-west.ifc", text)
        assert got.ok and got.value == above, (text, got.answer)
    got = say(sessions, "buildings/archicad11_smiley-west.ifc", "how many windows have a u-value below 1")
    assert got.ok and got.value == below


@pytest.mark.parametrize("text", ["is the spiral staircase rated as a fire exit?", "is the stair a fire exit",
                                  "are the stairs fire exits?"])
def test_a_yes_or_no_property_said_as_a_noun(sessions: ev.Sessions, text: str) -> None:
    """"Rated as a fire exit", "a fire exit", "fire exits": the file's FireExit of the stair (not an outside door)."""
    model = ifcopenshell.open(str(Path(__file__).resolve().parents[2] / "ifc" / "AC20-FZK-Haus.ifc"))
    stairs = model.by_type("IfcStair")
    expected = any(ue.get_psets(st).get("Pset_StairCommon", {}).get("FireExit") is True for st in stairs)
    got = say(sessions, "AC20-FZK-Haus.ifc", text)
    assert got.ok, got.answer
    assert got.program["steps"][-1]["target"]["where"] == [{"key": "FireExit", "cmp": "eq", "value": True}]
    assert got.value is expected
