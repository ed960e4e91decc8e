"""``walk``: move the user on foot relative to their heading (forward, back, left, right) by a distance,
keeping the heading and standing on the floor there.

The floor is the floor of the room the new point is in. Where there is none (outside the rooms), the user
keeps the level they stand on when that is the ground storey or below (stepping out onto the terrace) or
when they were outside the rooms already; from a room on an upper storey into thin air is refused. Walls
on the way are not obstacles (a reviewer walks through them), but the answer names the ones crossed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.actions import places
from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import join_names, say, signed_cm
from pyagent.model import Pose
from pyagent.spatial import EYE_HEIGHT, _segments_blocked

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "camera"

DEFAULT_M = 1.0
#: Height above the floor at which the way is checked for walls (below windows, above skirting).
KNEE_M = 0.5
WORDS = {"forward": "forward", "back": "back", "left": "to the left", "right": "to the right"}


def walls_crossed(ex: Executor, ctx: Context, a: np.ndarray, b: np.ndarray) -> list[str]:
    """The walls (not deleted) the straight segment a -> b passes through, in order along the way."""
    sp = ex.spatial
    rows = np.nonzero(sp.class_mask(frozenset({"IfcWall"})) & sp.occluder)[0]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    rows = rows[np.all(sp.bmax[rows] >= lo, axis=1) & np.all(sp.bmin[rows] <= hi, axis=1)]
    hits: list[tuple[float, str]] = []
    for r in rows:
        gid = sp.ids[r]
        if gid in ctx.state.deleted:
            continue
        tri = np.arange(sp.tri_start[r], sp.tri_start[r + 1])
        if len(tri) and bool(_segments_blocked(a, b[None, :], sp.tri_v0[tri], sp.tri_e1[tri], sp.tri_e2[tri])[0]):
            hits.append((float(np.linalg.norm(sp.centre[r][:2] - a[:2])), gid))
    return [g for _, g in sorted(hits)]


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    direction = step["direction"]
    distance = float(step.get("distance", DEFAULT_M))
    here = ctx.pose.position.copy()
    foot = float(here[2]) - EYE_HEIGHT
    v = places.direction_vector(ex, ctx, direction)
    there = here + v * distance
    there[2] = here[2]
    shown = signed_cm(distance)
    floor = places.floor_z(ex, np.array([there[0], there[1], foot + 0.3]))
    if floor is None:
        was_inside = places.floor_z(ex, np.array([here[0], here[1], foot + 0.3])) is not None
        storey = ctx.user_storey()
        ground = ex.building.storey(ex.building.ground_storey)
        upstairs = storey is not None and ground is not None and storey.index > ground.index
        if was_inside and upstairs:
            raise StepError(say("walk_no_floor", d=shown, direction=WORDS[direction].removeprefix("to the ")))
        floor = foot
    there[2] = floor + EYE_HEIGHT
    if not ex.bounds.contains(there):
        raise StepError(f"that would take you out of bounds: you must stay {ex.bounds.describe()}")
    knee = np.array([0.0, 0.0, KNEE_M - EYE_HEIGHT])
    crossed = walls_crossed(ex, ctx, here + knee, np.array([there[0], there[1], foot + KNEE_M]))
    ctx.state.pose = Pose(there, ctx.pose.yaw, ctx.pose.pitch)
    if crossed:
        return None, say("walked_through", d=shown, direction=WORDS[direction],
                         walls=join_names([ex.label(g) for g in crossed], limit=3)), []
    return None, say("walked", d=shown, direction=WORDS[direction]), []
