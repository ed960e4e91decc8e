"""The area of a slab, a wall or a roof slab that records none: one face of it (a slab's top, a wall's side, a pitched
slab's slope), not half its whole surface, which counts its edges too (a 1,474 m² floor read as 1,542 m²)."""

from __future__ import annotations

import math

import ifcopenshell
import ifcopenshell.geom
import numpy as np
import pytest

from pyagent.language import evaluate as ev
from pyagent.loader import load
from pyagent.meshfacts import MeshFacts
from pyagent.tessellate import MeshSet


def _box(lo: tuple[float, float, float], hi: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    v = np.array([[x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0],
                  [x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]], np.float32)
    f = np.array([[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4],
                  [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]], np.int32)
    return v, f


def _pack(bodies: list[tuple[np.ndarray, np.ndarray]]) -> MeshSet:
    verts = np.concatenate([v for v, _ in bodies])
    faces = np.concatenate([f for _, f in bodies])
    vo = np.cumsum([0] + [len(v) for v, _ in bodies])
    fo = np.cumsum([0] + [len(f) for _, f in bodies])
    return MeshSet(ids=[f"e{i}" for i in range(len(bodies))], vert_offsets=vo, face_offsets=fo, verts=verts,
                   faces=faces, face_material=np.zeros(len(faces), np.int32),
                   materials=np.ones((1, 4), np.float32))


def _tilted(v: np.ndarray, deg: float) -> np.ndarray:
    t = math.radians(deg)
    turn = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]], np.float32)
    return (v @ turn.T).astype(np.float32)


def test_one_face_of_a_slab_a_wall_and_a_pitched_slab() -> None:
    slab = _box((0, 0, 0), (10, 4, 0.3))
    wall = _box((0, 0, 0), (6, 0.2, 2.5))
    pitched = (_tilted(_box((0, 0, 0), (8, 5, 0.25))[0], 35.0), _box((0, 0, 0), (8, 5, 0.25))[1])
    facts = MeshFacts.of(_pack([slab, wall, pitched]))
    assert facts.face_area[0] == pytest.approx(40.0, rel=1e-5)  # its top, not (80 + 8.4) / 2
    assert facts.area[0] / 2 == pytest.approx(44.2, rel=1e-5)
    assert facts.face_area[1] == pytest.approx(15.0, rel=1e-5)  # one side
    assert facts.face_area[2] == pytest.approx(40.0, rel=1e-5)  # its slope, more than its plan
    assert facts.footprint[2] < 40.0 * math.cos(math.radians(30))


def _top_area(shape: ifcopenshell.geom.ShapeType) -> float:
    v = np.array(shape.geometry.verts, float).reshape(-1, 3)
    f = np.array(shape.geometry.faces, int).reshape(-1, 3)
    cross = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    norms = np.linalg.norm(cross, axis=1)
    up = cross[:, 2] >= 0.95 * norms
    return 0.5 * float(norms[up].sum())


@pytest.mark.skipif(ev.real_dir() is None, reason="the shared real buildings are not beside this checkout")
def test_slabs_that_record_no_area_are_their_tops(tmp_path: object) -> None:
    real = ev.real_dir()
    assert real is not None
    path = real / "ifcsverchok_Facades.ifc"
    model = ifcopenshell.open(str(path))
    settings = ifcopenshell.geom.settings()
    settings.set("use-world-coords", True)
    tops = {s.GlobalId: _top_area(ifcopenshell.geom.create_shape(settings, s)) for s in model.by_type("IfcSlab")}
    assert tops and all(a > 0 for a in tops.values())
    building = load(path, cache=tmp_path, use_cache=False).building  # type: ignore[arg-type]
    for gid, top in tops.items():
        el = building.elements[gid]
        assert el.quantities["area"] == pytest.approx(top, rel=0.01), el.name
        assert el.quantities["surface_area"] / 2 > top * 1.02  # the old reading counted the edges
