"""``move``: elements or props by a vector, or a distance in a direction."""

from __future__ import annotations

import pytest
from ops_support import IN_KITCHEN, Building, refused, step


def test_moves_a_door_half_a_metre_up(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    door = fzk.model.by_type("IfcDoor")[0].GlobalId
    r = step(s, "move", target={"ids": [door]}, direction="up", distance=0.5)
    assert r.ok and r.answer.startswith("Moved 0.50 m:")
    assert s.executor.state.transforms[door]["translation"] == pytest.approx([0.0, 0.0, 0.5])


def test_forward_is_the_way_the_user_faces(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN, yaw=90.0)  # facing +Y
    door = fzk.model.by_type("IfcDoor")[0].GlobalId
    assert step(s, "move", target={"ids": [door]}, direction="forward", distance=1.0).ok
    assert s.executor.state.transforms[door]["translation"] == pytest.approx([0.0, 1.0, 0.0], abs=1e-6)


def test_a_move_of_more_than_50_m_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "move", target={"class": ["IfcDoor"]}, delta=[60.0, 0.0, 0.0])
