"""``exists``: whether a selector means anything."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, step


def test_yes_for_the_stair_and_no_for_a_ramp(fzk: Building) -> None:
    assert fzk.model.by_type("IfcStair") and not fzk.model.by_type("IfcRamp")
    s = fzk.session(IN_KITCHEN)
    r = step(s, "exists", target={"class": ["IfcStair"]})
    assert r.ok and r.value is True and r.answer.startswith("Yes")
    r = step(s, "exists", target={"class": ["IfcRamp"]})
    assert r.ok and r.value is False and r.answer.startswith("No")
