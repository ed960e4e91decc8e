"""``get``: a property or quantity of elements."""

from __future__ import annotations

import ifcopenshell.util.element as ue
import pytest
from ops_support import IN_KITCHEN, Building, refused, step


def test_the_floor_area_of_the_kitchen(fzk: Building) -> None:
    kitchen = fzk.space("Küche")
    r = step(fzk.session(IN_KITCHEN), "get", target={"ids": [kitchen]}, property="area")
    assert r.ok and r.value == pytest.approx(16.31, abs=0.05)
    assert r.answer.startswith("The area of") and "m²" in r.answer


def test_areas_of_several_rooms_are_added_up(fzk: Building) -> None:
    rooms = [fzk.space("Küche"), fzk.space("Bad")]
    one = [step(fzk.session(IN_KITCHEN), "get", target={"ids": [g]}, property="area").value for g in rooms]
    r = step(fzk.session(IN_KITCHEN), "get", target={"ids": rooms}, property="area")
    assert r.ok and r.value == pytest.approx(sum(one), abs=1e-3) and "total" in r.answer


def test_the_storey_of_a_door(fzk: Building) -> None:
    door = next(d for d in fzk.model.by_type("IfcDoor"))
    storey = door.ContainedInStructure[0].RelatingStructure.Name
    r = step(fzk.session(IN_KITCHEN), "get", target={"ids": [door.GlobalId]}, property="storey")
    assert r.ok and r.value == storey


def test_a_property_nobody_has_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "get", target={"class": ["IfcDoor"]}, property="wattage")


def test_a_u_value_is_said_as_one_with_its_unit(fzk: Building) -> None:
    doors = [d for d in fzk.model.by_type("IfcDoor") if d.Name == "Haustuer"]
    want = ue.get_psets(doors[0])["Pset_DoorCommon"]["ThermalTransmittance"]
    r = step(fzk.session(IN_KITCHEN), "get", target={"ids": [doors[0].GlobalId]}, property="ThermalTransmittance")
    assert r.ok and r.value == pytest.approx(want)
    assert r.answer == f"The U value of Haustuer is {want:.2f} W/(m²·K)."


def test_a_text_property_written_empty_is_no_value(fzk: Building) -> None:
    """FZK's doors carry Pset_DoorCommon.FireRating as an empty text: no door has a fire rating."""
    written = [ue.get_psets(d).get("Pset_DoorCommon", {}).get("FireRating") for d in fzk.model.by_type("IfcDoor")]
    assert "" in written and not any(isinstance(v, str) and v.strip() for v in written)
    r = refused(fzk.session(IN_KITCHEN), "get", target={"class": ["IfcDoor"]}, property="FireRating")
    assert "fire rating" in r.answer.lower()


def test_the_room_asked_in_the_user_s_room_is_that_room(fzk: Building) -> None:
    """{"class": ["IfcSpace"], "room": "mine"}: the room the user stands in ("how big is this room"), not the
    rooms in it (none)."""
    r = step(fzk.session(IN_KITCHEN), "get", target={"class": ["IfcSpace"], "room": "mine"}, property="area")
    assert r.ok and isinstance(r.value, float) and r.value > 0, r.answer
    s = fzk.session(IN_KITCHEN)
    room = step(s, "list", target={"class": ["IfcSpace"], "room": "mine"}).value
    assert len(room) == 1
    everything = step(s, "list", target={"room": "mine"})  # what is in it or bounds it, not the room itself
    assert everything.ok and room[0] not in everything.value and everything.value
