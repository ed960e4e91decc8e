"""``clear_section``: the whole building again."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_removes_the_cut(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    assert step(s, "section", mode="plane", height=1.0).ok
    r = step(s, "clear_section")
    assert r.ok and s.executor.state.sections == [] and r.answer.startswith("Removed the section")


def test_nothing_to_remove_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "clear_section")
