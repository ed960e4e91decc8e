"""The executor: validates a whole program, runs it on a scratch copy of the state, and commits only
when every step succeeded (a failing program changes nothing). Undo/redo of every change.

Each op is its own module under :mod:`pyagent.actions.ops` (the use case and its docstring); this module
is the orchestration around them: validation, the scratch copy, commit or rollback, history, dispatch,
and the few lookups every op shares (targets, labels, centres).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pyagent.actions import ops
from pyagent.actions.bounds import Bounds
from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say
from pyagent.actions.schema import schema_errors
from pyagent.actions.selectors import Context, Resolver, SelectionError, noun_for, resolve_room
from pyagent.actions.state import History, SceneState, Snapshot
from pyagent.language.wording import Glossary, change_words
from pyagent.model import Building, Pose
from pyagent.props import PROPS
from pyagent.scenegraph import SceneGraph
from pyagent.spatial import SpatialIndex

__all__ = ["CAMERA_OPS", "HISTORY_OPS", "QUERY_OPS", "ExecResult", "Executor", "StepError"]

QUERY_OPS = ops.QUERY_OPS
CAMERA_OPS = ops.CAMERA_OPS
HISTORY_OPS = ("undo", "redo")


@dataclass
class ExecResult:
    ok: bool
    answer: str
    value: Any = None
    error: str | None = None
    changed: bool = False
    referenced: list[str] = field(default_factory=list)


class Executor:
    """Runs programs against the authoritative state of one building."""

    def __init__(self, building: Building, graph: SceneGraph, spatial: SpatialIndex, state: SceneState) -> None:
        self.building = building
        self.graph = graph
        self.spatial = spatial
        self.state = state
        self.bounds = Bounds.of(building)
        self.history = History()
        self.last_ids: list[str] = []
        self.saver: Callable[[SceneState], str] | None = None
        self.noter: Callable[[str, list[str], SceneState], str] | None = None
        self.exporter: Callable[[], str] | None = None
        self._glossary: Glossary | None = None

    # ---- public ---------------------------------------------------------------------------
    def run(self, program: Any) -> ExecResult:
        errors = schema_errors(program)
        if errors:
            return ExecResult(False, "I could not understand that request.", None,
                              "invalid program: " + "; ".join(errors))
        steps = program["steps"]
        history_ops = [s["op"] for s in steps if s["op"] in HISTORY_OPS]
        if history_ops and len(steps) > 1:
            return ExecResult(False, "Undo and redo must be asked for on their own.", None,
                              "undo/redo cannot be combined with other steps")
        if history_ops:
            return self._history(steps[0])
        scratch = copy.deepcopy(self.state)
        ctx = Context(self.building, self.graph, self.spatial, scratch, list(self.last_ids))
        answers: list[str] = []
        last_query_value: Any = None
        referenced: list[str] = []
        changed_pose = False
        for i, step in enumerate(steps):
            try:
                value, answer, refs = self._step(ctx, step)
            except (SelectionError, StepError) as exc:
                return ExecResult(False, str(exc), None, f"step {i} ({step['op']}): {exc}")
            ctx.step_values.append(value)
            if refs:
                referenced = refs
                ctx.last_ids = refs
            if step["op"] in QUERY_OPS:
                last_query_value = value
            if step["op"] in CAMERA_OPS:
                changed_pose = True
            answers.append(answer)
        for index, run in ctx.pending:  # files and notes, only once the whole program has succeeded
            try:
                answers[index] = run()
            except (StepError, OSError, ValueError) as exc:
                return ExecResult(False, str(exc), None, f"step {index} ({steps[index]['op']}): {exc}")
        before = self.state.edits()
        after = scratch.edits()
        edits_changed = before != after
        pose_changed = changed_pose and scratch.pose.to_json() != self.state.pose.to_json()
        if edits_changed or pose_changed:
            self.history.push(Snapshot(before, self.state.pose.to_json() if pose_changed else None,
                                       ", ".join(s["op"] for s in steps)))
        self.state.restore_edits(after)
        self.state.pose = scratch.pose
        if referenced:
            self.last_ids = referenced
        for step in steps:  # "is this wall load-bearing?": the answer names the things it lists itself
            earlier = (step.get("target") or {}).get("step") if step["op"] == "exists" else None
            if isinstance(earlier, int) and earlier < len(answers) and steps[earlier]["op"] == "list":
                answers[earlier] = ""
        answer = self.glossary().explain(" ".join(a for a in answers if a) or "Done.")
        return ExecResult(True, answer, last_query_value, None, edits_changed or pose_changed, referenced)

    def glossary(self) -> Glossary:
        """Names of this building said with their everyday meaning in answers ("Küche (kitchen)")."""
        if self._glossary is None:
            self._glossary = Glossary.of(self.building)
        return self._glossary

    def peek(self, selector: dict[str, Any]) -> list[str]:
        """The elements a selector means now, without touching state or dialogue memory."""
        ctx = Context(self.building, self.graph, self.spatial, copy.deepcopy(self.state), list(self.last_ids))
        try:
            return Resolver(ctx).resolve(selector)
        except SelectionError:
            return []

    # ---- history --------------------------------------------------------------------------
    def _history(self, step: dict[str, Any]) -> ExecResult:
        count = step.get("count", 1)
        src, dst = (self.history.undo, self.history.redo) if step["op"] == "undo" else (
            self.history.redo, self.history.undo)
        verb = "undo" if step["op"] == "undo" else "redo"
        if not src:
            return ExecResult(False, f"There is nothing to {verb}.", None, f"nothing to {verb}")
        done = 0
        labels = []
        while src and done < count:
            snap = src.pop()
            dst.append(Snapshot(self.state.edits(), self.state.pose.to_json() if snap.pose else None, snap.label))
            self.state.restore_edits(snap.edits)
            if snap.pose is not None:
                self.state.pose = Pose.from_json(snap.pose)
            labels.append(snap.label)
            done += 1
        word = "Undid" if verb == "undo" else "Redid"
        said = "; ".join(change_words(label) for label in labels)
        return ExecResult(True, f"{word} {done} change{'s' if done > 1 else ''} ({said}).",
                          None, None, True)

    # ---- steps ----------------------------------------------------------------------------
    def place_targets(self, ctx: Context, sel: dict[str, Any]) -> list[str]:
        """Targets of teleport, route and look_at: a bare {"room": X} means the room itself."""
        if set(sel) == {"room"}:
            sel = {"class": ["IfcSpace"], "name": sel["room"]} if sel["room"] not in ("mine", "here") else sel
            if "name" in sel:
                rooms = resolve_room(self.building, ctx, sel["name"])
                if len(rooms) > 1:
                    resolver = Resolver(ctx)
                    rows = np.array([self.spatial.index[r] for r in rooms], int)
                    raise SelectionError(resolver._which_one({"class": ["IfcSpace"]}, rows))
                return rooms[:1]
        return self.targets(ctx, sel, need_one=True)

    def targets(self, ctx: Context, sel: dict[str, Any], need_one: bool = False,
                 allow_empty: bool = False) -> list[str]:
        resolver = Resolver(ctx)
        ids = resolver.resolve(sel, need_one=need_one)
        if not ids:
            ids = self._pointed_at_unknown_material(resolver, sel)
        if not ids and not allow_empty:
            raise SelectionError(resolver.explain_empty(sel))
        return ids

    def _pointed_at_unknown_material(self, resolver: Resolver, sel: dict[str, Any]) -> list[str]:
        """"That glass door right in front of me": one thing shown by where it stands from the user, said with a
        material the file gives it none of (no material at all): that thing. A thing whose materials are known
        and differ is not it."""
        said = [w for w in sel.get("where") or [] if w.get("key") == "material"]
        by_user = [r for r in sel.get("relations") or [] if "of" not in r]
        if not said or not by_user or sel.get("limit") != 1:
            return []
        rest = [w for w in sel["where"] if w.get("key") != "material"]
        plain = {k: v for k, v in sel.items() if k != "where"} | ({"where": rest} if rest else {})
        try:
            found = resolver.resolve(plain)
        except SelectionError:
            return []
        el = self.building.elements.get(found[0]) if len(found) == 1 else None
        return found if el is not None and not el.materials else []

    def bodies(self) -> set[str]:
        """Every element drawn in the scene (rooms are not): what "isolate" hides but for its targets, and what
        "show everything" brings back."""
        return {g for g, e in self.building.elements.items() if e.has_geometry and e.ifc_class != "IfcSpace"}

    def label(self, gid: str) -> str:
        el = self.building.elements.get(gid)
        if el is not None:
            return el.label()
        prop = next((p for p in self.state.props if p["id"] == gid), None)
        return f"the new {prop['asset']}" if prop else gid

    def value_of(self, gid: str, prop: str) -> Any:
        from pyagent.actions.selectors import element_value

        el = self.building.elements[gid]
        key = prop.strip().lower()
        if key in ("storey", "floor", "level"):
            st = self.building.storey(el.storey)
            return st.name if st else None
        if key in ("room", "space"):
            if el.room:
                return self.label(el.room)
            rooms = [self.label(r) for r in el.sides if r in self.building.elements]
            return ", ".join(rooms) if rooms else None
        return element_value(el, prop)

    def centre_of(self, ctx: Context, gid: str) -> np.ndarray:
        if gid in self.spatial.index:
            return self.spatial.centre[self.spatial.index[gid]]
        prop = self.prop_of(ctx, gid)
        if prop is None:
            raise StepError(f"unknown element {gid}")
        return np.asarray(prop["position"], float) + np.array([0.0, 0.0, PROPS[prop["asset"]].height / 2])

    @staticmethod
    def prop_of(ctx: Context, gid: str) -> dict[str, Any] | None:
        return next((p for p in ctx.state.props if p["id"] == gid), None)

    def _step(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        op = step["op"]
        if op in HISTORY_OPS:
            raise StepError(f"{op} must be asked for on its own")
        return ops.handler(op)(self, ctx, step)

    def changed(self, verb: str, ids: list[str], sel: dict[str, Any]) -> str:
        n = len(ids)
        if n == 1:
            return say("changed_one", verb=verb, what=self.label(ids[0]))
        return say("changed_many", verb=verb, n=n, noun=noun_for(sel, n))

