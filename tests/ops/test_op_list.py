"""``list``: the elements a selector means, by name."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, step


def test_lists_the_rooms_of_the_ground_floor_by_name(fzk: Building) -> None:
    ground = {s.GlobalId for s in fzk.model.by_type("IfcSpace")
              if s.Decomposes and s.Decomposes[0].RelatingObject.Name == "Erdgeschoss"}
    r = step(fzk.session(IN_KITCHEN), "list", target={"class": ["IfcSpace"], "storey": "Erdgeschoss"})
    assert r.ok and set(r.value) == ground and len(ground) == 6
    assert r.answer.startswith("6 rooms:") and "Küche" in r.answer


def test_an_empty_list_says_what_was_not_found(fzk: Building) -> None:
    r = step(fzk.session(IN_KITCHEN), "list", target={"class": ["IfcRamp"]})
    assert r.ok and r.value == [] and r.answer
