"""``group``: counts per storey or per room, the most and the fewest, ties answered honestly; reference
counts from the file's containment and space boundaries (ifcopenshell), not from pyagent."""

from __future__ import annotations

from collections import Counter

import ifcopenshell.util.element as ue
from ops_support import IN_KITCHEN, Building, refused, step


def _per_storey(b: Building, ifc_class: str) -> Counter[str]:
    counts: Counter[str] = Counter({s.GlobalId: 0 for s in b.model.by_type("IfcBuildingStorey")})
    for el in b.model.by_type(ifc_class):
        container = ue.get_container(el)
        if container is not None:
            counts[container.GlobalId] += 1
    return counts


def test_the_floor_with_the_most_windows(fzk: Building) -> None:
    counts = _per_storey(fzk, "IfcWindow")
    (top, n), (_, second) = counts.most_common(2)
    assert n > second
    r = step(fzk.session(IN_KITCHEN), "group", target={"class": ["IfcWindow"]}, by="storey", pick="most")
    assert r.ok and r.value == [top]
    assert fzk.model.by_guid(top).Name in r.answer and f": {n}" in r.answer


def test_per_storey_counts_without_pick(fzk: Building) -> None:
    counts = _per_storey(fzk, "IfcWindow")
    r = step(fzk.session(IN_KITCHEN), "group", target={"class": ["IfcWindow"]}, by="storey")
    assert r.ok and r.value == {fzk.model.by_guid(g).Name: n for g, n in counts.items()}


def _doors_per_room(b: Building) -> Counter[str]:
    """Doors by the spaces whose boundaries name them (a door between two rooms counts for both)."""
    counts: Counter[str] = Counter({s.GlobalId: 0 for s in b.model.by_type("IfcSpace")})
    seen: set[tuple[str, str]] = set()
    for rel in b.model.by_type("IfcRelSpaceBoundary"):
        el = rel.RelatedBuildingElement
        if el is not None and el.is_a("IfcDoor") and rel.RelatingSpace is not None:
            seen.add((rel.RelatingSpace.GlobalId, el.GlobalId))
    for space, _door in seen:
        counts[space] += 1
    return counts


def test_the_room_with_the_most_doors(fzk: Building) -> None:
    counts = _doors_per_room(fzk)
    best = max(counts.values())
    winners = {g for g, n in counts.items() if n == best}
    r = step(fzk.session(IN_KITCHEN), "group", target={"class": ["IfcDoor"]}, by="room", pick="most")
    assert r.ok and set(r.value) == winners
    assert all(fzk.model.by_guid(g).LongName in r.answer for g in winners)


def test_ties_are_all_named(fzk: Building) -> None:
    # Windows per room: several rooms share the most; every one of them is the answer.
    r = step(fzk.session(IN_KITCHEN), "group", target={"class": ["IfcWindow"]}, by="room")
    best = max(r.value.values())
    tied = [name for name, n in r.value.items() if n == best]
    assert len(tied) > 1
    r = step(fzk.session(IN_KITCHEN), "group", target={"class": ["IfcWindow"]}, by="room", pick="most")
    assert r.ok and len(r.value) == len(tied) and "tie" in r.answer


def test_the_fewest_can_be_none(duplex: Building) -> None:
    counts = _per_storey(duplex, "IfcWindow")
    low = min(counts.values())
    r = step(duplex.session(), "group", target={"class": ["IfcWindow"]}, by="storey", pick="fewest")
    assert r.ok and set(r.value) == {g for g, n in counts.items() if n == low}


def test_nothing_to_compare_is_refused(fzk: Building) -> None:
    assert not fzk.model.by_type("IfcColumn")
    refused(fzk.session(IN_KITCHEN), "group", target={"class": ["IfcColumn"]}, by="storey", pick="fewest")
