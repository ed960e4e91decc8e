"""Requests said loosely, read as what they ask, on real files (references from ifcopenshell where the file
says it): two classes selected at once, "N floors up from here", a remark before a question about the thing
("this kitchen feels bright, how many windows has it got"), a room corrected in place of a room, "..., I don't
need it for now", "which way is north", "cut the house open ... above the upstairs floor", "our half of the
duplex", "next to mine", "in here" in a building of no rooms, "how much square meters", "..., all of them",
"where is X from here" for a room, "the big one on the ground floor" said after, "just those and hide
everything else", "... and whatnot", "and its chairs too", "what is its height", "at the end of this
corridor"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ifcopenshell
import pytest

from pyagent.language import evaluate as ev
from pyagent.model import Pose

ROOT = Path(__file__).resolve().parents[2]
IFC = ROOT / "ifc"
BUILDINGS = Path(__file__).resolve().parent / "buildings"
REAL = ev.real_dir()
needs_real = pytest.mark.skipif(REAL is None, reason="the shared real buildings are not beside this checkout")
FZK = "AC20-FZK-Haus.ifc"


@pytest.fixture(scope="module")
def sessions() -> ev.Sessions:
    return ev.Sessions(use_llm=False)


def _at(sessions: ev.Sessions, ifc: str, x: float, y: float, z: float, yaw: float = 0.0) -> Any:
    s = sessions.fresh(ifc)
    s.set_pose(Pose.from_json({"position": [x, y, z], "yaw": yaw, "pitch": 0.0}))
    return s


def _ids(model: ifcopenshell.file, ifc_class: str) -> set[str]:
    return {str(e.GlobalId) for e in model.by_type(ifc_class)}


def _space(model: ifcopenshell.file, name: str) -> Any:
    return next(sp for sp in model.by_type("IfcSpace") if name in (sp.Name, sp.LongName))


def test_two_classes_selected_at_once_are_both_selected(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / FZK))
    s = sessions.fresh(FZK)
    r = s.say("could you select the doors and the windows, I want to check the openings")
    assert r.ok, r.answer
    assert set(s.state()["selected"]) == _ids(model, "IfcDoor") | _ids(model, "IfcWindow")


def test_floors_up_from_here_is_a_move_by_that_many(sessions: ev.Sessions) -> None:
    s = sessions.fresh("buildings/archicad11_smiley-west.ifc")  # KG, EG, 1.OG, 2.OG, Dach; the start is on EG
    assert s.say("where am i").answer.endswith("on EG.")
    r = s.say("can you take me two floors up from here")
    assert r.ok and r.program == {"steps": [{"op": "change_floor", "by": 2}]}, r.program
    assert "2.OG" in r.answer


def test_a_remark_before_a_question_names_the_thing_asked_about(sessions: ev.Sessions) -> None:
    s = _at(sessions, "buildings/blenderbim_example-hom.ifc", 2.2, 2.5, 1.6, 180)  # in the kitchen
    plain = s.say("how many windows are in the kitchen")
    said = s.say("The kitchen looks lovely and light. How many windows has it got?")
    assert said.ok and plain.ok, said.answer
    assert said.value == plain.value == 3


def test_a_room_said_in_place_of_a_room_keeps_the_things_of_it(sessions: ev.Sessions) -> None:
    s = sessions.fresh(FZK)
    r = s.say("paint the doors of the kitchen red. no, sorry, the bathroom, not the kitchen")
    assert r.ok, r.answer
    doors = s.say("which doors are in the bathroom")
    assert doors.value and set(s.state()["colors"]) == set(doors.value)


def test_why_a_thing_goes_is_no_second_request(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / FZK))
    s = sessions.fresh(FZK)
    r = s.say("hide the kitchen, we don't need it right now")
    assert r.ok, r.answer
    assert s.state()["hidden"] == [str(_space(model, "Küche").GlobalId)]


@needs_real
def test_a_storey_named_by_a_room_word_and_a_storey_word_in_one(sessions: ev.Sessions) -> None:
    """The Allplan terrace: storey "Kellergeschoss" and fifteen rooms "Kellerraum" etc. on it: the cellar is
    the storey."""
    s = sessions.fresh("real/allplan_Smiley-West_IFC2X.ifc")
    r = s.say("hide the cellar, I don't need it for now")
    assert r.ok, r.answer
    assert r.program == {"steps": [{"op": "hide", "target": {"storey": "Kellergeschoss"}}]}, r.program


@pytest.mark.parametrize("text", ["which way is north?", "Which way is north? Turn me so I'm facing it.",
                                  "where is north, turn me that way"])
def test_which_way_is_north_turns_the_user_to_it(sessions: ev.Sessions, text: str) -> None:
    r = sessions.fresh(FZK).say(text)
    assert r.ok and r.program == {"steps": [{"op": "turn", "face": "north"}]}, r.program


def test_cutting_the_house_open_above_the_upstairs_floor(sessions: ev.Sessions) -> None:
    r = sessions.fresh("buildings/blenderbim_example-hom.ifc").say(
        "cut the house open one and a half metres above the upstairs floor")
    assert r.ok, r.answer
    assert r.program == {"steps": [{"op": "section", "mode": "plane", "height": 1.5, "storey": "1stFloor"}]}


def test_our_half_of_the_duplex_is_the_users_unit(sessions: ev.Sessions) -> None:
    s = _at(sessions, "duplex.ifc", 1.5, -3.0, 4.7)
    plain = s.say("how many windows are there in this unit")
    said = s.say("how many windows does our half of the duplex have, all floors together?")
    assert said.ok and plain.ok, said.answer
    assert said.value == plain.value
    everywhere = s.say("how many windows are there")
    assert 0 < said.value < everywhere.value


def test_next_to_mine_is_next_to_my_room_of_that_kind(sessions: ev.Sessions) -> None:
    s = _at(sessions, "buildings/archicad18_multizone-office.ifc", 12.7, 14.5, 1.6, 180)
    plain = s.say("which offices are next to my office")
    said = s.say("which offices are right next to mine?")
    assert said.ok and plain.ok, said.answer
    assert said.value == plain.value and len(said.value) == 2


def test_in_here_in_a_building_of_no_rooms_is_the_building(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / "MiniProject.ifc"))
    assert not model.by_type("IfcSpace")
    r = sessions.fresh("MiniProject.ifc").say("how many columns have we got in here")
    assert r.ok, r.answer
    assert r.value == len(model.by_type("IfcColumn"))


def test_how_much_square_meters_has_this_room(sessions: ev.Sessions) -> None:
    s = _at(sessions, FZK, 9.0, 8.0, 1.6)  # in the bedroom
    r = s.say("How much square meters has this room?")
    plain = s.say("what is the area of this room")
    assert r.ok and r.value == plain.value, r.answer


def test_all_of_them_said_after_a_count(sessions: ev.Sessions) -> None:
    s = sessions.fresh("buildings/renga_house.ifc")
    plain = s.say("how many doors does the garage have")
    r = s.say("Quick one: how many doors has the garage got, all of them?")
    assert r.ok and r.value == plain.value == 3, r.answer


def test_where_is_a_room_from_here_is_the_way_there(sessions: ev.Sessions) -> None:
    s = _at(sessions, "buildings/renga_house.ifc", -2.0, -3.0, 5.05)
    r = s.say("where is the nearest toilet from here please")
    assert r.ok and r.program["steps"][0]["op"] == "route", r.program
    assert "on foot" in r.answer
    door = s.say("where is the nearest door from where I am standing")  # a thing, not a place to go: which one
    assert door.ok and door.program["steps"][0]["op"] == "list", door.program


def test_which_of_the_rooms_said_after_the_request(sessions: ev.Sessions) -> None:
    s = sessions.fresh("buildings/renga_house.ifc")
    r = s.say("let's drop a sofa into the studio living room, the big one on the ground floor")
    assert r.ok, r.answer
    assert s.state()["props"] and "Студия-гостиная" in r.answer


def test_just_those_and_hide_everything_else_after_a_count(sessions: ev.Sessions) -> None:
    s = sessions.fresh("MiniProject.ifc")
    counted = s.say("how many steel columns are there?")
    r = s.say("right, show me just those and hide everything else")
    assert r.ok and r.program == {"steps": [{"op": "isolate", "target": {"ref": "it"}}]}, r.program
    assert counted.value == 8


def test_and_whatnot_says_the_same_things_again(sessions: ev.Sessions) -> None:
    s = sessions.fresh("MiniProject.ifc")
    plain = s.say("how many timber elements are there")
    r = s.say("Can you hide all the timber? The formwork and whatnot. I only want to see the concrete and the steel.")
    assert r.ok, r.answer
    assert len(s.state()["hidden"]) == plain.value > 0


@needs_real
def test_a_thing_and_its_chairs(sessions: ev.Sessions) -> None:
    """The Revit sample project: a round dining table with four chairs round it, in front of the speaker."""
    s = _at(sessions, "real/revit2021_tested_sample_project.ifc", 1.2, -7.0, 1.6, 90)
    r = s.say("Get rid of this table in front of me, and its chairs too.")
    assert r.ok, r.answer
    deleted = s.state()["deleted"]
    assert len(deleted) == 5
    s.say("undo")
    assert s.state()["deleted"] == []
    r = s.say("colour the table in front of me and its chairs red")
    assert r.ok and len(s.state()["colors"]) == 5, r.answer


def test_its_property_after_a_question(sessions: ev.Sessions) -> None:
    s = sessions.fresh(FZK)
    s.say("how wide is the front door")
    r = s.say("what is its height")
    assert r.ok and r.program == {"steps": [{"op": "get", "target": {"ref": "it"}, "property": "height"}]}
    assert r.value == pytest.approx(2.01, abs=0.01)
    s.say("how many windows are in the kitchen")
    r = s.say("what are their thicknesses")
    assert r.ok and r.program["steps"][0]["property"] == "thickness", r.answer


def test_the_exit_at_the_end_of_this_corridor_is_the_one_ahead(sessions: ev.Sessions) -> None:
    s = _at(sessions, "buildings/archicad18_multizone-office.ifc", 9.5, 12.0, 1.6, 90)
    r = s.say("how far is it from here to the exit at the end of this corridor?")
    plain = s.say("how far is it to the outside door in front of me")
    assert r.ok and r.program == plain.program, r.program


def test_what_is_selected(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / FZK))
    s = sessions.fresh(FZK)
    nothing = s.say("what is selected")
    assert not nothing.ok and "nothing is selected" in nothing.answer
    s.say("select the doors")
    doors = _ids(model, "IfcDoor")
    for text in ("which elements are selected", "list the selection", "what have I selected"):
        r = s.say(text)
        assert r.ok and set(r.value) == doors, (text, r.answer)
    for text in ("how many are selected", "how many things have I selected"):
        r = s.say(text)
        assert r.ok and r.value == len(doors), (text, r.answer)
    r = s.say("hide the selection")
    assert r.ok and set(s.state()["hidden"]) == doors
