"""``section``: a horizontal cut or a section box (replaces any section)."""

from __future__ import annotations

import pytest
from ops_support import IN_KITCHEN, Building, refused, step


def test_a_cut_at_1_2_m_above_the_users_floor(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    r = step(s, "section", mode="plane", height=1.2)
    assert r.ok and "1.20 m" in r.answer and "Erdgeschoss" in r.answer
    planes = s.executor.state.sections
    assert len(planes) == 1 and planes[0]["location"][2] == pytest.approx(1.2)
    assert step(s, "undo").ok and s.executor.state.sections == []


def test_a_box_around_the_kitchen_has_six_planes(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    r = step(s, "section", mode="box", target={"room": "Küche"})
    assert r.ok and len(s.executor.state.sections) == 6


def test_a_cut_below_the_building_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "section", mode="plane", height=-5.0)
