"""``reset_color``: the file's colour back."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_only_the_named_elements_lose_their_paint(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    assert step(s, "color", target={"class": ["IfcDoor", "IfcWindow"]}, rgba=[0, 0, 1, 1]).ok
    r = step(s, "reset_color", target={"class": ["IfcDoor"]})
    assert r.ok and r.answer.startswith("Restored the colour of 5 doors")
    assert set(s.executor.state.colors) == fzk.gids("IfcWindow")


def test_nothing_matched_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "reset_color", target={"class": ["IfcRamp"]})
