"""Requests said around a remark, about a side of the building or a row of houses, on real files: a remark
that names what "them" means, "which floors have a kitchen", "how many of the columns are steel ones", a
non-native "how much is his height", "how far is it from here to the front door" (as the crow flies; to a room,
the walk), the living room "with kitchen" in "house number one", the middle house of a terrace, "how many square
metres have I got down here", two kinds moved at once, the room "on top of this one", "make red all the doors",
the office "on the other side of the wall in front of me", the balcony railings of a building whose railings
are only called railings, the columns "out the front" of a long terrace, and "from this room I can go out on
the balcony, yes?"."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from lang_support import needs_real, standing_at

from pyagent.language import evaluate as ev

SMILEY = "buildings/archicad11_smiley-west.ifc"
SMILEY_ALLPLAN = "real/allplan_Smiley-West_IFC2X.ifc"
JASMIN = "buildings/archicad9_jasmin-sun.ifc"
FIVE_ZONE = "buildings/revit2022_5zone-office.ifc"
TESTHOUSE = "buildings/freecad_testhouse.ifc"
PORTUGUESE = "buildings/revit2024por_building-teste-gis.ifc"
SAMPLE_2021 = "real/revit2021_tested_sample_project.ifc"


def _spaces_named(s: Any, fragment: str) -> list[str]:
    return sorted(e.id for e in s.building.spaces() if fragment.lower() in f"{e.name} {e.long_name}".lower())


@pytest.mark.parametrize("said", ["Right, I want to check the walls against the drawings. Colour them all red",
                                  "we're not keeping the walls anymore, hide them"])
def test_a_remark_names_what_the_request_after_it_takes_up(sessions: ev.Sessions, said: str) -> None:
    s = sessions.fresh("duplex.ifc")
    r = s.say(said)
    assert r.ok, r.answer
    target = r.program["steps"][0]["target"]
    walls = set(s.view().peek({"class": ["IfcWall"]}))
    assert walls and walls <= set(s.view().peek(target)), r.program


def test_a_reason_after_does_not_swallow_the_request_after_it(sessions: ev.Sessions) -> None:
    s = sessions.fresh("duplex.ifc")
    r = s.say("Hide the roof, I need to check the beams. Then colour the doors blue")
    assert r.ok and [st["op"] for st in r.program["steps"]] == ["hide", "color"], r.program


def test_which_floors_have_a_kitchen_names_those_floors(sessions: ev.Sessions) -> None:
    s = sessions.fresh(PORTUGUESE)
    kitchens = _spaces_named(s, "cozinha")
    floors = sorted({s.building.storey(s.building.elements[k].storey).name for k in kitchens})
    r = s.say("Which floors have got a kitchen?")
    assert r.ok and len(floors) == 2 and sorted(set(r.value)) == floors, (r.value, floors)


def test_how_many_of_the_columns_are_steel_ones(sessions: ev.Sessions) -> None:
    s = sessions.fresh("MiniProject.ifc")
    steel = [e for e in s.building.elements.values() if e.ifc_class == "IfcColumn"
             and any("steel" in m.lower() for m in e.materials)]
    for said in ("How many of the columns are steel ones?", "how many of the columns are made of steel"):
        r = s.say(said)
        assert r.ok and steel and r.value == len(steel) < len(s.view().peek({"class": ["IfcColumn"]})), r.answer


def test_how_much_is_his_height_after_the_tallest(sessions: ev.Sessions) -> None:
    s = sessions.fresh("MiniProject.ifc")
    tallest = max(e.dims.get("height") or 0.0 for e in s.building.elements.values() if e.ifc_class == "IfcColumn")
    r = s.say("Which column is the most tall, and how much is his height?")
    assert r.ok and r.program["steps"][-1]["property"] == "height", r.program
    assert f"{tallest:.2f}" in r.answer, r.answer


def test_what_will_be_done_after_is_not_part_of_the_request(sessions: ev.Sessions) -> None:
    s = sessions.fresh(TESTHOUSE)
    r = s.say("Get rid of the bar table, we'll put something else there.")
    assert r.ok and r.program["steps"][0]["op"] == "delete" and len(s.state()["deleted"]) == 1, r.program


def test_how_far_from_here_to_a_thing_is_straight_and_to_a_room_is_the_walk(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "duplex.ifc", 4.0, 4.0, 1.6, 0.0)
    r = s.say("How far is it from here to the front door?")
    assert r.ok and r.program["steps"][0]["op"] == "distance", r.program
    r = s.say("how far is it from here to the kitchen")
    assert r.ok and r.program["steps"][0]["op"] == "route", r.program
    r = s.say("how far is it from here to the front door on foot")
    assert r.ok and r.program["steps"][0]["op"] == "route", r.program


def test_a_walk_to_a_door_no_room_holds_is_told_as_the_crow_flies(sessions: ev.Sessions) -> None:
    s = sessions.fresh(TESTHOUSE)
    r = s.say("how far is it to walk to the front door")
    assert r.ok and r.program["steps"][0]["op"] == "route", r.program
    assert "as the crow flies" in r.answer and isinstance(r.value, float) and r.value > 0, r.answer


def test_the_living_room_with_kitchen_in_house_number_one(sessions: ev.Sessions) -> None:
    s = sessions.fresh(SMILEY)
    room = next(e for e in s.building.spaces() if e.long_name.endswith("-1-1") and "KOCHEN" in e.long_name.upper())
    for said in ("What is the size of the living room with kitchen in house number one?",
                 "what is the area of the kitchen in house one"):
        r = s.say(said)
        assert r.ok and r.value == pytest.approx(room.quantities["area"], abs=0.01), (said, r.answer)


def test_the_middle_house_of_a_row_and_none_of_two(sessions: ev.Sessions) -> None:
    s = sessions.fresh(SMILEY)
    r = s.say("Take me down to the big cellar room of the middle house.")
    assert r.ok and "-3-" in r.answer, r.answer  # five houses in a row: the third
    r = s.say("And how many square metres have I got down here?")
    here = s.view().user_room()
    area = s.building.elements[here].quantities["area"] if here is not None else None
    assert r.ok and r.value == pytest.approx(area, abs=1e-3), r.answer
    r = sessions.fresh("duplex.ifc").say("hide the doors of the middle flat")
    assert not r.ok and "middle" in r.answer, r.answer


@needs_real
def test_two_kinds_moved_at_once(sessions: ev.Sessions) -> None:
    s = sessions.fresh(SAMPLE_2021)
    r = s.say("move all the tables and chairs one metre to the north")
    assert r.ok and [st["target"].get("kind") for st in r.program["steps"]] == ["table", "chair"], r.program
    moved = s.state()["transforms"]
    tables_and_chairs = set(s.view().peek({"kind": "table"})) | set(s.view().peek({"kind": "chair"}))
    assert tables_and_chairs and set(moved) == tables_and_chairs, (len(moved), len(tables_and_chairs))


def test_the_room_on_top_of_this_one(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, JASMIN, 4.0, 5.0, 1.6, 0.0)
    here = s.view().user_room()
    r = s.say("Which room sits right on top of this one?")
    assert r.ok and here is not None and len(r.value) == 1, r.answer
    above, below = s.building.elements[r.value[0]], s.building.elements[here]
    assert above.bbox_min[2] >= below.bbox_max[2] - 0.5 and above.storey != below.storey


def test_the_colour_said_before_the_things(sessions: ev.Sessions) -> None:
    s = sessions.fresh(JASMIN)
    cellar_doors = s.view().peek({"class": ["IfcDoor"], "storey": "Keller"})
    r = s.say("please you make red all the doors of the cellar")
    assert r.ok and cellar_doors and sorted(s.state()["colors"]) == sorted(cellar_doors), r.answer


def test_the_open_plan_kitchen_living_area(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, JASMIN, 5.0, 1.5, 1.6, 90.0)
    (room,) = _spaces_named(s, "kochen")
    furniture = s.view().peek({"class": ["IfcFurnishingElement", "IfcFurniture"],
                               "relations": [{"rel": "in", "of": {"ids": [room]}}]})
    r = s.say("How many bits of furniture are in the open-plan kitchen-living area?")
    assert r.ok and furniture and r.value == len(furniture), r.answer


def test_got_rid_of_to_look_down_into_the_rooms_is_hidden(sessions: ev.Sessions) -> None:
    s = sessions.fresh(FIVE_ZONE)
    r = s.say("Get rid of the roof and the ceiling, I want to look down into the offices from above.")
    assert r.ok and {st["op"] for st in r.program["steps"]} == {"hide"} and not s.state()["deleted"], r.program
    assert len(s.state()["hidden"]) == 2


def test_the_office_on_the_other_side_of_the_wall_in_front(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, FIVE_ZONE, 0.0, 0.0, 1.6, -90.0)  # in the core office, facing the south one
    r = s.say("Which office is on the other side of the wall in front of me?")
    assert r.ok and len(r.value) == 1, r.answer
    room = s.building.elements[r.value[0]]
    assert "south" in room.label().lower() and room.id != s.view().user_room(), r.answer


@needs_real
def test_balcony_railings_where_no_railing_is_named_for_a_balcony(sessions: ev.Sessions) -> None:
    s = sessions.fresh(SMILEY_ALLPLAN)
    railings = s.view().peek({"class": ["IfcRailing"]})
    r = s.say("Colour all the balcony railings yellow, I want to check them against the elevations.")
    assert r.ok and railings and sorted(s.state()["colors"]) == sorted(railings), r.answer


@needs_real
def test_the_columns_out_the_front_of_a_long_terrace(sessions: ev.Sessions) -> None:
    """The ten columns stand along the entrance front of a 37 m long row, most of them far from the middle of
    it: all on that side."""
    s = standing_at(sessions, SMILEY_ALLPLAN, 18.5, 4.5, 1.78, 0.0)
    columns = s.view().peek({"class": ["IfcColumn"]})
    r = s.say("Those columns out the front - how many are there and how tall are they?")
    assert r.ok and [st["op"] for st in r.program["steps"]] == ["count", "get"], r.program
    assert r.program["steps"][0]["target"]["relations"] == [{"rel": "south"}]
    assert len(columns) == 10 and "10 columns" in r.answer and "2.60 m" in r.answer, r.answer
    ys = [float(s.building.elements[c].bbox_min[1]) for c in columns]
    assert np.ptp(ys) < 0.5  # the premise: one row along the front


def test_its_floor_area_after_the_bigger_of_two(sessions: ev.Sessions) -> None:
    s = sessions.fresh("buildings/revit2020chs_basic-demo.ifc")
    bedrooms = _spaces_named(s, "卧")
    biggest = max(s.building.elements[b].quantities["area"] for b in bedrooms)
    r = s.say("Which of the two bedrooms is the bigger one, and what's its floor area?")
    assert r.ok and len(bedrooms) == 2 and r.value == pytest.approx(biggest), r.answer


def test_from_this_room_i_can_go_out_on_the_balcony_yes(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, PORTUGUESE, -13.5, -23.5, 4.6, -90.0)
    r = s.say("from this room i can go out on the balcony yes?")
    assert r.ok and r.value is True, r.answer


def test_a_thing_said_again_somewhere_else_is_moved_not_narrowed(sessions: ev.Sessions) -> None:
    """"The window on my left... no sorry, the one behind me": the window behind, not one both left and behind."""
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 2.5, 2.0, 1.6, 90.0)
    r = s.say("put a plant next to the window on my left... no sorry, the one behind me")
    assert r.ok, r.answer
    assert r.program["steps"][0]["anchor"]["relations"] == [{"rel": "behind"}], r.program
    assert len(s.state()["props"]) == 1


def test_take_me_up_to_the_next_floor(sessions: ev.Sessions) -> None:
    s = sessions.fresh("duplex.ifc")
    start = s.view().user_storey()
    r = s.say("take me up to the next floor")
    assert r.ok and r.program["steps"] == [{"op": "change_floor", "by": 1}], r.program
    assert s.view().user_storey() != start
    r = s.say("take me down to the next floor")
    assert r.ok and r.program["steps"] == [{"op": "change_floor", "by": -1}] and s.view().user_storey() == start
    r = sessions.fresh("buildings/autocadarch2012_bpi-office.ifc").say("ok take me up to the next floor")
    assert not r.ok and "storeys" in r.answer, r.answer  # a file with no storeys: nowhere to go


@pytest.mark.parametrize(("ifc", "said", "op"), [
    ("buildings/revit2019_grethes-hus.ifc", "hide the trees they are blocking everything", "hide"),
    ("AC20-FZK-Haus.ifc", "how wide is the front door? need to check we get a wheelchair through", "get"),
])
def test_why_said_after_without_a_pause_or_a_subject(sessions: ev.Sessions, ifc: str, said: str, op: str) -> None:
    r = sessions.fresh(ifc).say(said)
    assert r.ok and [st["op"] for st in r.program["steps"]] == [op], r.program


def test_room_one_of_rooms_numbered_in_roman(sessions: ev.Sessions) -> None:
    s = sessions.fresh("buildings/ifcengine_example.ifc")
    room = next(e for e in s.building.spaces() if e.name == "Room I")
    windows = [e for e in s.building.elements.values() if e.ifc_class == "IfcWindow" and room.id in e.sides]
    r = s.say("how big is room one and how many windows has it got")
    assert r.ok and r.program["steps"][0]["target"].get("ids") == [room.id], r.program
    assert windows and r.value == len(windows), r.answer


def test_all_of_them_including_one_said_by_the_way(sessions: ev.Sessions) -> None:
    s = sessions.fresh("buildings/renga_house.ifc")
    r = s.say("paint all the garage doors blue including the big up and over one")
    plain = sessions.fresh("buildings/renga_house.ifc").say("paint all the garage doors blue")
    assert r.ok and plain.ok and r.program == plain.program and len(s.state()["colors"]) >= 2, r.answer


def test_more_on_one_floor_or_another_is_the_count_on_each(sessions: ev.Sessions) -> None:
    s = sessions.fresh("buildings/blenderbim_example-hom.ifc")
    r = s.say("are there more windows on the ground floor or upstairs")
    assert r.ok and r.program["steps"][0]["op"] == "group", r.program
    assert sum(r.value.values()) == len(s.view().peek({"class": ["IfcWindow"]})), r.value


def test_where_the_door_from_this_room_goes(sessions: ev.Sessions) -> None:
    s = sessions.fresh("buildings/ifcengine_example.ifc")
    s.say("take me to room three")
    here = s.view().user_room()
    doors = [e for e in s.building.elements.values() if e.ifc_class == "IfcDoor" and here in e.sides]
    beyond = {r for d in doors for r in d.sides} - {here, "outside"}
    r = s.say("Where does the door from this room go?")
    assert r.ok and here is not None and beyond and set(r.value) == beyond, r.answer


def test_rooms_by_their_floor_finish_in_the_buildings_own_words(sessions: ev.Sessions) -> None:
    s = sessions.fresh("buildings/allplan2016_haus1-1og.ifc")

    def finish(e: Any) -> str:
        return str(e.properties.get("Pset_SpaceCommon.FloorCovering") or e.properties.get("FloorCovering") or "")

    parquet = [e for e in s.building.spaces() if "parkett" in finish(e).lower()]
    tiled = [e for e in s.building.spaces() if "keramisch" in finish(e).lower()]
    r = s.say("How many rooms have got parquet flooring?")
    assert r.ok and parquet and r.value == len(parquet), r.answer
    r = s.say("which rooms have a tiled floor")
    assert r.ok and tiled and sorted(r.value) == sorted(e.id for e in tiled), r.answer


def test_a_plan_cut_then_a_bit_lower(sessions: ev.Sessions) -> None:
    s = sessions.fresh("buildings/archicad19_office-cv2.ifc")
    r = s.say("give me a plan cut through this floor")
    assert r.ok and r.program["steps"][0]["op"] == "section" and r.program["steps"][0]["height"] == 1.2, r.program
    r = s.say("bit lower, like fifty centimetres")
    assert r.ok and r.program["steps"] == [{"op": "move_section", "by": -0.5}], r.program


@pytest.mark.parametrize(("ifc", "said", "op"), [
    ("buildings/archicad18_multizone-office.ifc",
     "excuse me, where is the toilet for the men? how I go there from here?", "route"),
    ("duplex.ifc", "For this dwelling only, how many doors are there that lead outside?", "count"),
    ("real/ifcopenshell_IfcOpenHouse_IFC4.ifc", "pop the roof off, I wanna look in from above", "hide"),
    ("AC20-FZK-Haus.ifc", "on the twenty first of june at six in the evening which side of the house gets the sun",
     "sun_position"),
    ("MiniProject.ifc", "Can you switch off all the formwork boards? They're cluttering the view.", "hide"),
])
def test_more_ways_of_saying_it(sessions: ev.Sessions, ifc: str, said: str, op: str) -> None:
    if ifc.startswith("real/") and ev.real_dir() is None:
        pytest.skip("the shared real buildings are not beside this checkout")
    s = standing_at(sessions, ifc, 12.7, 11.3, 1.6, 180.0) if "multizone" in ifc else sessions.fresh(ifc)
    r = s.say(said)
    assert r.ok and r.program["steps"][-1]["op"] == op, (r.program, r.answer)


@pytest.mark.parametrize(("ifc", "pose", "said", "ops"), [
    ("duplex.ifc", None, "how many windows are there upstairs on level two", ["count"]),
    ("duplex.ifc", None, "What's the floor area of the master bedroom... sorry, I mean bedroom one in unit A?",
     ["get"]),
    ("duplex.ifc", None, "For the photos I want this flat empty. Hide all the furniture in this apartment, only ours, "
                         "not next door.", ["hide"]),
    ("AC20-FZK-Haus.ifc", (5.0, 5.0, 1.6, 0.0), "Two quick ones for the room I'm standing in: how many windows has it "
                                                "got, and how many square metres is it?", ["count", "get"]),
    ("buildings/revit2020chs_basic-demo.ifc", None, "How many window this house is having, in total?", ["count"]),
    ("buildings/revit2020chs_basic-demo.ifc", None,
     "from here how do i get to the small bedroom and how far is the walk", ["route"]),
    ("MiniProject.ifc", None, "right so how many piles have we got under this hall in total", ["count"]),
    ("MiniProject.ifc", None, "and those columns, how much of them are from concrete?", ["count"]),
    ("buildings/freecad_testhouse.ifc", None, "what's the distance between the front door and the door to the annex",
     ["distance"]),
])
def test_said_in_the_last_round(sessions: ev.Sessions, ifc: str, pose: tuple[float, float, float, float] | None,
                                said: str, ops: list[str]) -> None:
    s = standing_at(sessions, ifc, *pose) if pose else sessions.fresh(ifc)
    r = s.say(said)
    assert r.ok and [st["op"] for st in r.program["steps"]] == ops, (r.program, r.answer)


def test_the_second_question_about_the_room_is_about_the_room(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 5.0, 5.0, 1.6, 0.0)
    here = s.view().user_room()
    r = s.say("Two quick ones for the room I'm standing in: how many windows has it got, and how many square metres "
              "is it?")
    area = s.building.elements[here].quantities["area"] if here is not None else None
    assert r.ok and r.value == pytest.approx(area, abs=1e-3), r.answer


def test_the_rooms_the_doors_of_things_open_into(sessions: ev.Sessions) -> None:
    """"connected" of doors (not rooms) is the rooms those doors open into: of the things in this room, its
    doors, so the rooms a door of this room opens into."""
    s = standing_at(sessions, "buildings/revit2022_5zone-office.ifc", 0.0, 0.0, 1.6, 0.0)
    here = s.view().user_room()
    doors = [e for e in s.building.elements.values() if e.ifc_class == "IfcDoor" and here in e.sides]
    beyond = {r for d in doors for r in d.sides} - {here, "outside"}
    r = s.do({"steps": [{"op": "list", "target": {"class": ["IfcSpace"], "relations": [
        {"rel": "connected", "of": {"class": ["IfcDoor"], "room": "mine"}}], "except": {"room": "mine"}}}]})
    assert r.ok and here is not None and beyond and set(r.value) == beyond, r.answer
