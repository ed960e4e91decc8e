"""``color``: paint elements."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_paints_the_doors_red(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    r = step(s, "color", target={"class": ["IfcDoor"]}, rgba=[1, 0, 0, 1])
    assert r.ok and r.answer == "Coloured 5 doors."
    assert set(s.executor.state.colors) == fzk.gids("IfcDoor")
    assert all(c == [1.0, 0.0, 0.0, 1.0] for c in s.executor.state.colors.values())


def test_a_colour_out_of_range_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "color", target={"class": ["IfcDoor"]}, rgba=[2, 0, 0, 1])
