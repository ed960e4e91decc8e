"""``where_am_i``: the room and storey the user stands in."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, step


def test_in_the_kitchen_on_the_ground_floor(fzk: Building) -> None:
    r = step(fzk.session(IN_KITCHEN), "where_am_i")
    assert r.ok and r.value.startswith("Küche") and "Erdgeschoss" in r.answer


def test_outside_the_house(fzk: Building) -> None:
    r = step(fzk.session((-20.0, -20.0, 1.6)), "where_am_i")
    assert r.ok and r.answer.startswith("You are not in a room")
