"""The shipped house's glb, loaded by the engine, has exactly the agent's elements."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from engine_support import REPO, assert_passed, run_scene_test

from pyagent.frames import ifc_to_godot

pytestmark = pytest.mark.godot


@pytest.mark.parametrize("ifc", ["AC20-FZK-Haus.ifc", "duplex.ifc"])
def test_glb_nodes_are_the_agents_elements(godot: list[str], tmp_path: Path, ifc: str) -> None:
    from pyagent.session import Session

    session = Session.open(str(REPO / "ifc" / ifc))
    try:
        drawn = [e for e in session.building.elements.values() if e.has_geometry and e.ifc_class != "IfcSpace"]
        glb = session.glb_path
    finally:
        session.close()
    ids = sorted(e.id for e in drawn)
    assert len(ids) > 50
    corners = np.array([[e.bbox_min, e.bbox_max] for e in drawn])
    lo, hi = ifc_to_godot(corners.min(axis=(0, 1))), ifc_to_godot(corners.max(axis=(0, 1)))
    box = [*np.minimum(lo, hi), *np.maximum(lo, hi)]
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps({"ids": ids, "bbox_godot": [float(v) for v in box]}))
    proc = run_scene_test("tests/godot/test_building.gd", ["--glb", str(glb), "--expected", str(expected)])
    assert_passed(proc)
