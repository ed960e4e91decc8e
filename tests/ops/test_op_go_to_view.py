"""``go_to_view``: back to a remembered view."""

from __future__ import annotations

import pytest
from ops_support import IN_KITCHEN, IN_LIVING, Building, refused, step

from pyagent.model import Pose


def test_returns_to_the_remembered_pose(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN, yaw=30.0)
    assert step(s, "save_view", name="kitchen").ok
    s.set_pose(Pose.from_json({"position": list(IN_LIVING), "yaw": 0.0, "pitch": 0.0}))
    r = step(s, "go_to_view", name="kitchen")
    assert r.ok and r.answer == 'Back at the view "kitchen".'
    assert list(s.executor.state.pose.position) == pytest.approx(list(IN_KITCHEN))
    assert s.executor.state.pose.yaw == pytest.approx(30.0)


def test_an_unknown_view_is_refused_and_names_the_known_ones(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    assert step(s, "save_view", name="kitchen").ok
    r = refused(s, "go_to_view", name="garage")
    assert "garage" in r.answer and "kitchen" in r.answer
