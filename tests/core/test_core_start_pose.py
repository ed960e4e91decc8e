"""The start pose stands inside the building's geometry: within the plan extent of the bodies and
between their lowest and highest points (at eye height over a floor), never at the placement of
bodiless spatial elements at the file's origin. Shipped files always, the real ones when present."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pyagent.ifcfile import IfcLoadError
from pyagent.session import Session

ROOT = Path(__file__).resolve().parents[2]
REAL = next((p / "shared" / "ifc" / "real" for p in ROOT.parents if (p / "shared" / "ifc" / "real").is_dir()),
            ROOT / "shared" / "ifc" / "real")
RESERVED = ("Office_A_20110811.ifc", "AC11-Institute-Var-2-IFC.ifc")  # benchmark files: never opened here
SHIPPED = sorted((ROOT / "ifc").glob("*.ifc"))
REAL_FILES = sorted(p for p in REAL.glob("*.ifc") if p.name not in RESERVED) if REAL.is_dir() else []


def _check_start_pose(path: Path) -> None:
    try:
        session = Session.open(path, journal_dir=False)
    except IfcLoadError as e:  # a schema ifcopenshell does not read (IFC2X, IFC4X3_RC2): nothing to stand in
        pytest.skip(str(e))
    try:
        b = session.building
        bodies = [e for e in b.products() if e.has_geometry]
        if not bodies:
            pytest.skip(f"{path.name}: no element with a body")
        lo = np.min([e.bbox_min for e in bodies], axis=0)
        hi = np.max([e.bbox_max for e in bodies], axis=0)
        pos = session.scene.pose.position
        assert np.all(np.isfinite(pos)), pos
        assert np.all(pos[:2] >= lo[:2]) and np.all(pos[:2] <= hi[:2]), (path.name, pos, lo, hi)
        assert lo[2] <= pos[2] <= hi[2] + 1.6, (path.name, pos, lo, hi)
        # Standing on something: the eye is 1.6 m over a floor (a room's, a slab's or the ground storey's).
        rooms = [s for s in b.spaces() if s.storey == b.ground_storey] or b.spaces()
        if rooms:
            room = max(rooms, key=lambda s: s.quantities.get("area", 0.0))
            assert abs(pos[2] - (float(room.bbox_min[2]) + 1.6)) < 1e-6, (path.name, pos)
            assert np.all(pos[:2] >= room.bbox_min[:2] - 1e-6) and np.all(pos[:2] <= room.bbox_max[:2] + 1e-6)
    finally:
        session.close()


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_the_start_pose_of_a_shipped_file_is_inside_it(path: Path) -> None:
    _check_start_pose(path)


@pytest.mark.skipif(not REAL_FILES, reason="needs ../shared/ifc/real/")
@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: p.name)
def test_the_start_pose_of_a_real_file_is_inside_it(path: Path) -> None:
    _check_start_pose(path)
