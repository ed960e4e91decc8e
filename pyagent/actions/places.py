"""Where people and props can be: free floor points in rooms, the floor under a point, footprints that
collide with walls or furniture, standing points near an element, and directions relative to the user.
Shared by the ops that move the user or place things (``teleport``, ``route``, ``add_prop``, ``move``)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from pyagent.actions.errors import StepError
from pyagent.props import PROPS
from pyagent.spatial import EYE_HEIGHT

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context


def room_point(ex: Executor, gid: str) -> np.ndarray:
    """A free floor point in a room: its centre if that is inside and clear, else the nearest clear
    point of its footprint (L-shaped rooms, galleries round a stair void)."""
    el = ex.building.elements[gid]
    floor = float(el.bbox_min[2])
    centre = el.centre.copy()
    candidates = [centre[:2]]
    for r in ex.graph.finder.rooms:
        if r.id == gid:
            cents = r.tris.mean(axis=1)
            candidates += list(cents[np.argsort(np.linalg.norm(cents - centre[:2], axis=1))])
    fallback = None
    finder = ex.graph.finder
    shared: list[np.ndarray] = []  # points in its footprint where another room is innermost (rooms drawn twice)
    for xy in candidates:
        p = np.array([xy[0], xy[1], floor + 0.05])
        if finder.room_at(p, min_floor=floor - 0.3) != gid:
            if len(shared) < 8 and finder.holds(gid, p):
                shared.append(p)
            continue
        fallback = fallback if fallback is not None else p
        if not _blocked(ex, p):
            return p
    for p in shared:
        if not _blocked(ex, p):
            return p
    if fallback is not None:
        return fallback
    centre[2] = floor + 0.05
    return centre


def _blocked(ex: Executor, p: np.ndarray) -> bool:
    return collides(ex, p, 0.8, 0.8, blockers=("IfcWall", "IfcColumn", "IfcStair", "IfcRailing", "IfcFurnishing",
                                                "IfcFurniture", "IfcMember"))


def floor_z(ex: Executor, point: np.ndarray) -> float | None:
    """The floor under a point: its room's floor; in a file without rooms, the storey's level."""
    room = ex.graph.room_at(point)
    if room is not None:
        return float(ex.building.elements[room].bbox_min[2])
    if not ex.graph.finder.rooms and ex.building.storeys:
        storey = ex.spatial.storey_of_point(float(point[2]) + EYE_HEIGHT - 0.5)
        if storey is None:
            return None
        under = _floor_slabs(ex, storey.elevation, top_below=float(point[2]) + 0.3, at=point[:2])
        return max(under.values()) if under else storey.elevation
    return None


def _floor_slabs(ex: Executor, level: float, top_below: float | None = None,
                 at: np.ndarray | None = None) -> dict[int, float]:
    """Slabs one can stand on at a storey level: row -> top height (a top from just under the level
    to a metre above it: screeds, raised floors), optionally only those under a plan point."""
    sp = ex.spatial
    rows = np.nonzero(sp.class_mask(frozenset({"IfcSlab"})))[0]
    tops = sp.bmax[rows, 2]
    keep = (tops > level - 0.3) & (tops < level + 1.0)
    if top_below is not None:
        keep &= tops <= top_below
    if at is not None:
        keep &= np.all(sp.bmin[rows, :2] <= at, axis=1) & np.all(sp.bmax[rows, :2] >= at, axis=1)
    return {int(r): float(t) for r, t in zip(rows[keep], tops[keep], strict=True)}


def storey_point(ex: Executor, ctx: Context, storey_id: str) -> np.ndarray:
    """Where to stand on a storey without rooms: straight up or down from the user when a floor slab
    is there, else on the middle of its largest floor slab, else at its level amid what stands on it."""
    sp = ex.spatial
    storey = ex.building.storey(storey_id)
    level = storey.elevation if storey is not None else float(ex.building.elements[storey_id].bbox_min[2])
    here = ctx.pose.position[:2]
    under = _floor_slabs(ex, level, at=here)
    if under:
        return np.array([here[0], here[1], max(under.values()) + EYE_HEIGHT])
    slabs = _floor_slabs(ex, level)
    if slabs:
        r = max(slabs, key=lambda k: float(np.prod(sp.bmax[k, :2] - sp.bmin[k, :2])))
        c = sp.centre[r]
        return np.array([c[0], c[1], slabs[r] + EYE_HEIGHT])
    mine = np.nonzero((sp.storey_of == storey_id) & ~sp.structure & np.all(sp.bmax > sp.bmin, axis=1))[0]
    if not len(mine):
        raise StepError(f"there is nothing on {ex.building.elements[storey_id].label()} to stand on")
    lo, hi = sp.bmin[mine, :2].min(axis=0), sp.bmax[mine, :2].max(axis=0)
    c = (lo + hi) / 2
    return np.array([c[0], c[1], level + EYE_HEIGHT])


def collides(ex: Executor, p: np.ndarray, width: float, depth: float,
              blockers: tuple[str, ...] = ("IfcWall", "IfcColumn", "IfcFurnishing", "IfcFurniture",
                                           "IfcStair")) -> bool:
    """Would a prop of this footprint at p overlap a wall or a piece of furniture?"""
    sp = ex.spatial
    half = 0.35 * min(width, depth)  # the prop's core; its edges may touch the wall it stands against
    lo = np.array([p[0] - half, p[1] - half, p[2] + 0.1])
    hi = np.array([p[0] + half, p[1] + half, p[2] + 1.0])
    hit = np.all(sp.bmax > lo, axis=1) & np.all(sp.bmin < hi, axis=1)
    for r in np.nonzero(hit)[0]:
        cls = ex.building.elements[sp.ids[r]].ifc_class
        if cls.startswith(blockers):
            return True
    return False


def standing_point(ex: Executor, ctx: Context, gid: str) -> np.ndarray:
    if gid not in ex.building.elements:
        p = ex.centre_of(ctx, gid).copy()
        floor = floor_z(ex, p + np.array([0.8, 0.0, 0.0]))
        if floor is None:
            raise StepError("there is no floor to stand on near it")
        return np.array([p[0] + 0.8, p[1], floor + EYE_HEIGHT])
    el = ex.building.elements[gid]
    if el.ifc_class == "IfcSpace":
        p = room_point(ex, gid)
        p[2] = float(el.bbox_min[2]) + EYE_HEIGHT
        return p
    if el.ifc_class == "IfcBuildingStorey":
        rooms = [s for s in ex.building.spaces() if s.storey == gid]
        if not rooms:
            return storey_point(ex, ctx, gid)
        storey = ex.building.storey(gid)
        here = ctx.pose.position
        if storey is not None:  # straight above or below where the user stands, when a room is there
            over = ex.graph.room_at(np.array([here[0], here[1], storey.elevation + 0.3]))
            if over is not None and ex.building.elements[over].storey == gid:
                return np.array([here[0], here[1], float(ex.building.elements[over].bbox_min[2]) + EYE_HEIGHT])
        biggest = max(rooms, key=lambda s: s.quantities.get("area", 0.0))
        return standing_point(ex, ctx, biggest.id)
    sp = ex.spatial
    r = sp.index[gid]
    c = sp.centre[r]
    to_user = ctx.pose.position[:2] - c[:2]
    n = np.linalg.norm(to_user)
    dirs = [to_user / n] if n > 1e-6 else []
    dirs += [np.array([math.cos(a), math.sin(a)]) for a in np.radians(np.arange(0, 360, 45))]
    half = (sp.bmax[r, :2] - sp.bmin[r, :2]) / 2
    elsewhere: list[np.ndarray] = []  # a place to stand that is in another room (behind a wall)
    for d in dirs:
        for gap in (1.0, 0.6):
            reach = float(abs(half @ d)) + gap
            p = np.array([c[0] + d[0] * reach, c[1] + d[1] * reach, float(sp.bmin[r, 2]) + 0.5])
            floor = floor_z(ex, p)
            if floor is None:
                continue
            point = np.array([p[0], p[1], floor + EYE_HEIGHT])
            # by the thing, in the room it stands in ("where's the loo? take me there"); by a door, in a room
            # it opens into (the hall inside the front door, not the room beside it or the garden)
            inside = {el.room} if el.room else {s for s in el.sides if s != "outside"}
            if not inside or ex.graph.room_at(np.array([p[0], p[1], floor + 0.3])) in inside:
                return point
            elsewhere.append(point)
    if elsewhere:
        return elsewhere[0]
    raise StepError(f"there is no floor to stand on near {el.label()}")


def place_by(ex: Executor, ctx: Context, anchor: str, depth: float, width: float, placement: str,
              yaw: float | None) -> tuple[np.ndarray, float]:
    """A floor point beside (next_to) or in front of (in_front_of) an element, on the user's side."""
    sp = ex.spatial
    if anchor not in sp.index:
        prop = ex.prop_of(ctx, anchor)
        if prop is None:
            raise StepError("I cannot find what to put it next to")
        spec = PROPS[prop["asset"]]
        c = ex.centre_of(ctx, anchor)
        half = np.array([spec.width, spec.depth]) / 2
        floor_guess = float(prop["position"][2])
        label = ex.label(anchor)
    else:
        r = sp.index[anchor]
        c = sp.centre[r].copy()
        half = (sp.bmax[r, :2] - sp.bmin[r, :2]) / 2
        floor_guess = float(sp.bmin[r, 2])
        label = ex.label(anchor)
    el = ex.building.elements.get(anchor)
    if el is not None and (el.ifc_class == "IfcSpace" or placement == "in"):
        p = room_point(ex, el.id if el.ifc_class == "IfcSpace" else (el.room or anchor))
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
    storey = ex.building.storey(el.storey) if el is not None else None
    if storey:
        floor_guess = storey.elevation
    for cand in candidates:
        p = np.array([cand[0], cand[1], floor_guess])
        probe = p + np.array([0, 0, 0.5])
        if floor_z(ex, probe) is not None and not collides(ex, p, width, depth):
            face = math.degrees(math.atan2(to_user[1], to_user[0]))
            return p, float(yaw if yaw is not None else face - 90.0)
    raise StepError(f"there is no free floor next to {label} for it")


def direction_vector(ex: Executor, ctx: Context, direction: str) -> np.ndarray:
    yaw = ctx.pose.yaw
    angle = {"forward": yaw, "back": yaw + 180, "left": yaw + 90, "right": yaw - 90}.get(direction)
    if angle is None:
        angle = ex.building.compass_heading(direction)
    if direction == "up":
        return np.array([0.0, 0.0, 1.0])
    if direction == "down":
        return np.array([0.0, 0.0, -1.0])
    assert angle is not None
    a = math.radians(angle)
    return np.array([math.cos(a), math.sin(a), 0.0])
