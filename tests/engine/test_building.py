"""The shipped house's glb, loaded by the engine, has exactly the agent's elements, each with the box of its
own triangles (repeated geometry is drawn through shared meshes turned by the element's node)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from engine_support import REPO, assert_passed, run_scene_test

from pyagent.frames import ifc_to_godot

pytestmark = pytest.mark.godot


def _ifc(name: str) -> Path:
    from pyagent.language.evaluate import real_dir

    if name.startswith("real/"):
        real = real_dir()
        if real is None or not (real / name[5:]).is_file():
            pytest.skip(f"no shared real file {name}")
        return real / name[5:]
    return REPO / "ifc" / name


@pytest.mark.parametrize("ifc", ["AC20-FZK-Haus.ifc", "duplex.ifc", "real/tekla_TOYO_INK_Legkezelo.ifc"])
def test_glb_nodes_are_the_agents_elements(godot: list[str], tmp_path: Path, ifc: str) -> None:
    from pyagent.glb import read_glb
    from pyagent.session import Session

    session = Session.open(str(_ifc(ifc)))
    try:
        drawn = [e for e in session.building.elements.values() if e.has_geometry and e.ifc_class != "IfcSpace"]
        glb = session.glb_path
        meshes = session.loaded.meshes
    finally:
        session.close()
    boxes = {}
    for i, gid in enumerate(meshes.ids):
        v, f, _ = meshes.element(i)
        g = ifc_to_godot(v[np.unique(f)])
        boxes[gid] = [float(c) for c in (*g.min(axis=0), *g.max(axis=0))]
    doc, _ = read_glb(glb)
    assert len(doc["meshes"]) < len(drawn)  # repeats share meshes
    ids = sorted(e.id for e in drawn)
    assert len(ids) > 50
    corners = np.array([[e.bbox_min, e.bbox_max] for e in drawn])
    lo, hi = ifc_to_godot(corners.min(axis=(0, 1))), ifc_to_godot(corners.max(axis=(0, 1)))
    box = [*np.minimum(lo, hi), *np.maximum(lo, hi)]
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps({"ids": ids, "bbox_godot": [float(v) for v in box],
                                    "boxes": {gid: boxes[gid] for gid in ids}, "meshes": len(doc["meshes"])}))
    proc = run_scene_test("tests/godot/test_building.gd", ["--glb", str(glb), "--expected", str(expected)])
    assert_passed(proc)
