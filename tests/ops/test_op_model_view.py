"""``model_view``: the building as a table-top model, and back."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_table_and_back(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    r = step(s, "model_view", mode="table")
    scale = s.executor.state.view_scale
    assert r.ok and scale is not None and 0 < scale["scale"] < 0.2
    assert step(s, "model_view", mode="full").ok and s.executor.state.view_scale is None


def test_full_size_when_already_full_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "model_view", mode="full")
