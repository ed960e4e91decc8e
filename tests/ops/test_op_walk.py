"""``walk``: the user steps relative to their heading, stays on the floor, keeps the heading; walls on the way
are named; undo puts them back."""

from __future__ import annotations

import math

import numpy as np
import pytest
from ops_support import IN_KITCHEN, Building, refused, step

from pyagent.spatial import EYE_HEIGHT


@pytest.mark.parametrize(("yaw", "direction", "distance", "angle"), [
    (0.0, "forward", 2.0, 0.0), (90.0, "forward", 1.5, 90.0), (0.0, "back", 0.5, 180.0),
    (30.0, "left", 1.0, 120.0), (30.0, "right", 1.0, -60.0)])
def test_steps_go_along_the_heading(fzk: Building, yaw: float, direction: str, distance: float,
                                    angle: float) -> None:
    s = fzk.session(IN_KITCHEN, yaw=yaw)
    r = step(s, "walk", direction=direction, distance=distance)
    assert r.ok, r
    p = s.executor.state.pose
    a = math.radians(angle)
    expected = np.array(IN_KITCHEN[:2]) + distance * np.array([math.cos(a), math.sin(a)])
    assert p.position[:2] == pytest.approx(expected, abs=1e-6)
    assert p.position[2] == pytest.approx(IN_KITCHEN[2]) and p.yaw == pytest.approx(yaw)


def test_default_is_one_metre_and_undo_returns(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    assert step(s, "walk", direction="forward").ok
    assert s.executor.state.pose.position[0] == pytest.approx(IN_KITCHEN[0] + 1.0)
    assert step(s, "undo").ok and s.executor.state.pose.position[0] == pytest.approx(IN_KITCHEN[0])


def test_a_wall_on_the_way_is_named(fzk: Building) -> None:
    # Five metres back from the kitchen is outside the house, through its outer wall.
    s = fzk.session(IN_KITCHEN)
    r = step(s, "walk", direction="back", distance=5.0)
    assert r.ok and "through" in r.answer
    walls = {w.Name for w in fzk.model.by_type("IfcWall")}
    assert any(name in r.answer for name in walls)


def test_upstairs_into_thin_air_is_refused(fzk: Building) -> None:
    gallery = fzk.session(IN_KITCHEN).building.elements[fzk.space("Galerie")]
    eye = float(gallery.bbox_min[2]) + EYE_HEIGHT
    # From inside the gallery, 30 m out of the house: no floor there on the upper storey.
    start = (float(gallery.centre[0]), float(gallery.centre[1]), eye)
    refused(fzk.session(start), "walk", direction="forward", distance=30.0)
