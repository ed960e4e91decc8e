"""Shared set-up for the per-op tests (tests/ops/test_op_<op>.py): each shipped file is loaded once, every
test gets a fresh ``Session`` over it; reference facts come from ifcopenshell, not from pyagent."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ifcopenshell
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pyagent.loader import LoadedBuilding, load  # noqa: E402
from pyagent.model import Pose  # noqa: E402
from pyagent.scenegraph import SceneGraph, build_scene_graph  # noqa: E402
from pyagent.session import Result, Session  # noqa: E402
from pyagent.spatial import SpatialIndex  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FZK = ROOT / "ifc" / "AC20-FZK-Haus.ifc"
DUPLEX = ROOT / "ifc" / "duplex.ifc"
# Standing in rooms of the house (eye 1.6 m above the ground floor at 0 m), facing +X.
IN_KITCHEN = (2.5, 2.2, 1.6)
IN_LIVING = (8.2, 2.2, 1.6)


@dataclass
class Building:
    """One shipped file loaded once: ifcopenshell's model (the reference) and pyagent's records."""

    path: Path
    model: ifcopenshell.file
    loaded: LoadedBuilding
    graph: SceneGraph
    spatial: SpatialIndex

    def session(self, at: tuple[float, float, float] | None = None, yaw: float = 0.0) -> Session:
        s = Session(self.loaded, self.graph, self.spatial)
        if at is not None:
            s.set_pose(Pose.from_json({"position": list(at), "yaw": yaw, "pitch": 0.0}))
        return s

    def gids(self, ifc_class: str) -> set[str]:
        return {e.GlobalId for e in self.model.by_type(ifc_class)}

    def space(self, long_name: str) -> str:
        found = [e.GlobalId for e in self.model.by_type("IfcSpace") if e.LongName == long_name]
        assert len(found) == 1, long_name
        return found[0]


def _load(path: Path) -> Building:
    lb = load(path)
    return Building(path, ifcopenshell.open(str(path)), lb, build_scene_graph(lb.building, lb.meshes),
                    SpatialIndex.build(lb.building, lb.meshes))


@pytest.fixture(scope="session")
def fzk() -> Building:
    return _load(FZK)


@pytest.fixture(scope="session")
def duplex() -> Building:
    return _load(DUPLEX)


def step(s: Session, op: str, **args: Any) -> Result:
    """Run one step as a whole program."""
    return s.do({"steps": [{"op": op, **args}]})


def refused(s: Session, op: str, **args: Any) -> Result:
    """Run a step that must be refused: not ok, a reason for the user, nothing changed (state and pose)."""
    before = s.state()
    r = step(s, op, **args)
    assert not r.ok and r.answer, r
    assert s.state() == before
    return r
