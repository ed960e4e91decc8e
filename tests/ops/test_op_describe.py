"""``describe``: what an element is: type, room, storey, size, materials."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_a_door_is_described_with_its_storey_and_size(fzk: Building) -> None:
    door = fzk.model.by_type("IfcDoor")[0]
    r = step(fzk.session(IN_KITCHEN), "describe", target={"ids": [door.GlobalId]})
    assert r.ok and r.value.startswith(door.Name)
    assert door.ContainedInStructure[0].RelatingStructure.Name in r.answer
    assert "height" in r.answer and " m" in r.answer


def test_describing_nothing_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "describe", target={"class": ["IfcRamp"]})
