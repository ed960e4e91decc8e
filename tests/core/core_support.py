"""Fixtures for the core tests: each shipped file is loaded once per test session (through the project
cache) and every test that changes state gets a fresh ``Session`` over the shared building."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import ifcopenshell
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from core_ifc_facts import DUPLEX, FZK, MINI  # noqa: E402

from pyagent.loader import LoadedBuilding, load  # noqa: E402
from pyagent.model import Pose  # noqa: E402
from pyagent.scenegraph import SceneGraph, build_scene_graph  # noqa: E402
from pyagent.session import Session  # noqa: E402
from pyagent.spatial import SpatialIndex  # noqa: E402


@dataclass
class Loaded:
    """One building loaded once: the model from ifcopenshell and pyagent's records, graph and index."""

    path: Path
    model: ifcopenshell.file
    loaded: LoadedBuilding
    graph: SceneGraph
    spatial: SpatialIndex

    def session(self) -> Session:
        return Session(self.loaded, self.graph, self.spatial)

    def gid(self, name: str, ifc_class: str = "IfcProduct") -> str:
        """GlobalId of the one element called ``name`` (Name or LongName), looked up in the IFC file."""
        found = [e.GlobalId for e in self.model.by_type(ifc_class)
                 if e.Name == name or getattr(e, "LongName", None) == name]
        assert len(found) == 1, f"{ifc_class} {name!r}: {len(found)} matches"
        return found[0]


def _load(path: Path) -> Loaded:
    lb = load(path)
    return Loaded(path, ifcopenshell.open(str(path)), lb, build_scene_graph(lb.building, lb.meshes),
                  SpatialIndex.build(lb.building, lb.meshes))


@pytest.fixture(scope="session")
def fzk() -> Loaded:
    return _load(FZK)


@pytest.fixture(scope="session")
def duplex() -> Loaded:
    return _load(DUPLEX)


@pytest.fixture(scope="session")
def mini() -> Loaded:
    """MiniProject (steel, no spaces): its first load takes a while, later ones come from the cache."""
    return _load(MINI)


def pose(x: float, y: float, z: float, yaw: float = 0.0, pitch: float = 0.0) -> Pose:
    return Pose.from_json({"position": [x, y, z], "yaw": yaw, "pitch": pitch})


@pytest.fixture
def ask() -> Callable[..., tuple[bool, object, str]]:
    """Run one query step for a session at a pose: (ok, value, answer)."""

    def run(session: Session, where: Pose, target: dict, op: str = "list") -> tuple[bool, object, str]:
        session.set_pose(where)
        r = session.do({"steps": [{"op": op, "target": target}]})
        return r.ok, r.value, r.answer

    return run
