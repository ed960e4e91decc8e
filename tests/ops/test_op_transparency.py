"""``transparency``: see-through or opaque, keeping the colour."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_see_through_keeps_a_painted_colour(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    assert step(s, "color", target={"class": ["IfcDoor"]}, rgba=[0, 1, 0, 1]).ok
    r = step(s, "transparency", target={"class": ["IfcDoor"]}, alpha=0.3)
    assert r.ok and r.answer.startswith("See-through:")
    assert all(c == [0.0, 1.0, 0.0, 0.3] for c in s.executor.state.colors.values())
    r = step(s, "transparency", target={"class": ["IfcDoor"]}, alpha=1.0)
    assert r.ok and r.answer.startswith("Opaque:")


def test_an_alpha_out_of_range_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "transparency", target={"class": ["IfcDoor"]}, alpha=1.5)
