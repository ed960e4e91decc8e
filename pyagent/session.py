"""A session: one building, its authoritative state, and the ways in (say, do, select, pose)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyagent.actions.executor import ExecResult, Executor
from pyagent.actions.state import SceneState
from pyagent.loader import LoadedBuilding, load
from pyagent.model import Building, Pose
from pyagent.scenegraph import SceneGraph, build_scene_graph
from pyagent.spatial import SpatialIndex


@dataclass
class Result:
    """The outcome of one request, as the scripted-session contract prints it."""

    ok: bool
    program: dict[str, Any] | None
    answer: str
    value: Any = None
    error: str | None = None
    source: str = ""  # "parser", "llm", "program"
    timings: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "program": self.program, "answer": self.answer, "value": self.value,
                "error": self.error}


class Session:
    def __init__(self, loaded: LoadedBuilding, graph: SceneGraph, spatial: SpatialIndex) -> None:
        self.loaded = loaded
        self.building: Building = loaded.building
        self.graph = graph
        self.spatial = spatial
        self.scene = SceneState()
        self.executor = Executor(self.building, graph, spatial, self.scene)
        self.revision = 0
        self._front: Any = None
        self.scene.pose = self.default_pose()

    @classmethod
    def open(cls, path: str | Path, cache: Path | None = None, use_cache: bool = True) -> Session:
        loaded = load(path, cache=cache, use_cache=use_cache)
        graph = build_scene_graph(loaded.building, loaded.meshes)
        spatial = SpatialIndex.build(loaded.building, loaded.meshes)
        return cls(loaded, graph, spatial)

    @property
    def glb_path(self) -> Path:
        return self.loaded.glb_path

    def default_pose(self) -> Pose:
        """Standing in the largest room of the ground floor, or at the building's centre."""
        b = self.building
        rooms = [s for s in b.spaces() if s.storey == b.ground_storey] or b.spaces()
        if rooms:
            room = max(rooms, key=lambda s: s.quantities.get("area", 0.0))
            p = self.executor._room_point(room.id)
            p[2] = float(room.bbox_min[2]) + 1.6
            return Pose(p, 0.0, 0.0)
        products = b.products()
        if products:
            import numpy as np

            c = np.mean([e.centre for e in products], axis=0)
            storey = b.storey(b.ground_storey)
            c[2] = (storey.elevation if storey else 0.0) + 1.6
            return Pose(c, 0.0, 0.0)
        return Pose()

    # ---- the ways in ----------------------------------------------------------------------
    def set_pose(self, pose: Pose) -> None:
        self.scene.pose = pose

    def select(self, ids: list[str]) -> Result:
        unknown = [g for g in ids if g not in self.building.elements]
        if unknown:
            return Result(False, None, f"I don't know the element {unknown[0]}.", None,
                          f"unknown element id {unknown[0]}")
        self.scene.selected = list(ids)
        if ids:
            self.executor.last_ids = list(ids)
        self.revision += 1
        return Result(True, None, "Selected." if ids else "Selection cleared.")

    def do(self, program: Any, source: str = "program") -> Result:
        t = time.perf_counter()
        r: ExecResult = self.executor.run(program)
        if r.changed:
            self.revision += 1
        return Result(r.ok, program if isinstance(program, dict) else None, r.answer, r.value, r.error, source,
                      {"execute": time.perf_counter() - t})

    def say(self, text: str) -> Result:
        front = self.front_end()
        if front is None:
            return Result(False, None, "I can't understand speech or text yet.", None,
                          "the language front end is not available")
        return front.handle(self, text)

    def front_end(self) -> Any:
        if self._front is None:
            try:
                from pyagent.language.front import FrontEnd
            except ImportError:
                return None
            self._front = FrontEnd(self)
        return self._front

    @property
    def pose(self) -> Pose:
        return self.scene.pose

    def state(self) -> dict[str, Any]:
        """The scene state of DESIGN.md: every difference from the file as loaded, IFC frame."""
        return self.scene.to_json()
