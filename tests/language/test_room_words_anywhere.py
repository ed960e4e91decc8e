"""Rooms named in other languages and ways: compounds ("Kellerraum" is a cellar), numbers with leading
zeros ("Office_07" is office 7), words spelt alike across languages ("bacteriology" lab for
"BACTERIOLOGIE"), two room words at once ("the caretaker's office"), the room over or under the user's
own among several of a kind, and a reason after a request ("so I can see in") that changes nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pyagent.language.lexicon import room_numbers, room_phrases
from pyagent.model import Pose
from pyagent.session import Session

BUILDINGS = Path(__file__).resolve().parent / "buildings"


def test_the_first_part_of_a_compound_names_the_room_and_the_last_part_does_not() -> None:
    assert "cellar" in room_phrases("1.0.1", "KELLERRAUM-1-1")
    assert "bedroom" in room_phrases("", "ZIMMER-4-2")
    assert "bedroom" not in room_phrases("", "Wohnzimmer")  # a living room is a Zimmer, not a bedroom
    assert "living room" in room_phrases("", "Wohnzimmer")


def test_room_numbers_with_leading_zeros_are_also_said_without() -> None:
    assert {"07", "7"} <= room_numbers("", "Office_07")
    assert "office 7" in room_phrases("", "Office_07")


@pytest.fixture(scope="module")
def lab() -> Session:
    return Session.open(BUILDINGS / "revit2017fra_rue-marc-antoine-petit.ifc")


def _room(s: Session, long_name: str) -> str:
    return next(sp.id for sp in s.building.spaces() if sp.long_name == long_name)


@pytest.mark.parametrize("said, long_name", [
    ("select the bacteriology lab", "BACTERIOLOGIE"),      # spelt alike in English and French
    ("select the chemistry lab", "CHIMIE"),                # the glossary: chemistry -> chimie
    ("select the caretaker's office", "LOCAL GARDIEN"),     # two room words: the rooms both name, else the first
    ("select the waiting area", "ATTENTE"),
])
def test_rooms_named_in_english_in_a_french_building(lab: Session, said: str, long_name: str) -> None:
    r = lab.say(said)
    assert r.ok, r.answer
    assert lab.state()["selected"] == [_room(lab, long_name)]


def test_an_unknown_room_word_is_still_refused(lab: Session) -> None:
    before = lab.state()
    r = lab.say("how many windows does the gymnasium have")
    assert not r.ok
    assert lab.state() == before


@pytest.fixture(scope="module")
def terrace() -> Session:
    return Session.open(BUILDINGS / "archicad11_smiley-west.ifc")


def test_the_kitchen_downstairs_is_the_one_under_the_users_room_in_a_terrace_of_houses(terrace: Session) -> None:
    b = terrace.building
    kitchens = [sp for sp in b.spaces() if sp.long_name.upper().startswith("WOHNEN / KOCHEN")]
    assert len(kitchens) == 5
    upper = next(st for st in b.storeys if st.name == "1.OG")
    for kitchen in (kitchens[0], kitchens[3]):
        # Stand upstairs in a room over this kitchen.
        lo, hi = np.asarray(kitchen.bbox_min[:2]), np.asarray(kitchen.bbox_max[:2])
        above = [sp for sp in b.spaces() if sp.storey == upper.id
                 and np.all(np.minimum(sp.bbox_max[:2], hi) - np.maximum(sp.bbox_min[:2], lo) > 1.0)]
        assert above
        centre = (np.asarray(above[0].bbox_min) + np.asarray(above[0].bbox_max)) / 2
        terrace.set_pose(Pose(np.array([centre[0], centre[1], upper.elevation + 1.6]), 0.0, 0.0))
        r = terrace.say("take me down to the kitchen")
        assert r.ok, r.answer
        p = terrace.pose.position.copy()
        p[2] = kitchen.bbox_min[2] + 0.5
        assert terrace.graph.room_at(p) == kitchen.id


def test_a_reason_after_the_request_changes_nothing_in_it(terrace: Session) -> None:
    r = terrace.say("hide the outside walls so I can see in")
    try:
        assert r.ok, r.answer
        outside = {g for g, e in terrace.building.elements.items() if e.ifc_class.startswith("IfcWall")
                   and e.properties.get("IsExternal") is True}
        assert outside and outside <= set(terrace.state()["hidden"])
    finally:
        terrace.say("reset")


def test_material_words_match_the_buildings_own_material_names(terrace: Session) -> None:
    # The terrace's walls are "Stahlbeton" (reinforced concrete): "concrete" finds them through the glossary.
    concrete = {g for g, e in terrace.building.elements.items() if e.ifc_class.startswith("IfcWall")
                and any("beton" in m.lower() for m in e.materials)}
    assert concrete
    r = terrace.say("how many concrete walls are there")
    assert r.ok and r.value == len(concrete), r.answer


def test_bathrooms_are_not_toilets_where_the_building_has_both(terrace: Session) -> None:
    b = terrace.building
    baths = {sp.id for sp in b.spaces() if "BAD" in sp.long_name.upper()}
    toilets = {sp.id for sp in b.spaces() if "WC" in sp.long_name.upper()}  # "BAD / WC" rooms are both
    assert baths and toilets - baths
    r = terrace.say("select all the bathrooms")
    assert r.ok and set(terrace.state()["selected"]) == baths, r.answer
    r = terrace.say("select all the toilets")
    assert r.ok and set(terrace.state()["selected"]) == toilets, r.answer


def test_the_front_doors_of_a_terrace_are_one_per_house(terrace: Session) -> None:
    r = terrace.say("select the front doors")
    assert r.ok, r.answer
    doors = terrace.state()["selected"]
    assert len(doors) == 5
    assert all("outside" in terrace.building.elements[g].sides for g in doors)
    r = terrace.say("select the front door")
    assert r.ok and len(terrace.state()["selected"]) == 1, r.answer


def test_the_walk_to_the_nearest_room_of_a_kind_is_the_shortest_walk(terrace: Session) -> None:
    b = terrace.building
    ground = next(st for st in b.storeys if st.name == "EG")
    hall = next(sp for sp in b.spaces() if sp.storey == ground.id and sp.long_name.upper().startswith("FLUR-3"))
    centre = (np.asarray(hall.bbox_min) + np.asarray(hall.bbox_max)) / 2
    terrace.set_pose(Pose(np.array([centre[0], centre[1], ground.elevation + 1.6]), 0.0, 0.0))
    r = terrace.say("how far is it to walk to the kitchen")
    assert r.ok, r.answer
    # The kitchen of the same house (house 3), never a neighbour's behind the party wall.
    assert "KOCHEN-3-1" in r.answer.upper(), r.answer


def test_rooms_open_off_a_room_through_its_doors() -> None:
    s = Session.open(Path(__file__).resolve().parents[2] / "ifc" / "AC20-FZK-Haus.ifc")
    hall = next(sp.id for sp in s.building.spaces() if sp.long_name == "Flur")
    through = {r for e in s.building.elements.values() if e.ifc_class == "IfcDoor" and hall in e.sides
               for r in e.sides if r not in (hall, "outside")}
    assert through
    r = s.say("which rooms open off the hallway")
    assert r.ok and set(r.value) == through, r.answer
    r = s.say("how many doors are there off the hallway")
    assert r.ok and r.value == sum(1 for e in s.building.elements.values()
                                   if e.ifc_class == "IfcDoor" and hall in e.sides), r.answer
    # A relation to something the building does not have is refused, never answered for everything.
    r = s.say("how many rooms open off the gizmo")
    assert not r.ok


def test_this_house_of_a_terrace_is_the_dwelling_the_user_stands_in(terrace: Session) -> None:
    b = terrace.building
    units = terrace.executor.graph.units()
    assert len(units) == 5  # five houses, no way between them but outside
    kitchen = next(sp for sp in b.spaces() if sp.long_name.upper().startswith("WOHNEN / KOCHEN-2"))
    centre = (np.asarray(kitchen.bbox_min) + np.asarray(kitchen.bbox_max)) / 2
    storey = b.storey(kitchen.storey or "")
    assert storey is not None
    terrace.set_pose(Pose(np.array([centre[0], centre[1], storey.elevation + 1.6]), 0.0, 0.0))
    mine = next(u for u in units if kitchen.id in u)
    bedrooms = {g for g in mine if b.elements[g].long_name.upper().startswith("ZIMMER")}
    assert len(bedrooms) == 4
    r = terrace.say("how many bedrooms does this house have")
    assert r.ok and r.value == 4, r.answer
    r = terrace.say("how many rooms can I reach from here")
    assert r.ok and r.value == len(mine), r.answer
    r = terrace.say("how many bedrooms are there")  # the whole terrace
    assert r.ok and r.value == 20, r.answer


def test_this_house_is_the_whole_building_where_there_is_one_dwelling() -> None:
    s = Session.open(Path(__file__).resolve().parents[2] / "ifc" / "AC20-FZK-Haus.ifc")
    assert s.executor.graph.units() == []
    windows = sum(1 for e in s.building.elements.values() if e.ifc_class == "IfcWindow")
    r = s.say("how many windows does this house have")
    assert r.ok and r.value == windows, r.answer


@pytest.mark.parametrize("name", ["renga_house.ifc", "blenderbim_example-hom.ifc"])
def test_a_wing_or_a_floor_without_a_stair_is_no_dwelling_of_its_own(name: str) -> None:
    # the Renga house's garage wing (garage, lobby, corridor, WC) is reached from outside only, and the
    # ExampleHOM house has no stair drawn between its floors: both are one house, with rooms of other uses
    s = Session.open(BUILDINGS / name)
    assert s.executor.graph.units() == []
    rooms = sum(1 for e in s.building.elements.values() if e.ifc_class == "IfcSpace")
    r = s.say("how many rooms does this house have")
    assert r.ok and r.value == rooms, r.answer
