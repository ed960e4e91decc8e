"""``teleport``: the user to a room, storey, element or position, standing on a floor."""

from __future__ import annotations

import pytest
from ops_support import IN_KITCHEN, Building, refused, step

from pyagent.spatial import EYE_HEIGHT


def test_into_the_gallery_upstairs(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    r = step(s, "teleport", target={"room": "Galerie"})
    assert r.ok and r.answer.startswith("You are now in") and "Galerie" in r.answer
    gallery = s.building.elements[fzk.space("Galerie")]
    p = s.executor.state.pose.position
    assert p[2] == pytest.approx(float(gallery.bbox_min[2]) + EYE_HEIGHT, abs=1e-3)
    assert step(s, "where_am_i").value.startswith("Galerie")
    assert step(s, "undo").ok and s.executor.state.pose.position[2] == pytest.approx(1.6)


def test_to_a_position_stands_on_the_floor_there(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    assert step(s, "teleport", position=[8.2, 2.2, 0.0]).ok
    assert step(s, "where_am_i").value.startswith("Wohnen")


def test_no_floor_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "teleport", position=[-40.0, -40.0, 0.0])
