"""``turn``: the user by an angle, positive to the left."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, step


def test_left_right_and_around(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN, yaw=0.0)
    r = step(s, "turn", degrees=90)
    assert r.ok and r.answer == "Turned 90° left." and s.executor.state.pose.yaw == 90.0
    assert step(s, "turn", degrees=-30).answer == "Turned 30° right."
    assert step(s, "turn", degrees=180).answer == "Turned around."
    assert s.executor.state.pose.yaw == -120.0
