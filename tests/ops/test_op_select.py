"""``select``: what "this" means afterwards; an empty list clears it."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_select_then_clear(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    r = step(s, "select", target={"class": ["IfcDoor"]})
    assert r.ok and set(s.executor.state.selected) == fzk.gids("IfcDoor")
    r = step(s, "select", target={"ids": []})
    assert r.ok and r.answer == "Selection cleared." and s.executor.state.selected == []


def test_selecting_nothing_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "select", target={"class": ["IfcRamp"]})
