"""``move_section``: the cut (or the box's top) up or down."""

from __future__ import annotations

import pytest
from ops_support import IN_KITCHEN, Building, refused, step


def test_moves_the_cut_up_half_a_metre(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    assert step(s, "section", mode="plane", height=1.2).ok
    r = step(s, "move_section", by=0.5)
    assert r.ok and "50 cm" in r.answer
    assert s.executor.state.sections[0]["location"][2] == pytest.approx(1.7)


def test_without_a_section_it_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "move_section", by=0.5)
