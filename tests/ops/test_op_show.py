"""``show``: show hidden elements again."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_shows_only_what_it_is_asked_to(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    assert step(s, "hide", target={"class": ["IfcDoor", "IfcWindow"]}).ok
    r = step(s, "show", target={"class": ["IfcDoor"]})
    assert r.ok and s.executor.state.hidden == fzk.gids("IfcWindow")
    assert r.answer.startswith("Showing 5 doors")


def test_an_unknown_id_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "show", target={"ids": ["0000000000000000000000"]})
