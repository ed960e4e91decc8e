"""``save_view``: remember the current view by name."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_remembers_the_pose_and_replaces_by_name(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN, yaw=45.0)
    r = step(s, "save_view", name="entrance")
    assert r.ok and r.answer == 'Remembered this view as "entrance".'
    view = s.executor.state.viewpoints["entrance"]
    assert view["pose"]["yaw"] == 45.0
    assert "replacing" in step(s, "save_view", name="Entrance").answer
    assert list(s.executor.state.viewpoints) == ["entrance"]


def test_an_empty_name_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "save_view", name="")
