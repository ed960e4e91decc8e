"""The authoritative scene state (every difference from the file as loaded) with undo and redo."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from pyagent.model import Pose


def json_copy(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, scalars; tuples become lists): several times faster
    than ``copy.deepcopy``, which the state is copied with on every request."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_copy(v) for v in value]
    return value


def _copy_entries(entries: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A copy of transforms (GlobalId -> {translation: vec3, rotation_deg: vec3}): the schema makes every
    entry a flat object of numbers and number lists, so one comprehension per entry does."""
    return {g: {k: v[:] if type(v) is list else json_copy(v) for k, v in e.items()} for g, e in entries.items()}


def _copy_props(props: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of the props ({id, asset, position: vec3, yaw}: flat, as for transforms)."""
    return [{k: v[:] if type(v) is list else json_copy(v) for k, v in p.items()} for p in props]


@dataclass
class SceneState:
    hidden: set[str] = field(default_factory=set)
    colors: dict[str, list[float]] = field(default_factory=dict)
    transforms: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    deleted: set[str] = field(default_factory=set)
    props: list[dict[str, Any]] = field(default_factory=list)
    pose: Pose = field(default_factory=Pose)
    selected: list[str] = field(default_factory=list)
    #: The active section: clipping planes ``{"location", "direction"}`` (direction points at what is cut away).
    sections: list[dict[str, list[float]]] = field(default_factory=list)
    #: Remembered views by name: ``{"pose", "sections"}``.
    viewpoints: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The sun study (schema ``engine_sun``), or None for the neutral default light.
    sun: dict[str, Any] | None = None
    #: The scale-model view (schema ``engine_view_scale``), or None at full size.
    view_scale: dict[str, Any] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> SceneState:
        # Every request copies the state (the executor's scratch copy): plain containers, copied directly.
        return SceneState(set(self.hidden), {k: list(v) for k, v in self.colors.items()},
                          _copy_entries(self.transforms), set(self.deleted), _copy_props(self.props),
                          copy.deepcopy(self.pose, memo), list(self.selected), json_copy(self.sections),
                          json_copy(self.viewpoints), json_copy(self.sun), json_copy(self.view_scale))

    def to_json(self) -> dict[str, Any]:
        return {
            "hidden": sorted(self.hidden),
            "colors": {k: [float(c) for c in v] for k, v in sorted(self.colors.items())},
            "transforms": _copy_entries(dict(sorted(self.transforms.items()))),
            "deleted": sorted(self.deleted),
            "props": _copy_props(self.props),
            "pose": self.pose.to_json(),
            "selected": list(self.selected),
            "sections": json_copy(self.sections),
            "viewpoints": {k: json_copy(v) for k, v in sorted(self.viewpoints.items())},
            "sun": json_copy(self.sun),
            "view_scale": json_copy(self.view_scale),
        }

    def edits(self) -> dict[str, Any]:
        """The undoable part (everything but the pose)."""
        data = self.to_json()
        data.pop("pose")
        return data

    def restore_edits(self, data: dict[str, Any]) -> None:
        self.hidden = set(data["hidden"])
        self.colors = {k: list(v) for k, v in data["colors"].items()}
        self.transforms = _copy_entries(data["transforms"])
        self.deleted = set(data["deleted"])
        self.props = _copy_props(data["props"])
        self.selected = list(data["selected"])
        # Review keys came later: snapshots and journals written before them lack them.
        self.sections = json_copy(data.get("sections", []))
        self.viewpoints = json_copy(data.get("viewpoints", {}))
        self.sun = json_copy(data.get("sun"))
        self.view_scale = json_copy(data.get("view_scale"))


@dataclass
class Snapshot:
    edits: dict[str, Any]
    pose: dict[str, Any] | None  # set when the undone change moved the user
    label: str


@dataclass
class History:
    """Undo/redo stacks of snapshots taken before each applied change program."""

    undo: list[Snapshot] = field(default_factory=list)
    redo: list[Snapshot] = field(default_factory=list)
    limit: int = 200

    def push(self, snap: Snapshot) -> None:
        self.undo.append(snap)
        del self.undo[:-self.limit]
        self.redo.clear()
