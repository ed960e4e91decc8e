"""Rooms as users name them in any building: everyday words in many languages (data/room_words.yaml),
numbers ("room 7", "office 4", "room four" for "Room IV"), the word a room noun decorates ("the bar" for
"Bar Space"), rooms up or down the stairs, and questions over rooms ("which is the biggest room", "what
do the room areas add up to", "how many square metres is …", "which level has more rooms, A or B").
Expectations come from the files read with ifcopenshell, independently of the agent."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import ifcopenshell
import ifcopenshell.util.element as ue
import pytest

from pyagent.actions.selectors import name_rows
from pyagent.language.lexicon import room_numbers, room_phrases
from pyagent.model import Element
from pyagent.session import Session

BUILDINGS = Path(__file__).resolve().parent / "buildings"


def _spaces(path: Path) -> list[Any]:
    return list(ifcopenshell.open(str(path)).by_type("IfcSpace"))


@pytest.mark.parametrize(("name", "long_name", "phrase"), [
    ("7", "Room", "room 7"), ("4", "small office", "office 4"), ("Room IV", "", "room 4"),
    ("Bar Space", "", "bar"), ("kitchen-space/13", "", "kitchen 13"), ("1 - Living room", "Living room", "room 1"),
    ("3", "Студия-гостиная", "living room"), ("6", "С/У", "bathroom"), ("202", "Bad", "bathroom"),
    ("retail-space/5", "", "shop"), ("Schlafzimmer", "", "bedroom"), ("Гараж", "", "garage"),
])
def test_a_room_is_named_by_everyday_words_and_numbers(name: str, long_name: str, phrase: str) -> None:
    assert phrase in room_phrases(name, long_name)


def test_room_numbers_and_what_is_not_one() -> None:
    assert room_numbers("Room IV", "") == {"4"}
    assert room_numbers("1.02", "Office") == {"1.02"}
    assert room_numbers("Living room", "") == set()
    assert "room" not in room_phrases("Room", "") and "space" not in room_phrases("Space", "")


def _element(name: str) -> Element:
    return Element(id=name.replace(" ", "_")[:22].ljust(22, "x"), ifc_class="IfcFurniture", name=name)


def test_names_match_whole_words_first_then_parts_then_words_in_any_order() -> None:
    els = {e.id: e for e in map(_element, ["Room I", "Room II", "Armchair", "Chair - Dining",
                                           "Table_Dining_w-Chairs_Rectangular"])}
    ids = list(els)
    import numpy as np

    rows = np.arange(len(ids))
    assert [ids[r] for r in name_rows(els, ids, rows, "room i")] == [ids[0]]
    assert [ids[r] for r in name_rows(els, ids, rows, "chair")] == [ids[3]]
    assert [ids[r] for r in name_rows(els, ids, rows, "armch")] == [ids[2]]
    assert [ids[r] for r in name_rows(els, ids, rows, "dining chairs")] == [ids[3]]


@pytest.fixture(scope="module")
def engine_house() -> Session:
    return Session.open(BUILDINGS / "ifcengine_example.ifc")


def test_room_by_spoken_number_and_roman_numeral(engine_house: Session) -> None:
    spaces = {s.Name: s for s in _spaces(BUILDINGS / "ifcengine_example.ifc")}
    r = engine_house.say("select room four")
    assert r.ok, r.answer
    assert list(engine_house.scene.selected) == [spaces["Room IV"].GlobalId]


def test_numbered_offices_and_the_biggest_room() -> None:
    path = BUILDINGS / "revit2008_quantities.ifc"
    spaces = _spaces(path)
    s = Session.open(path)
    r = s.say("select office 4")
    assert r.ok and list(s.scene.selected) == [next(sp.GlobalId for sp in spaces if sp.Name == "4")], r.answer
    # the agent's own room areas (from the file's quantities or the room's shape) decide the order
    biggest = max(s.building.spaces(), key=lambda sp: sp.quantities.get("area", 0.0))
    r = s.say("which is the biggest room?")
    assert r.ok and r.value == [biggest.id], (r.answer, r.value)


def test_room_areas_add_up_and_square_metres_of_a_room() -> None:
    path = BUILDINGS / "revit2015_samplehouse.ifc"
    spaces = _spaces(path)
    s = Session.open(path)
    living = next(sp for sp in spaces if (sp.LongName or "") == "Living room")
    areas = {sp.id: sp.quantities.get("area", 0.0) for sp in s.building.spaces()}
    r = s.say("how many square metres is the living room?")
    assert r.ok and r.value == pytest.approx(areas[living.GlobalId], rel=0.02), (r.answer, r.value)
    r = s.say("what do the room areas add up to?")
    assert r.ok and r.value == pytest.approx(sum(areas.values()), rel=0.02), (r.answer, r.value)


def test_which_level_has_more_rooms_of_two_named() -> None:
    path = BUILDINGS / "renga_house.ifc"
    model = ifcopenshell.open(str(path))
    counts = {st.Name: sum(1 for sp in model.by_type("IfcSpace") if ue.get_container(sp) == st
                           or ue.get_aggregate(sp) == st) for st in model.by_type("IfcBuildingStorey")}
    named = [n for n in counts if re.search(r"\d", n)]
    assert len(named) >= 2
    a, b = sorted(named)[:2]
    s = Session.open(path)
    r = s.say(f"which level has more rooms, {a} or {b}?")
    assert r.ok, r.answer
    best = max((a, b), key=lambda n: counts[n])
    assert best in r.answer, (r.answer, counts)


def test_the_toilet_upstairs_is_on_a_storey_above() -> None:
    path = BUILDINGS / "blenderbim_homemaker-test.ifc"
    s = Session.open(path)
    ground = min(s.building.storeys, key=lambda st: st.elevation)
    toilets = [sp for sp in s.building.spaces() if "toilet" in sp.name]
    above = [t for t in toilets if s.building.storey(t.storey) is not None
             and s.building.storey(t.storey).elevation > ground.elevation]  # type: ignore[union-attr]
    assert above and len(toilets) > len(above)
    start = next(t for t in toilets if t.storey == ground.id)
    s.say("take me to " + start.name)
    r = s.say("take me to the toilet upstairs")
    assert r.ok, r.answer
    here = s.spatial.room_at(s.pose.position) if hasattr(s.spatial, "room_at") else None
    if here is not None:
        assert here in {t.id for t in above}
    else:
        assert s.pose.position[2] > ground.elevation + 1.0


def test_a_rooms_own_property_asked_with_in() -> None:
    path = BUILDINGS / "revit2008_quantities.ifc"
    model = ifcopenshell.open(str(path))
    space = next(sp for sp in model.by_type("IfcSpace") if sp.Name == "4")
    finish = next(v["Floor Finish"] for v in ue.get_psets(space).values() if "Floor Finish" in v)
    r = Session.open(path).say("what's the floor finish in office 4?")
    assert r.ok and r.value == finish, (r.answer, r.value)


def test_going_up_to_a_storey_keeps_the_place_in_plan() -> None:
    path = BUILDINGS / "archicad9_niedriha.ifc"
    s = Session.open(path)
    storeys = sorted(s.building.storeys, key=lambda st: st.elevation)
    start = s.pose.position.copy()
    here = s.spatial.storey_of_point(float(start[2]))
    assert here is not None
    above = next(st for st in storeys if st.elevation > here.elevation)
    r = s.say(f"go up to {above.name}")
    assert r.ok and r.program == {"steps": [{"op": "change_floor", "by": above.index - here.index}]}, r.program


def test_front_door_is_the_outside_door_into_the_entrance_hall() -> None:
    path = BUILDINGS / "archicad9_jasmin-sun.ifc"
    s = Session.open(path)
    halls = {sp.id for sp in s.building.spaces() if "diele" in f"{sp.name} {sp.long_name}".lower()}
    entry = [e for e in s.building.elements.values() if e.ifc_class == "IfcDoor" and "outside" in e.sides
             and halls & set(e.sides)]
    assert len(entry) == 1
    r = s.say("select the front door")
    assert r.ok and list(s.scene.selected) == [entry[0].id], r.answer


def test_except_what_is_in_a_room_keeps_the_things_in_it() -> None:
    path = BUILDINGS / "archicad9_jasmin-sun.ifc"
    s = Session.open(path)
    bedroom = next(sp.id for sp in s.building.spaces() if "schlafzimmer" in f"{sp.name} {sp.long_name}".lower())
    furniture = {e.id for e in s.building.elements.values() if e.ifc_class.startswith("IfcFurnishing")
                 or e.ifc_class == "IfcFurniture"}
    inside = {g for g in furniture if s.building.elements[g].room == bedroom}
    assert inside and furniture - inside
    r = s.say("hide all the furniture except what's in the bedroom")
    assert r.ok and s.scene.hidden == furniture - inside, r.answer


def test_and_on_the_one_above_that() -> None:
    path = BUILDINGS / "archicad9_niedriha.ifc"
    model = ifcopenshell.open(str(path))
    storeys = sorted(model.by_type("IfcBuildingStorey"), key=lambda st: float(st.Elevation or 0.0))

    def rooms_on(st: Any) -> int:
        return sum(1 for sp in model.by_type("IfcSpace") if st in (ue.get_container(sp), ue.get_aggregate(sp)))

    lower, upper = next((a, b) for a, b in zip(storeys, storeys[1:], strict=False) if rooms_on(a) and rooms_on(b))
    s = Session.open(path)
    r = s.say(f"how many rooms are on {lower.Name}?")
    assert r.ok and r.value == rooms_on(lower), r.answer
    r = s.say("and on the one above that?")
    assert r.ok and r.value == rooms_on(upper), (r.answer, r.program)
