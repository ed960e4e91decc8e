"""``hide``: hide elements (undoable)."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_hides_exactly_the_doors_and_undo_shows_them(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    r = step(s, "hide", target={"class": ["IfcDoor"]})
    assert r.ok and s.executor.state.hidden == fzk.gids("IfcDoor")
    assert r.answer == "Hid 5 doors."
    assert step(s, "undo").ok and s.executor.state.hidden == set()


def test_hiding_what_is_not_there_changes_nothing(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "hide", target={"class": ["IfcDoor"], "name": "garage door"})


def test_the_refusal_names_the_storey_as_the_building_does(fzk: Building) -> None:
    r = refused(fzk.session(IN_KITCHEN), "hide", target={"class": ["IfcRamp"], "storey": "mine"})
    assert "on Erdgeschoss" in r.answer and "mine" not in r.answer
