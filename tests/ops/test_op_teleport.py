"""``teleport``: the user to a room, storey, element or position, standing on a floor."""

from __future__ import annotations

import ifcopenshell
import pytest
from ops_support import IN_KITCHEN, Building, refused, step

from pyagent.language.evaluate import BUILDINGS_DIR
from pyagent.loader import load
from pyagent.model import Pose
from pyagent.scenegraph import build_scene_graph
from pyagent.session import Session
from pyagent.spatial import EYE_HEIGHT, SpatialIndex


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


def test_a_room_drawn_several_times_over_stands_one_in_its_clear_middle() -> None:
    """The Dutch gym's sports hall is three overlapping spaces, one of them drawn out to the walls' outer
    faces: each copy stands the user in the hall, clear of walls, under its 6 m ceiling (ifcopenshell:
    'Compound Ceiling:45_BC_verlaagd plafond' at z 6.00 over x -8.46..11.08, y 0.36..24.43), not in the
    strip that only the widest copy holds, inside a wall under a 3.4 m wall top."""
    path = BUILDINGS_DIR / "revit2020nld_gymzaal-hambakendreef.ifc"
    model = ifcopenshell.open(str(path))
    halls = [s.GlobalId for s in model.by_type("IfcSpace") if (s.LongName or s.Name or "").lower() == "gymzaal"]
    assert len(halls) == 3
    lb = load(path)
    graph, spatial = build_scene_graph(lb.building, lb.meshes), SpatialIndex.build(lb.building, lb.meshes)
    for hall in halls:
        s = Session(lb, graph, spatial)
        s.set_pose(Pose.from_json({"position": [3.0, 35.0, 1.6], "yaw": 0.0, "pitch": 0.0}))
        assert step(s, "teleport", target={"class": ["IfcSpace"], "ids": [hall]}).ok
        x, y, _ = s.executor.state.pose.position
        assert -8.46 < x < 11.08 and 0.36 < y < 24.43
        assert step(s, "measure_here", what="ceiling_height").value == pytest.approx(6.0, abs=0.02), hall
