"""``rotate``: turn elements about the vertical."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_two_quarter_turns_add_up_and_wrap(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    door = fzk.model.by_type("IfcDoor")[0].GlobalId
    r = step(s, "rotate", target={"ids": [door]}, degrees=90)
    assert r.ok and r.answer.startswith("Rotated 90°:")
    assert step(s, "rotate", target={"ids": [door]}, degrees=180).ok
    assert s.executor.state.transforms[door]["rotation_deg"][2] == -90.0


def test_rotating_nothing_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "rotate", target={"class": ["IfcRamp"]}, degrees=90)
