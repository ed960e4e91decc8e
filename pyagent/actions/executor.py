"""The executor: validates a whole program, runs it on a scratch copy of the state, and commits only
when every step succeeded (a failing program changes nothing). Undo/redo of every change."""

from __future__ import annotations

import copy
import json
import math
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ifcopenshell.guid
import numpy as np

from pyagent.actions.bounds import REACH_M, Bounds
from pyagent.actions.schema import schema_errors
from pyagent.actions.selectors import Context, Resolver, SelectionError, noun_for, resolve_room
from pyagent.actions.state import History, SceneState, Snapshot
from pyagent.language.wording import Glossary, change_words, plain_material
from pyagent.model import OUTSIDE, Building, Pose
from pyagent.props import PROPS
from pyagent.scenegraph import SceneGraph
from pyagent.spatial import EYE_HEIGHT, SpatialIndex, wrap_deg

QUERY_OPS = ("count", "list", "exists", "get", "distance", "route", "where_am_i", "describe", "list_views",
             "sun_position", "measure_here")
CAMERA_OPS = ("teleport", "turn", "look_at", "go_to_view")
HISTORY_OPS = ("undo", "redo")


@dataclass
class ExecResult:
    ok: bool
    answer: str
    value: Any = None
    error: str | None = None
    changed: bool = False
    referenced: list[str] = field(default_factory=list)


class StepError(Exception):
    """A step cannot run; the message is for the user."""


def _fmt_m(v: float) -> str:
    return f"{v:.2f} m"


def _join(names: list[str], limit: int = 8) -> str:
    if len(names) > limit:
        return ", ".join(names[:limit]) + f" and {len(names) - limit} more"
    return ", ".join(names)


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
    def _place_targets(self, ctx: Context, sel: dict[str, Any]) -> list[str]:
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
        return self._targets(ctx, sel, need_one=True)

    def _targets(self, ctx: Context, sel: dict[str, Any], need_one: bool = False,
                 allow_empty: bool = False) -> list[str]:
        resolver = Resolver(ctx)
        ids = resolver.resolve(sel, need_one=need_one)
        if not ids and not allow_empty:
            raise SelectionError(resolver.explain_empty(sel))
        return ids

    def _label(self, gid: str) -> str:
        el = self.building.elements.get(gid)
        if el is not None:
            return el.label()
        prop = next((p for p in self.state.props if p["id"] == gid), None)
        return f"the new {prop['asset']}" if prop else gid

    def _value(self, gid: str, prop: str) -> Any:
        from pyagent.actions.selectors import element_value

        el = self.building.elements[gid]
        key = prop.strip().lower()
        if key in ("storey", "floor", "level"):
            st = self.building.storey(el.storey)
            return st.name if st else None
        if key in ("room", "space"):
            if el.room:
                return self._label(el.room)
            rooms = [self._label(r) for r in el.sides if r in self.building.elements]
            return ", ".join(rooms) if rooms else None
        return element_value(el, prop)

    def _centre(self, ctx: Context, gid: str) -> np.ndarray:
        if gid in self.spatial.index:
            return self.spatial.centre[self.spatial.index[gid]]
        prop = self._prop(ctx, gid)
        if prop is None:
            raise StepError(f"unknown element {gid}")
        return np.asarray(prop["position"], float) + np.array([0.0, 0.0, PROPS[prop["asset"]].height / 2])

    @staticmethod
    def _prop(ctx: Context, gid: str) -> dict[str, Any] | None:
        return next((p for p in ctx.state.props if p["id"] == gid), None)

    def _step(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        op = step["op"]
        from pyagent.actions import ops

        run = ops.handler(op)
        if run is not None:
            return run(self, ctx, step)
        handler = getattr(self, f"_op_{op}")
        return handler(ctx, step)

    # queries
    def _op_count(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = self._targets(ctx, step["target"], allow_empty=True)
        n = len(ids)
        noun = noun_for(step["target"], n)
        return n, f"There {'is' if n == 1 else 'are'} {n} {noun}{self._where_counted(ids, step['target'])}.", ids

    def _where_counted(self, ids: list[str], sel: dict[str, Any]) -> str:
        """Where counted elements are: " on Erdgeschoss", ": 7 on Erdgeschoss, 4 on Dachgeschoss",
        or "" (nothing counted, no storeys, or the question named a room)."""
        if not ids or sel.get("room"):
            return ""
        per_storey: dict[str, int] = {}
        for g in ids:
            el = self.building.elements.get(g)
            st = self.building.storey(el.storey) if el is not None and el.storey else None
            if st is not None:
                per_storey[st.name] = per_storey.get(st.name, 0) + 1
        if not per_storey:
            return ""
        if len(per_storey) == 1 and sum(per_storey.values()) == len(ids):
            return f" on {next(iter(per_storey))}"
        order = {st.name: st.index for st in self.building.storeys}
        parts = [f"{k} on {name}" for name, k in sorted(per_storey.items(), key=lambda kv: order.get(kv[0], 0))]
        return ": " + ", ".join(parts)

    def _op_list(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = self._targets(ctx, step["target"], allow_empty=True)
        if not ids:
            return [], Resolver(ctx).explain_empty(step["target"]), []
        names = [self._label(g) for g in ids]
        return ids, f"{len(ids)} {noun_for(step['target'], len(ids))}: {_join(names)}.", ids

    def _op_exists(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = self._targets(ctx, step["target"], allow_empty=True)
        noun = noun_for(step["target"], 1)
        return bool(ids), (f"Yes, there is a {noun}." if ids else f"No, there is no {noun}."), ids

    def _op_get(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:

        ids = [g for g in self._targets(ctx, step["target"]) if g in self.building.elements]
        if not ids:
            raise StepError("the props you placed have no IFC properties yet; save to make them real elements")
        prop = step["property"]
        values = [self._value(g, prop) for g in ids]
        known = [(g, v) for g, v in zip(ids, values, strict=True) if v is not None]
        if not known:
            raise StepError(f"{self._label(ids[0])} has no {prop}" if len(ids) == 1
                            else f"none of the {len(ids)} {noun_for(step['target'], 2)} has a {prop}")
        unit = {"height": "m", "width": "m", "depth": "m", "length": "m", "thickness": "m", "elevation": "m",
                "tall": "m", "wide": "m", "deep": "m", "area": "m²", "volume": "m³", "perimeter": "m"}.get(
            prop.lower(), "")
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for _, v in known)
        if len(known) == 1:
            g, v = known[0]
            shown = f"{v:.2f} {unit}".strip() if numeric else str(v)
            return (round(float(v), 4) if numeric else v), f"The {prop} of {self._label(g)} is {shown}.", ids
        if numeric and prop.lower() in ("area", "volume", "floor_area"):
            total = float(sum(v for _, v in known))
            return round(total, 4), f"The total {prop} of the {len(known)} {noun_for(step['target'], 2)} is " \
                                    f"{total:.2f} {unit}.", ids
        if numeric:
            vals = [float(v) for _, v in known]
            if max(vals) - min(vals) < 1e-3:
                return round(vals[0], 4), f"They all have a {prop} of {vals[0]:.2f} {unit}.", ids
            parts = [f"{self._label(g)}: {float(v):.2f} {unit}" for g, v in known]
            return [round(v, 4) for v in vals], f"The {prop}s are " + _join(parts) + ".", ids
        parts = [f"{self._label(g)}: {v}" for g, v in known]
        return [v for _, v in known], _join(parts) + ".", ids

    def _op_distance(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        to = self._targets(ctx, step["to"])
        mode = step.get("mode", "surface")
        sp = self.spatial
        if to[0] not in sp.index:
            d = float(np.linalg.norm(self._centre(ctx, to[0]) - (
                self._centre(ctx, self._targets(ctx, step["from"])[0]) if "from" in step else ctx.pose.position)))
            return round(d, 4), f"{self._label(to[0])} is {_fmt_m(d)} away.", [to[0]]
        t = sp.index[to[0]]
        if "from" in step:
            fr = self._targets(ctx, step["from"])
            f = sp.index[fr[0]]
            d = float(np.linalg.norm(sp.centre[t] - sp.centre[f])) if mode == "centre" else float(
                sp.box_gap(f, np.array([t]))[0])
            return round(d, 4), f"{self._label(fr[0])} is {_fmt_m(d)} from {self._label(to[0])}" + (
                " (centre to centre)." if mode == "centre" else "."), [to[0]]
        eye = ctx.pose.position
        d = float(np.linalg.norm(sp.centre[t] - eye)) if mode == "centre" else float(
            sp.distances(eye, np.array([t]))[0])
        return round(d, 4), f"{self._label(to[0])} is {_fmt_m(d)} from you.", [to[0]]

    def _room_point(self, gid: str) -> np.ndarray:
        """A free floor point in a room: its centre if that is inside and clear, else the nearest clear
        point of its footprint (L-shaped rooms, galleries round a stair void)."""
        el = self.building.elements[gid]
        floor = float(el.bbox_min[2])
        centre = el.centre.copy()
        candidates = [centre[:2]]
        for r in self.graph.finder.rooms:
            if r.id == gid:
                cents = r.tris.mean(axis=1)
                candidates += list(cents[np.argsort(np.linalg.norm(cents - centre[:2], axis=1))])
        fallback = None
        for xy in candidates:
            p = np.array([xy[0], xy[1], floor + 0.05])
            if self.graph.finder.room_at(p, min_floor=floor - 0.3) != gid:
                continue
            fallback = fallback if fallback is not None else p
            if not self._collides(p, 0.8, 0.8, blockers=("IfcWall", "IfcColumn", "IfcStair", "IfcRailing",
                                                        "IfcFurnishing", "IfcFurniture", "IfcMember")):
                return p
        if fallback is not None:
            return fallback
        centre[2] = floor + 0.05
        return centre

    def _op_route(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        to = self._place_targets(ctx, step["to"])
        goal = to[0]
        if goal not in self.building.elements:
            room = self.graph.room_at(self._centre(ctx, goal))
            if room is None:
                raise StepError("it is not in a room I can walk to")
            goal = room
        goal_el = self.building.elements[goal]
        if goal_el.ifc_class != "IfcSpace":
            goal = goal_el.room or next((s for s in goal_el.sides if s != OUTSIDE), None) or ""
            if not goal:
                raise StepError(f"{goal_el.label()} is not in a room I can walk to")
        if "from" in step:
            fr = self._targets(ctx, step["from"])
            start_room = fr[0] if self.building.elements[fr[0]].ifc_class == "IfcSpace" else \
                self.building.elements[fr[0]].room
            start = self._room_point(start_room) if start_room else self.spatial.centre[self.spatial.index[fr[0]]]
        else:
            start_room = ctx.user_room()
            start = ctx.pose.position.copy()
            storey = ctx.user_storey()
            start[2] = storey.elevation if storey else start[2] - EYE_HEIGHT
        if start_room is None:
            raise StepError("you are not inside a room, so I cannot plan a walk from here")
        route = self.graph.route(start, start_room, goal, self._room_point(goal))
        if route is None:
            raise StepError(f"I found no way to walk to {self._label(goal)} through doors or stairs")
        via = [self._label(r) if r != OUTSIDE else "outside" for r in route.rooms[1:-1]]
        text = f"{self._label(goal)} is about {route.length:.1f} m away on foot"
        text += f", through {_join(via)}." if via else "."
        return round(route.length, 3), text, [goal]

    def _op_where_am_i(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        room = ctx.user_room()
        storey = ctx.user_storey()
        floor = f" on {storey.name}" if storey else ""
        if room is None:
            return (storey.name if storey else "outside"), f"You are not in a room{floor}.", []
        return self._label(room), f"You are in {self._label(room)}{floor}.", [room]

    def _op_describe(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = self._targets(ctx, step["target"])
        parts = []
        for g in ids[:5]:
            el = self.building.elements.get(g)
            if el is None:
                parts.append(f"{self._label(g)} is a prop you placed (not yet saved to the IFC file).")
                continue
            storey = self.building.storey(el.storey)
            room = self.building.elements.get(el.room) if el.room else None
            dims = ", ".join(f"{k} {v:.2f} m" for k, v in el.dims.items() if k in ("width", "height", "depth"))
            bits = [f"{el.label()} is a {el.type_name or el.ifc_class.removeprefix('Ifc')}"]
            if room:
                bits.append(f"in {room.label()}")
            if storey:
                bits.append(f"on {storey.name}")
            text = " ".join(bits)
            if dims:
                text += f" ({dims})"
            if el.materials:
                text += f", made of {', '.join(plain_material(m) for m in el.materials[:3])}"
            parts.append(text + ".")
        return " ".join(parts), " ".join(parts), ids

    # changes
    def _op_hide(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = self._targets(ctx, step["target"])
        ctx.state.hidden |= set(ids)
        return None, self._changed("Hid", ids, step["target"]), ids

    def _op_show(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = self._targets(ctx, step["target"])
        ctx.state.hidden -= set(ids)
        return None, self._changed("Showing", ids, step["target"]), ids

    def _op_isolate(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = set(self._targets(ctx, step["target"]))
        everything = {g for g, e in self.building.elements.items() if e.has_geometry and e.ifc_class != "IfcSpace"}
        ctx.state.hidden = (ctx.state.hidden | everything) - ids
        return None, self._changed("Showing only", sorted(ids), step["target"]), sorted(ids)

    def _op_color(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = self._targets(ctx, step["target"])
        for g in ids:
            ctx.state.colors[g] = [float(c) for c in step["rgba"]]
        return None, self._changed("Coloured", ids, step["target"]), ids

    def _op_reset_color(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = self._targets(ctx, step["target"])
        for g in ids:
            ctx.state.colors.pop(g, None)
        return None, self._changed("Restored the colour of", ids, step["target"]), ids

    def _op_transparency(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = self._targets(ctx, step["target"])
        alpha = float(step["alpha"])
        for g in ids:
            el = self.building.elements.get(g)
            base = ctx.state.colors.get(g) or list((el.color if el else None) or (0.8, 0.8, 0.8, 1.0))
            ctx.state.colors[g] = [float(base[0]), float(base[1]), float(base[2]), alpha]
        word = "See-through" if alpha < 1 else "Opaque"
        return None, self._changed(f"{word}:", ids, step["target"]), ids

    def _direction_vector(self, ctx: Context, direction: str) -> np.ndarray:
        yaw = ctx.pose.yaw
        north = self.building.true_north_deg
        angle = {"forward": yaw, "back": yaw + 180, "left": yaw + 90, "right": yaw - 90,
                 "north": north, "south": north + 180, "west": north + 90, "east": north - 90}.get(direction)
        if direction == "up":
            return np.array([0.0, 0.0, 1.0])
        if direction == "down":
            return np.array([0.0, 0.0, -1.0])
        assert angle is not None
        a = math.radians(angle)
        return np.array([math.cos(a), math.sin(a), 0.0])

    def _op_move(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = self._targets(ctx, step["target"])
        if "delta" in step:
            delta = np.asarray(step["delta"], float)
        elif "direction" in step:
            delta = self._direction_vector(ctx, step["direction"]) * float(step.get("distance", 0.5))
        else:
            raise StepError("say how far and which way to move it")
        if float(np.linalg.norm(delta)) > 50.0:
            raise StepError("that move is more than 50 m; move things a little at a time")
        moved: list[tuple[str, dict[str, Any] | None, list[float]]] = []
        for g in ids:  # everything is checked before anything moves
            prop = self._prop(ctx, g)
            if prop is not None:
                value = [round(float(a + b), 4) for a, b in zip(prop["position"], delta, strict=True)]
                where = np.asarray(value)
            else:
                t = ctx.state.transforms.get(g, {"translation": [0.0, 0.0, 0.0]})
                value = [round(float(a + b), 6) for a, b in zip(t["translation"], delta, strict=True)]
                el = self.building.elements.get(g)
                base = el.centre if el is not None and el.has_geometry else self.bounds.middle()
                where = base + np.asarray(value)
            if not self.bounds.contains(where):
                raise StepError(f"that would take {self._label(g)} further than {REACH_M:g} m from the building")
            moved.append((g, prop, value))
        for g, prop, value in moved:
            if prop is not None:
                prop["position"] = value
                continue
            t = ctx.state.transforms.setdefault(g, {"translation": [0.0, 0.0, 0.0], "rotation_deg": [0.0, 0.0, 0.0]})
            t["translation"] = value
        return None, self._changed(f"Moved {float(np.linalg.norm(delta)):.2f} m:", ids, step["target"]), ids

    def _op_rotate(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = self._targets(ctx, step["target"])
        deg = float(step["degrees"])
        for g in ids:
            prop = self._prop(ctx, g)
            if prop is not None:
                prop["yaw"] = round(float(wrap_deg(prop["yaw"] + deg)), 3)
                continue
            t = ctx.state.transforms.setdefault(g, {"translation": [0.0, 0.0, 0.0], "rotation_deg": [0.0, 0.0, 0.0]})
            t["rotation_deg"][2] = round(float(wrap_deg(t["rotation_deg"][2] + deg)), 6)
        return None, self._changed(f"Rotated {deg:g}°:", ids, step["target"]), ids

    def _op_delete(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = self._targets(ctx, step["target"])
        structural = [g for g in ids if g in self.building.elements and self.building.elements[g].ifc_class in (
            "IfcSpace", "IfcBuildingStorey", "IfcBuilding", "IfcSite")]
        placed = {g for g in ids if self._prop(ctx, g) is not None}
        ctx.state.props = [p for p in ctx.state.props if p["id"] not in placed]
        ids = [g for g in ids if g not in placed] or ids
        if structural:
            raise StepError(f"{self._label(structural[0])} is part of the spatial structure and cannot be deleted")
        ctx.state.deleted |= {g for g in ids if g not in placed}
        ctx.state.hidden -= set(ids)
        ctx.state.selected = [g for g in ctx.state.selected if g not in ids]
        return None, self._changed("Deleted", ids, step["target"]) + " Say 'undo' to bring it back.", ids

    def _floor_z(self, point: np.ndarray) -> float | None:
        """The floor under a point: its room's floor; in a file without rooms, the storey's level."""
        room = self.graph.room_at(point)
        if room is not None:
            return float(self.building.elements[room].bbox_min[2])
        if not self.graph.finder.rooms and self.building.storeys:
            storey = self.spatial.storey_of_point(float(point[2]) + EYE_HEIGHT - 0.5)
            return storey.elevation if storey else None
        return None

    def _op_add_prop(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        asset = step["asset"]
        spec = PROPS[asset]
        placement = step.get("placement", "next_to" if "anchor" in step else "at_user")
        yaw = float(step.get("yaw", ctx.pose.yaw + 180.0))
        if "position" in step:
            pos = np.asarray(step["position"], float)
        elif "anchor" in step:
            anchor = self._targets(ctx, step["anchor"], need_one=True)[0]
            pos, yaw = self._place_by(ctx, anchor, spec.depth, spec.width, placement, step.get("yaw"))
        else:
            f = self._direction_vector(ctx, "forward")
            pos = ctx.pose.position + f * (1.0 + spec.depth / 2)
            storey = ctx.user_storey()
            pos[2] = storey.elevation if storey else pos[2] - EYE_HEIGHT
        probe = pos.copy()
        probe[2] += 0.5
        floor = self._floor_z(probe)
        if floor is None:
            raise StepError(f"there is no room floor to put the {asset} on there")
        pos[2] = floor
        # Props are elements to be: they get a GlobalId now, derived from the state and the request so
        # that replaying a journal gives the same ids.
        seed = json.dumps([self.building.file_hash, ctx.state.edits(), asset, [round(float(c), 3) for c in pos]],
                          sort_keys=True)
        pid = ifcopenshell.guid.compress(uuid.uuid5(uuid.NAMESPACE_URL, seed).hex)
        ctx.state.props.append({"id": pid, "asset": asset, "position": [round(float(c), 4) for c in pos],
                                "yaw": round(float(wrap_deg(yaw)), 3)})
        room = self.graph.room_at(probe)
        where = f" in {self._label(room)}" if room else ""
        article = "an" if asset[:1] in "aeiou" else "a"
        return [pid], f"Placed {article} {asset}{where}.", [pid]

    def _place_by(self, ctx: Context, anchor: str, depth: float, width: float, placement: str,
                  yaw: float | None) -> tuple[np.ndarray, float]:
        """A floor point beside (next_to) or in front of (in_front_of) an element, on the user's side."""
        sp = self.spatial
        if anchor not in sp.index:
            prop = self._prop(ctx, anchor)
            if prop is None:
                raise StepError("I cannot find what to put it next to")
            spec = PROPS[prop["asset"]]
            c = self._centre(ctx, anchor)
            half = np.array([spec.width, spec.depth]) / 2
            floor_guess = float(prop["position"][2])
            label = self._label(anchor)
        else:
            r = sp.index[anchor]
            c = sp.centre[r].copy()
            half = (sp.bmax[r, :2] - sp.bmin[r, :2]) / 2
            floor_guess = float(sp.bmin[r, 2])
            label = self._label(anchor)
        el = self.building.elements.get(anchor)
        if el is not None and (el.ifc_class == "IfcSpace" or placement == "in"):
            p = self._room_point(el.id if el.ifc_class == "IfcSpace" else (el.room or anchor))
            return p, float(yaw if yaw is not None else ctx.pose.yaw + 180.0)
        to_user = ctx.pose.position[:2] - c[:2]
        n = np.linalg.norm(to_user)
        to_user = to_user / n if n > 1e-6 else np.array([1.0, 0.0])
        candidates = []
        flat = ("IfcWindow", "IfcDoor", "IfcWall", "IfcWallStandardCase")
        if placement == "in_front_of" or el is not None and el.ifc_class in flat:
            reach = float(abs(half @ to_user)) + 0.3 + depth / 2
            candidates.append(c[:2] + to_user * reach)
        side = np.array([-to_user[1], to_user[0]])
        reach_side = float(abs(half @ side)) + 0.2 + width / 2
        for s in (1.0, -1.0):
            candidates.append(c[:2] + side * s * reach_side + to_user * 0.1)
        storey = self.building.storey(el.storey) if el is not None else None
        if storey:
            floor_guess = storey.elevation
        for cand in candidates:
            p = np.array([cand[0], cand[1], floor_guess])
            probe = p + np.array([0, 0, 0.5])
            if self._floor_z(probe) is not None and not self._collides(p, width, depth):
                face = math.degrees(math.atan2(to_user[1], to_user[0]))
                return p, float(yaw if yaw is not None else face - 90.0)
        raise StepError(f"there is no free floor next to {label} for it")

    def _collides(self, p: np.ndarray, width: float, depth: float,
                  blockers: tuple[str, ...] = ("IfcWall", "IfcColumn", "IfcFurnishing", "IfcFurniture",
                                               "IfcStair")) -> bool:
        """Would a prop of this footprint at p overlap a wall or a piece of furniture?"""
        sp = self.spatial
        half = 0.35 * min(width, depth)  # the prop's core; its edges may touch the wall it stands against
        lo = np.array([p[0] - half, p[1] - half, p[2] + 0.1])
        hi = np.array([p[0] + half, p[1] + half, p[2] + 1.0])
        hit = np.all(sp.bmax > lo, axis=1) & np.all(sp.bmin < hi, axis=1)
        for r in np.nonzero(hit)[0]:
            cls = self.building.elements[sp.ids[r]].ifc_class
            if cls.startswith(blockers):
                return True
        return False

    def _op_select(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        if step["target"] == {"ids": []}:
            ctx.state.selected = []
            return [], "Selection cleared.", []
        ids = self._targets(ctx, step["target"])
        ctx.state.selected = list(ids)
        return ids, self._changed("Selected", ids, step["target"]), ids

    def _standing_point(self, ctx: Context, gid: str) -> np.ndarray:
        if gid not in self.building.elements:
            p = self._centre(ctx, gid).copy()
            floor = self._floor_z(p + np.array([0.8, 0.0, 0.0]))
            if floor is None:
                raise StepError("there is no floor to stand on near it")
            return np.array([p[0] + 0.8, p[1], floor + EYE_HEIGHT])
        el = self.building.elements[gid]
        if el.ifc_class == "IfcSpace":
            p = self._room_point(gid)
            p[2] = float(el.bbox_min[2]) + EYE_HEIGHT
            return p
        if el.ifc_class == "IfcBuildingStorey":
            rooms = [s for s in self.building.spaces() if s.storey == gid]
            if not rooms:
                raise StepError(f"{el.label()} has no room to stand in")
            biggest = max(rooms, key=lambda s: s.quantities.get("area", 0.0))
            return self._standing_point(ctx, biggest.id)
        sp = self.spatial
        r = sp.index[gid]
        c = sp.centre[r]
        to_user = ctx.pose.position[:2] - c[:2]
        n = np.linalg.norm(to_user)
        dirs = [to_user / n] if n > 1e-6 else []
        dirs += [np.array([math.cos(a), math.sin(a)]) for a in np.radians(np.arange(0, 360, 45))]
        half = (sp.bmax[r, :2] - sp.bmin[r, :2]) / 2
        for d in dirs:
            reach = float(abs(half @ d)) + 1.0
            p = np.array([c[0] + d[0] * reach, c[1] + d[1] * reach, float(sp.bmin[r, 2]) + 0.5])
            floor = self._floor_z(p)
            if floor is not None:
                return np.array([p[0], p[1], floor + EYE_HEIGHT])
        raise StepError(f"there is no floor to stand on near {el.label()}")

    def _op_teleport(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        if "position" in step:
            p = np.asarray(step["position"], float)
            floor = self._floor_z(p + np.array([0, 0, 0.3]))
            if floor is None:
                raise StepError("there is no floor to stand on at that position")
            target = np.array([p[0], p[1], floor + EYE_HEIGHT])
            ctx.state.pose = Pose(target, ctx.pose.yaw, 0.0)
            return None, "Moved you there.", []
        if "target" not in step:
            raise StepError("say where to go")
        gid = self._place_targets(ctx, step["target"])[0]
        target = self._standing_point(ctx, gid)
        el = self.building.elements.get(gid)
        yaw = ctx.pose.yaw
        if el is None or el.ifc_class not in ("IfcSpace", "IfcBuildingStorey"):
            d = self._centre(ctx, gid)[:2] - target[:2]
            yaw = math.degrees(math.atan2(d[1], d[0]))
        ctx.state.pose = Pose(target, float(wrap_deg(yaw)), 0.0)
        inside = el is not None and el.ifc_class == "IfcSpace"
        return None, f"You are now {'in' if inside else 'at'} {self._label(gid)}.", [gid]

    def _op_turn(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        deg = float(step["degrees"])
        ctx.state.pose = Pose(ctx.pose.position.copy(), float(wrap_deg(ctx.pose.yaw + deg)), ctx.pose.pitch)
        side = "around" if abs(abs(deg) - 180) < 1 else (f"{abs(deg):g}° left" if deg > 0 else f"{abs(deg):g}° right")
        return None, f"Turned {side}.", []

    def _op_look_at(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        gid = self._place_targets(ctx, step["target"])[0]
        c = self._centre(ctx, gid)
        d = c - ctx.pose.position
        yaw = math.degrees(math.atan2(d[1], d[0]))
        pitch = math.degrees(math.atan2(d[2], max(1e-6, float(np.linalg.norm(d[:2])))))
        ctx.state.pose = Pose(ctx.pose.position.copy(), float(wrap_deg(yaw)), float(max(-60.0, min(60.0, pitch))))
        return None, f"Looking at {self._label(gid)}.", [gid]

    def _op_reset(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        pose, views = ctx.state.pose, ctx.state.viewpoints
        ctx.state.restore_edits(SceneState().edits())
        ctx.state.pose, ctx.state.viewpoints = pose, views  # remembered views are the user's, not model edits
        return None, "Back to the model as loaded.", []

    def _op_save(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        saver = self.saver
        if saver is None:
            raise StepError("saving is not available in this session")

        def run() -> str:  # the saver returns the revision's path, or a sentence while it is still writing
            where = saver(ctx.state)
            return where if where.endswith(".") else f"Saved a new revision: {where}."
        ctx.pending.append((len(ctx.step_values), run))
        return None, "", []

    def _op_export_notes(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        exporter = self.exporter
        if exporter is None:
            raise StepError("exporting notes is not available in this session")
        ctx.pending.append((len(ctx.step_values), exporter))
        return None, "", []

    def _op_note(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
        ids = self._targets(ctx, step["target"]) if step.get("target") else list(ctx.state.selected or ctx.last_ids)
        noter = self.noter
        if noter is None:
            raise StepError("review notes are not available in this session")
        text = step["text"]

        def run() -> str:
            noter(text, ids, ctx.state)
            return f"Noted: {text}"
        ctx.pending.append((len(ctx.step_values), run))
        return None, "", ids

    def _op_undo(self, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:  # pragma: no cover
        raise StepError("undo must be asked for on its own")

    _op_redo = _op_undo

    def _changed(self, verb: str, ids: list[str], sel: dict[str, Any]) -> str:
        n = len(ids)
        if n == 1:
            return f"{verb} {self._label(ids[0])}."
        return f"{verb} {n} {noun_for(sel, n)}."

