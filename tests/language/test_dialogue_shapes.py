"""Dialogue and navigation said in everyday shapes (pyagent/language/parser.py): corrections ("no, I meant
the windows"), follow-ups that keep their "and", facing a compass direction of the file's true north, a
room said alone, going to the place just named. Through the whole front end on public buildings;
reference values from the files with ifcopenshell."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import ifcopenshell
import numpy as np
import pytest

from pyagent.language import evaluate as ev
from pyagent.model import Pose

IFC = Path(__file__).resolve().parents[2] / "ifc"
BUILDINGS = Path(__file__).resolve().parent / "buildings"
NIEDRIHA = "buildings/archicad9_niedriha.ifc"


@pytest.fixture(scope="module")
def sessions() -> ev.Sessions:
    return ev.Sessions(use_llm=False)


def session(sessions: ev.Sessions, ifc: str, pose: dict[str, Any]) -> Any:
    s = sessions.fresh(ifc)
    s.set_pose(Pose.from_json(pose))
    return s


def test_a_correction_takes_back_the_change_and_makes_it_on_the_things_meant(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(BUILDINGS / "archicad9_niedriha.ifc"))
    doors = {d.GlobalId for d in model.by_type("IfcDoor")}
    windows = {w.GlobalId for w in model.by_type("IfcWindow")}
    s = session(sessions, NIEDRIHA, {"position": [6.0, 3.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    assert s.say("hide the doors").ok
    got = s.say("no, sorry, I meant the windows")
    assert got.ok, got.answer
    hidden = set(s.state()["hidden"])
    assert windows <= hidden and not (doors & hidden)


def test_a_follow_up_with_and_goes_on_from_a_change(sessions: ev.Sessions) -> None:
    s = session(sessions, "buildings/blenderbim_example-hom.ifc",
                {"position": [2.0, 2.5, 1.6], "yaw": 0.0, "pitch": 0.0})
    first = s.say("colour the windows in the kitchen blue")
    then = s.say("and the ones in the living room")
    assert first.ok and then.ok, then.answer
    step = then.program["steps"][0]
    assert step["op"] == "color" and step["target"]["class"] == ["IfcWindow"]
    assert step["rgba"] == first.program["steps"][0]["rgba"]


def _true_north_deg(model: ifcopenshell.file) -> float:
    context = next(c for c in model.by_type("IfcGeometricRepresentationContext") if c.TrueNorth is not None)
    x, y = context.TrueNorth.DirectionRatios[:2]
    return math.degrees(math.atan2(y, x))


@pytest.mark.parametrize(("said", "offset"), [("face north", 0.0), ("turn to face south", 180.0),
                                              ("face west", 90.0)])
def test_facing_a_compass_direction_uses_the_files_true_north(sessions: ev.Sessions, said: str, offset: float) -> None:
    north = _true_north_deg(ifcopenshell.open(str(IFC / "AC20-FZK-Haus.ifc")))
    assert abs(north - 90.0) > 5  # the case means something: north is not the model's +Y
    s = session(sessions, "AC20-FZK-Haus.ifc", {"position": [6.0, 2.0, 1.6], "yaw": 90.0, "pitch": 0.0})
    got = s.say(said)
    assert got.ok, got.answer
    diff = (s.pose.yaw - (north + offset) + 180.0) % 360.0 - 180.0
    assert abs(diff) < 0.5


def test_a_room_said_alone_is_where_to_go_and_the_place_just_named_is_there(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(BUILDINGS / "archicad19_office-cv2.ifc"))
    lobby = next(sp for sp in model.by_type("IfcSpace") if "lobby" in f"{sp.Name} {sp.LongName}".lower())
    s = session(sessions, "buildings/archicad19_office-cv2.ifc",
                {"position": [5.0, 5.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    got = s.say("exit lobby, please")
    assert got.ok and got.program["steps"][0]["op"] == "teleport" and lobby.LongName in got.answer
    s2 = session(sessions, "buildings/archicad9_jasmin-sun.ifc",
                 {"position": [4.0, 5.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    there = s2.say("um, where's the loo? take me there")
    assert there.ok, there.answer
    assert there.program["steps"][1] == {"op": "teleport", "target": {"step": 0, "limit": 1}}
    room = s2.graph.room_at(s2.pose.position - [0.0, 0.0, 1.0])
    assert room == there.value[0]


@pytest.mark.parametrize(("text", "ops"), [
    ("windows red", ["color"]),
    ("walls half transparent", ["transparency"]),
    ("no furniture", ["hide"]),
    ("next floor", ["change_floor"]),
    ("how much windows has the Küche?", ["count"]),
    ("of what material are made the walls?", ["get"]),
    ("in which floor is the kitchen?", ["get"]),
    ("I want that you hide the roof", ["hide"]),
    ("it is possible to see only the doors?", ["isolate"]),
    ("where I am?", ["where_am_i"]),
])
def test_terse_and_non_native_shapes(sessions: ev.Sessions, text: str, ops: list[str]) -> None:
    """Barked at a voice assistant or said in another language's word order: the same requests."""
    s = session(sessions, "AC20-FZK-Haus.ifc", {"position": [6.0, 2.0, 1.6], "yaw": 90.0, "pitch": 0.0})
    got = s.say(text)
    assert got.program is not None, (text, got.answer)
    assert [step["op"] for step in got.program["steps"]] == ops, got.program


def test_a_limit_said_with_a_place_keeps_the_place(sessions: ev.Sessions) -> None:
    """"Upstairs, how many doors are wider than 85 cm?": the storey is not dropped for the comparison."""
    model = ifcopenshell.open(str(BUILDINGS / "renga_house.ifc"))
    s = session(sessions, "buildings/renga_house.ifc", {"position": [2.0, -2.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    everywhere = s.say("how many doors are wider than 85 centimetres?")
    upstairs = s.say("upstairs, how many doors are wider than 85 centimetres?")
    assert everywhere.ok and upstairs.ok
    assert upstairs.program["steps"][0]["target"].get("storey")
    assert 0 < upstairs.value < everywhere.value <= len(model.by_type("IfcDoor"))


def test_what_about_carries_the_last_question_over_to_other_things(sessions: ev.Sessions) -> None:
    """"How many windows does the living room have?" then "what about the doors?": the same count, in the same
    room (not a list of every door)."""
    s = session(sessions, "buildings/revit2020chs_basic-demo.ifc", {"position": [-4.5, -3.0, 1.6], "yaw": 90.0,
                                                                     "pitch": 0.0})
    windows = s.say("how many windows does the 客厅 have?")
    doors = s.say("what about the doors?")
    assert windows.ok and doors.ok, (windows.answer, doors.answer)
    step = doors.program["steps"][0]
    assert step["op"] == "count" and step["target"]["class"] == ["IfcDoor"]
    assert step["target"]["relations"] == windows.program["steps"][0]["target"]["relations"]
    assert 0 < doors.value < len(ifcopenshell.open(str(BUILDINGS / "revit2020chs_basic-demo.ifc")).by_type("IfcDoor"))


def test_a_storey_named_with_an_ordinal_glued_to_its_noun(sessions: ev.Sessions) -> None:
    """A storey called "1stFloor" said as written, and as "the first floor"."""
    model = ifcopenshell.open(str(BUILDINGS / "blenderbim_example-hom.ifc"))
    assert "1stFloor" in {st.Name for st in model.by_type("IfcBuildingStorey")}
    s = session(sessions, "buildings/blenderbim_example-hom.ifc", {"position": [2.0, 2.0, 1.6], "yaw": 0.0,
                                                                    "pitch": 0.0})
    for text in ("isolate the 1stFloor", "isolate the first floor"):
        got = s.say(text)
        assert got.ok and got.program["steps"] == [{"op": "isolate", "target": {"storey": "1stFloor"}}], got.program


@pytest.mark.parametrize(("text", "ops"), [
    ("how high are the ceilings on the ground floor?", ["get"]),
    ("what's the ceiling height in the bedroom", ["get"]),
    ("how high is the ceiling in here?", ["measure_here"]),
])
def test_ceiling_height_is_how_high_the_rooms_are(sessions: ev.Sessions, text: str, ops: list[str]) -> None:
    """The height of a ceiling is the room's, from floor to ceiling; the one here is measured where one stands."""
    s = session(sessions, "AC20-FZK-Haus.ifc", {"position": [6.0, 2.0, 1.6], "yaw": 90.0, "pitch": 0.0})
    got = s.say(text)
    assert got.ok and [step["op"] for step in got.program["steps"]] == ops, (text, got.answer)
    if ops == ["get"]:
        step = got.program["steps"][0]
        assert step["target"]["class"] == ["IfcSpace"] and step["property"] == "height"
        assert 2.0 < got.value < 3.5


def test_the_other_one_is_the_other_thing_of_the_same_name(sessions: ev.Sessions) -> None:
    """"How big is the С/У downstairs?" then "what about the other one?": the other room called С/У."""
    model = ifcopenshell.open(str(BUILDINGS / "renga_house.ifc"))
    rooms = {sp.GlobalId for sp in model.by_type("IfcSpace") if "С/У" in (sp.Name or "", sp.LongName or "")}
    assert len(rooms) == 2
    s = session(sessions, "buildings/renga_house.ifc", {"position": [2.0, -2.0, 5.05], "yaw": 0.0, "pitch": 0.0})
    first = s.say("how big is the С/У downstairs?")
    other = s.say("what about the other one?")
    assert first.ok and other.ok, (first.answer, other.answer)
    said = set(first.program["steps"][0]["target"]["ids"])
    assert len(said) == 1 and said < rooms
    assert other.program["steps"][0]["target"]["except"] == {"ids": sorted(said)}
    assert other.value != first.value and other.value > 0


def test_two_things_each_with_its_own_colour(sessions: ev.Sessions) -> None:
    """"Paint the doors red and the windows green": each its own colour (not both the last one)."""
    s = session(sessions, "AC20-FZK-Haus.ifc", {"position": [6.0, 2.0, 1.6], "yaw": 90.0, "pitch": 0.0})
    for text in ("paint the doors red and the windows green", "colour the doors red and the windows green"):
        got = s.say(text)
        assert got.ok, got.answer
        steps = got.program["steps"]
        assert [st["target"]["class"] for st in steps] == [["IfcDoor"], ["IfcWindow"]]
        assert steps[0]["rgba"][0] > 0.5 > steps[0]["rgba"][1] and steps[1]["rgba"][1] > 0.5 > steps[1]["rgba"][0]
    both = s.say("paint the doors and the windows red")
    assert both.ok and both.program["steps"][0]["rgba"] == both.program["steps"][1]["rgba"]


def test_going_back_to_where_one_was_undoes_only_a_move(sessions: ev.Sessions) -> None:
    s = session(sessions, "AC20-FZK-Haus.ifc", {"position": [6.0, 2.0, 1.6], "yaw": 90.0, "pitch": 0.0})
    start = s.scene.pose.position.copy()
    assert s.say("take me to the kitchen").ok
    back = s.say("ok, go back to where I was")
    assert back.ok and back.program["steps"] == [{"op": "undo"}]
    assert np.allclose(s.scene.pose.position, start)
    assert s.say("hide the roof").ok
    after_a_change = s.say("go back to where I was")
    assert after_a_change.program is None or after_a_change.program["steps"] != [{"op": "undo"}]


def test_a_correction_keeps_the_place_of_the_request(sessions: ev.Sessions) -> None:
    """"Hide all the windows on this floor" then "sorry, I meant the doors": the doors on this floor."""
    s = session(sessions, "AC20-FZK-Haus.ifc", {"position": [6.0, 2.0, 1.6], "yaw": 90.0, "pitch": 0.0})
    first = s.say("hide all the windows on this floor")
    meant = s.say("sorry, I meant the doors")
    assert first.ok and meant.ok, meant.answer
    storey = first.program["steps"][0]["target"]["storey"]
    assert [(st["op"], st["target"].get("class"), st["target"].get("storey")) for st in meant.program["steps"]] == [
        ("show", ["IfcWindow"], storey), ("hide", ["IfcDoor"], storey)]


@pytest.mark.parametrize(("text", "ops"), [
    ("upstairs please", ["teleport"]),
    ("redo it", ["redo"]),
    ("colour the concrete columns grey and the steel ones red", ["color", "color"]),
    ("colour the doors out to the garden red", ["color"]),
])
def test_more_everyday_shapes(sessions: ev.Sessions, text: str, ops: list[str]) -> None:
    s = session(sessions, "duplex.ifc", {"position": [8.0, -5.0, 1.6], "yaw": 90.0, "pitch": 0.0})
    s.say("hide the roof")
    s.say("undo")
    got = s.say(text)
    assert got.program is not None, (text, got.answer)
    assert [step["op"] for step in got.program["steps"]] == ops, got.program


def test_isolating_a_room_shows_what_is_in_it(sessions: ev.Sessions) -> None:
    s = session(sessions, "AC20-FZK-Haus.ifc", {"position": [6.0, 2.0, 1.6], "yaw": 90.0, "pitch": 0.0})
    got = s.say("show me only the kitchen")
    assert got.ok and list(got.program["steps"][0]["target"]) == ["room"], got.program
    shown = [e for e in s.building.elements.values() if e.has_geometry and e.id not in s.scene.hidden]
    assert len(shown) > 1 and {e.ifc_class for e in shown} != {"IfcSpace"}


def test_a_thing_said_with_a_reason_then_the_request_about_it(sessions: ev.Sessions) -> None:
    """"We're not keeping the piano, delete it", "those chairs are in the way, could you hide them?"."""
    s = session(sessions, "buildings/revit2015_samplehouse.ifc", {"position": [-3.0, 1.5, 1.6], "yaw": 180.0,
                                                                   "pitch": 0.0})
    got = s.say("we're not keeping the piano, delete it")
    assert got.ok and [st["op"] for st in got.program["steps"]] == ["delete"], got.answer
    assert "piano" in got.answer.lower() or got.program["steps"][0]["target"].get("kind") == "piano"
    hidden = s.say("those chairs are in the way, could you hide them?")
    assert hidden.ok and hidden.program["steps"][0]["op"] == "hide", hidden.answer
    assert hidden.program["steps"][0]["target"].get("kind") == "chair"


def test_chairs_around_a_table_and_the_windows_of_the_room_just_named(sessions: ev.Sessions) -> None:
    s = session(sessions, "buildings/revit2015_samplehouse.ifc", {"position": [-3.0, 1.5, 1.6], "yaw": 180.0,
                                                                   "pitch": 0.0})
    around = s.say("how many chairs are set around the dining table?")
    assert around.ok, around.answer
    rel = around.program["steps"][0]["target"]["relations"][0]
    assert rel["rel"] == "within" and rel["distance"] == pytest.approx(0.5) and rel["of"].get("name") == "dining"
    model = ifcopenshell.open(str(BUILDINGS / "revit2015_samplehouse.ifc"))
    chairs = [f for f in model.by_type("IfcFurnishingElement") if "chair" in (f.Name or "").lower()]
    assert 0 < around.value < len(chairs)  # the armchairs by the couch are not at the table
    e = session(sessions, "buildings/ifcengine_example.ifc", {"position": [2.0, 2.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    room = e.say("which room is the largest?")
    its = e.say("colour its windows blue")
    assert room.ok and its.ok, its.answer
    assert its.program["steps"][0]["target"]["relations"] == [{"rel": "in", "of": {"ref": "it"}}]


@pytest.mark.parametrize(("text", "key", "value"), [
    ("slice the house horizontally at one metre twenty", "height", 1.2),
])
def test_metres_and_centimetres_said_together(sessions: ev.Sessions, text: str, key: str, value: float) -> None:
    s = session(sessions, "AC20-FZK-Haus.ifc", {"position": [6.0, 2.0, 1.6], "yaw": 90.0, "pitch": 0.0})
    got = s.say(text)
    assert got.ok and got.program["steps"][0][key] == pytest.approx(value), got.answer


def test_every_door_inside_and_out(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(BUILDINGS / "ifcengine_example.ifc"))
    s = session(sessions, "buildings/ifcengine_example.ifc", {"position": [2.0, 2.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    got = s.say("how many doors does this place have, inside and out?")
    assert got.ok and got.value == len(model.by_type("IfcDoor")), got.answer


def test_everything_but_a_list_of_fittings(sessions: ev.Sessions) -> None:
    """"Hide everything except the toilets, basins and showers": the fittings (not the toilet rooms), each kind
    shown; the count of shown fittings is the file's sanitary terminals."""
    model = ifcopenshell.open(str(BUILDINGS / "revit2020nld_gymzaal-hambakendreef.ifc"))
    s = session(sessions, "buildings/revit2020nld_gymzaal-hambakendreef.ifc", {"position": [0.0, 0.0, 1.6],
                                                                                "yaw": 0.0, "pitch": 0.0})
    got = s.say("Hide everything except the toilets, basins and showers.")
    assert got.ok, got.answer
    assert [st["op"] for st in got.program["steps"]] == ["isolate", "show", "show"]
    shown = {e.id for e in s.building.elements.values()
             if e.has_geometry and e.id not in s.scene.hidden and e.ifc_class != "IfcSpace"}
    assert shown == {t.GlobalId for t in model.by_type("IfcSanitaryTerminal")}


@pytest.mark.parametrize(("text", "steps"), [
    ("Roof off, please.", [("hide", ["IfcRoof"])]),
    ("make the doors orange, no, sorry, the windows", [("color", ["IfcWindow"])]),
    ("hide the doors, no, I meant the windows", [("hide", ["IfcWindow"])]),
    ("I think we can lose the windows for now, hide them", [("hide", ["IfcWindow"])]),
    ("hmm, no, bring the doors back, keep the windows hidden", [("show", ["IfcDoor"])]),
])
def test_corrections_and_asides_inside_one_request(sessions: ev.Sessions, text: str,
                                                   steps: list[tuple[str, list[str]]]) -> None:
    s = session(sessions, "AC20-FZK-Haus.ifc", {"position": [6.0, 2.0, 1.6], "yaw": 90.0, "pitch": 0.0})
    s.say("hide the doors")
    got = s.say(text)
    assert got.program is not None, (text, got.answer)
    assert [(st["op"], st["target"].get("class")) for st in got.program["steps"]] == steps, got.program


def test_which_room_has_the_biggest_floor_area_names_the_room(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / "AC20-FZK-Haus.ifc"))
    s = session(sessions, "AC20-FZK-Haus.ifc", {"position": [6.0, 2.0, 1.6], "yaw": 90.0, "pitch": 0.0})
    got = s.say("which room on this floor has the biggest floor area?")
    assert got.ok and got.program["steps"][0]["op"] == "list", got.program
    assert len(got.value) == 1 and got.value[0] in {sp.GlobalId for sp in model.by_type("IfcSpace")}


def test_a_german_utility_room_abbreviation(sessions: ev.Sessions) -> None:
    """"HWR" (Hauswirtschaftsraum) is the utility room: a door straight through from the kitchen into it."""
    s = session(sessions, NIEDRIHA, {"position": [1.7, 4.4, 1.6], "yaw": 180.0, "pitch": 0.0})
    got = s.say("is there a door straight through from the kitchen into the utility room?")
    assert got.ok and got.program["steps"][0]["op"] == "exists", got.answer
    rel = got.program["steps"][0]["target"]["relations"][0]
    assert rel["rel"] == "between"


@pytest.mark.parametrize(("ifc", "text", "ops"), [
    ("buildings/revit2022deu_sensor-versuchsstand.ifc", "how many sensors are installed in total?", ["count"]),
    ("buildings/blenderbim_example-hom.ifc", "how many windows does the living room get?", ["count"]),
    ("buildings/blenderbim_example-hom.ifc", "what's the total floor area of the rooms on the 1stFloor level?",
     ["aggregate"]),
    ("buildings/revit2020nld_gymzaal-hambakendreef.ifc", "lose the ceilings, I want to see the structure above",
     ["hide"]),
    ("buildings/revit2020nld_gymzaal-hambakendreef.ifc", "which level has the most glazing, counting the windows?",
     ["group"]),
    ("buildings/revit2020chs_basic-demo.ifc", "I think there are quite a few columns here, how many exactly?",
     ["count"]),
    ("buildings/revit2020chs_basic-demo.ifc", "which window is nearest to where I'm standing?", ["list"]),
    ("buildings/archicad9_jasmin-sun.ifc", "on the Erdgeschoss, which room has the most floor space?", ["list"]),
    ("MiniProject.ifc", "just for the steel order, what do the steel columns weigh all together?", ["aggregate"]),
    ("real/vectorworks2013_japanese_unicode.ifc", "roughly how much concrete is in the ground floor walls?",
     ["aggregate"]),
    ("buildings/archicad20_rooftop-4zones.ifc",
     "what's the floor area of the whole unit, all the rooms added together?", ["aggregate"]),
    ("buildings/archicad20_rooftop-4zones.ifc", "what's the floor build-up in the bathroom?", ["get"]),
    ("buildings/revit2008_quantities.ifc", "hide the wall between offices three and four", ["hide"]),
    ("MiniProject.ifc", "how many concrete columns are there in this house?", ["count"]),
    ("real/ifcopenshell_IfcOpenHouse_IFC4.ifc", "make the south roof slope half transparent", ["transparency"]),
    ("real/sketchup_PCERT_Building-Architecture_IFC4.ifc", "what's the kitchen unit made of?", ["get"]),
    ("buildings/archicad19_office-cv2.ifc", "Would you mind making the outside walls on this floor about half "
     "see-through? I want to check the columns against the facade.", ["transparency"]),
    ("buildings/revit2024por_building-teste-gis.ifc", "what do the two balconies add up to in floor area?",
     ["aggregate"]),
    ("AC20-FZK-Haus.ifc", "I'm trying to get a feel for the daylight, how many windows are there upstairs?",
     ["count"]),
    ("buildings/revit2020nld_gymzaal-hambakendreef.ifc", "how many showers does this gym have?", ["count"]),
    ("buildings/revit2017fra_rue-marc-antoine-petit.ifc", "paint the roller shutter door orange", ["color"]),
    ("buildings/revit2017fra_rue-marc-antoine-petit.ifc", "hide these potted plants for a moment", ["hide"]),
    ("real/allplan_Smiley-West_IFC2X.ifc", "let's try a sofa in the living room", ["add_prop"]),
    ("buildings/archicad20_rooftop-4zones.ifc", "how many of those big terrace doors are there?", ["count"]),
    ("buildings/archicad20_rooftop-4zones.ifc", "colour the kitchen unit yellow", ["color"]),
    ("buildings/revit2020chs_basic-demo.ifc", "what's the average room size here?", ["aggregate"]),
])
def test_shapes_of_a_review_of_known_buildings(sessions: ev.Sessions, ifc: str, text: str, ops: list[str]) -> None:
    s = session(sessions, ifc, {"position": [2.0, 2.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    got = s.say(text)
    assert got.program is not None, (text, got.answer)
    assert [step["op"] for step in got.program["steps"]] == ops, got.program


def test_the_closest_piece_of_furniture_is_one(sessions: ev.Sessions) -> None:
    s = session(sessions, "buildings/revit2022deu_sensor-versuchsstand.ifc",
                {"position": [2.0, 2.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    got = s.say("what's the closest piece of furniture to me?")
    assert got.ok and len(got.value) == 1, got.answer
    everything = s.say("how many pieces of furniture are there?")
    assert everything.ok and everything.value > 1


def test_the_other_way_round_stays_for_the_sun() -> None:
    """A place said first belongs to a question about rooms or storeys, not to "in this sun study, which way is
    the sun shining from"."""
    from pyagent.language.parser import normalise

    assert normalise("on the Erdgeschoss, which room has the most floor space?").startswith(
        "which room on the erdgeschoss has")
    assert "which way" in normalise("in this sun study, which way is the sun shining from?").split(" , ")[-1]


def _storey_contents(model: ifcopenshell.file, cls: str, storey_name: str) -> set[str]:
    import ifcopenshell.util.element as uel

    return {e.GlobalId for e in model.by_type(cls)
            if (container := uel.get_container(e)) is not None and container.Name == storey_name}


def test_a_second_noun_said_bare_shares_the_first_ones_words(sessions: ev.Sessions) -> None:
    """"The doors and windows upstairs": both upstairs; "the doors and all the windows upstairs": the doors
    everywhere; "the steel posts and beams": the steel beams too."""
    model = ifcopenshell.open(str(IFC / "duplex.ifc"))
    pose = {"position": [2.0, 2.0, 1.6], "yaw": 0.0, "pitch": 0.0}
    downstairs_doors = _storey_contents(model, "IfcDoor", "Level 1")
    both = session(sessions, "duplex.ifc", pose)
    assert both.say("hide the doors and windows upstairs").ok
    hidden = set(both.state()["hidden"])
    assert _storey_contents(model, "IfcWindow", "Level 2") <= hidden and not (downstairs_doors & hidden)
    apart = session(sessions, "duplex.ifc", pose)
    assert apart.say("hide the doors upstairs").ok and apart.say("hide the windows upstairs").ok
    assert set(apart.state()["hidden"]) == hidden
    own = session(sessions, "duplex.ifc", pose)
    assert own.say("hide the doors and all the windows upstairs").ok
    assert downstairs_doors <= set(own.state()["hidden"])

    house = ifcopenshell.open(str(BUILDINGS / "freecad_testhouse.ifc"))
    steel = {e.GlobalId for e in house.by_type("IfcColumn") + house.by_type("IfcBeam") if "metal" in e.Name.lower()}
    s = session(sessions, "buildings/freecad_testhouse.ifc", pose)
    got = s.say("paint the steel posts and beams black")
    assert got.ok, got.answer
    assert set(s.state()["colors"]) == steel and len(steel) == 5


def test_a_value_said_again_takes_the_place_of_the_one_before(sessions: ev.Sessions) -> None:
    s = session(sessions, "buildings/freecad_testhouse.ifc", {"position": [2.0, 2.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    got = s.say("paint the walls red, sorry, I mean black")
    assert got.ok, got.answer
    colours = list(s.state()["colors"].values())
    assert colours and all(max(c[:3]) < 0.2 for c in colours)  # black, not red


def test_take_me_in_there_goes_to_the_place_just_looked_at(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(BUILDINGS / "archicad20_rooftop-4zones.ifc"))
    bath = next(sp for sp in model.by_type("IfcSpace") if sp.LongName == "Bath")
    s = session(sessions, "buildings/archicad20_rooftop-4zones.ifc",
                {"position": [13.0, -3.5, 1.6], "yaw": 270.0, "pitch": 0.0})
    got = s.say("right, let's look at the bathroom next, take me in there")
    assert got.ok, got.answer
    assert s.say("which room am I in?").value == bath.LongName  # it was the big room around it before


def test_the_walk_to_a_thing_in_this_room_is_the_way_to_it(sessions: ev.Sessions) -> None:
    """"How far is it to walk to the door in front of me" in the room one stands in: as far as the door is, not
    the distance to a point of the room it stands in."""
    s = session(sessions, "buildings/archicad20_rooftop-4zones.ifc",
                {"position": [13.0, -3.5, 1.6], "yaw": 270.0, "pitch": 0.0})
    walk = s.say("how far is it to walk to the terrace door in front of me?")
    straight = s.say("how far is the terrace door in front of me?")
    assert walk.ok and straight.ok, (walk.answer, straight.answer)
    assert walk.program["steps"][0]["op"] == "route" and straight.program["steps"][0]["op"] == "distance"
    assert abs(walk.value - straight.value) < 0.05 and walk.value > 1.0


def test_a_slab_is_as_thick_as_its_extrusion(sessions: ev.Sessions) -> None:
    """"How thick are the floor slabs": the thinnest way through each (a slab's height, not its plan depth)."""
    import ifcopenshell.util.unit as uunit

    model = ifcopenshell.open(str(ev.ifc_path("real/revit2014_japanese_unicode.ifc")))
    scale = uunit.calculate_unit_scale(model)
    depths = {round(item.Depth * scale, 4) for slab in model.by_type("IfcSlab")
              for rep in slab.Representation.Representations for item in rep.Items if item.is_a("IfcExtrudedAreaSolid")}
    s = session(sessions, "real/revit2014_japanese_unicode.ifc",
                {"position": [2.0, 2.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    got = s.say("how thick are the floor slabs?")
    assert got.ok and len(depths) == 1 and abs(got.value - depths.pop()) < 0.005, got.answer


def test_the_nearest_of_a_kind_to_another_thing(sessions: ev.Sessions) -> None:
    """"How far is the door from the nearest column": the column nearest the door, measured box to box."""
    import ifcopenshell.geom

    model = ifcopenshell.open(str(ev.ifc_path("real/revit2014_japanese_unicode.ifc")))
    settings = ifcopenshell.geom.settings()
    settings.set("use-world-coords", True)

    def box(product: Any) -> tuple[np.ndarray, np.ndarray]:
        verts = np.asarray(ifcopenshell.geom.create_shape(settings, product).geometry.verts).reshape(-1, 3)
        return verts.min(axis=0), verts.max(axis=0)

    (dlo, dhi), = [box(d) for d in model.by_type("IfcDoor")]
    gaps = [float(np.linalg.norm(np.maximum(0.0, np.maximum(clo - dhi, dlo - chi))))
            for clo, chi in (box(c) for c in model.by_type("IfcColumn"))]
    s = session(sessions, "real/revit2014_japanese_unicode.ifc",
                {"position": [2.0, 2.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    for text in ("how far is the door from the nearest column?", "how far is the nearest column from the door?"):
        got = s.say(text)
        assert got.ok and abs(got.value - min(gaps)) < 0.01, (text, got.answer, min(gaps))


def test_what_they_weigh_all_together_after_counting_them(sessions: ev.Sessions) -> None:
    import ifcopenshell.util.element as uel

    model = ifcopenshell.open(str(ev.ifc_path("real/tekla_TOYO_INK_Legkezelo.ifc")))
    weights = [next(v["Weight"] for v in uel.get_psets(c).values() if "Weight" in v)
               for c in model.by_type("IfcColumn")]
    s = session(sessions, "real/tekla_TOYO_INK_Legkezelo.ifc", {"position": [2.0, 2.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    assert s.say("how many columns are there?").value == len(weights)
    got = s.say("and what do they weigh all together?")
    assert got.ok and abs(got.value - sum(weights)) < 0.01, got.answer


def test_going_to_a_storey_said_alone_keeps_the_place(sessions: ev.Sessions) -> None:
    """"Can we pop down to the basement", "take me to the basement": the same place a storey down (the room
    under the user), not the thing on that storey nearest to the user."""
    model = ifcopenshell.open(str(BUILDINGS / "revit2024por_building-teste-gis.ifc"))
    lowest = min(model.by_type("IfcBuildingStorey"), key=lambda st: st.Elevation)
    pose = {"position": [-13.5, -23.5, 1.6], "yaw": 90.0, "pitch": 0.0}
    for text in ("can we pop down to the basement?", "take me to the basement"):
        s = session(sessions, "buildings/revit2024por_building-teste-gis.ifc", pose)
        got = s.say(text)
        assert got.ok, (text, got.answer)
        assert np.allclose(s.pose.position[:2], [-13.5, -23.5]), text
        assert lowest.Name in s.say("where am I?").answer, text


def test_the_room_at_ones_feet_on_a_second_level_of_one_storey(sessions: ev.Sessions) -> None:
    """A file with both levels in one storey: standing upstairs is being in the room upstairs, not in the one
    under it at the storey's level."""
    import ifcopenshell.geom

    model = ifcopenshell.open(str(BUILDINGS / "ifcengine_example.ifc"))
    settings = ifcopenshell.geom.settings()
    settings.set("use-world-coords", True)
    feet = np.array([2.0, 4.0, 3.6])
    upstairs = []
    for space in model.by_type("IfcSpace"):
        v = np.asarray(ifcopenshell.geom.create_shape(settings, space).geometry.verts).reshape(-1, 3)
        if np.all(v.min(axis=0) <= feet) and np.all(feet <= v.max(axis=0)):
            upstairs.append(space.Name)
    s = session(sessions, "buildings/ifcengine_example.ifc", {"position": [2.0, 4.0, 5.2], "yaw": 0.0, "pitch": 0.0})
    assert len(upstairs) == 1 and s.say("which room am I in?").value == upstairs[0]


def test_a_storey_by_its_name_without_its_number_and_with_a_storey_noun(sessions: ev.Sessions) -> None:
    import ifcopenshell.util.element as uel

    model = ifcopenshell.open(str(BUILDINGS / "revit2020nld_gymzaal-hambakendreef.ifc"))
    storey = next(st for st in model.by_type("IfcBuildingStorey") if st.Name.endswith("Eerste verdieping"))
    windows = [w for w in model.by_type("IfcWindow") if uel.get_container(w) == storey]
    s = session(sessions, "buildings/revit2020nld_gymzaal-hambakendreef.ifc",
                {"position": [2.0, 2.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    got = s.say("how many windows are on the Eerste verdieping level?")
    assert got.ok and got.value == len(windows) > 0, got.answer


def test_not_the_one_i_said_but_the_one_i_meant(sessions: ev.Sessions) -> None:
    s = session(sessions, "buildings/revit2022deu_sensor-versuchsstand.ifc",
                {"position": [2.0, 2.0, 1.6], "yaw": 0.0, "pitch": 0.0})
    chairs = s.say("hide the chairs")
    assert chairs.ok, chairs.answer
    first = set(s.state()["hidden"])
    got = s.say("oops, not the chairs, I meant the cupboard")
    assert got.ok and [step["op"] for step in got.program["steps"]] == ["show", "hide"], got.answer
    now = set(s.state()["hidden"])
    assert now and not (first & now)
