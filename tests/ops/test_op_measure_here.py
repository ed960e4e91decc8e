"""``measure_here``: ceiling height, width or length at the user's position, by rays."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_the_kitchen_ceiling_is_between_2_and_3_m(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    r = step(s, "measure_here", what="ceiling_height")
    assert r.ok and 2.0 < r.value < 3.0, r.answer
    width = step(s, "measure_here", what="width")
    assert width.ok and 1.0 < width.value < 8.0


def test_outside_there_is_no_ceiling(fzk: Building) -> None:
    refused(fzk.session((-20.0, -20.0, 1.6)), "measure_here", what="ceiling_height")
