"""Measuring at the user's position by casting rays into the building's opaque geometry (walls, slabs,
roofs, coverings, doors...): the clear height of the room, and its width and length through the user."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from pyagent.model import Pose
from pyagent.spatial import EYE_HEIGHT, SpatialIndex

MAX_RAY_M = 200.0
#: Heights above the floor at which horizontal rays are cast; the shortest hit counts, so a window opening
#: at one height does not let the ray escape.
PROBE_HEIGHTS_M = (0.5, 1.0, 1.5)
#: Sideways offsets of parallel rays; the median counts, so one doorway beside the user does not either.
PROBE_OFFSETS_M = (-0.6, 0.0, 0.6)


@dataclass(frozen=True)
class Span:
    """A measured clear span: its length and the two distances from the user that make it up."""

    length: float
    first: float  # down / left / back
    second: float  # up / right / forward


def first_hit(sp: SpatialIndex, origin: np.ndarray, direction: np.ndarray, max_dist: float = MAX_RAY_M,
              ignore: np.ndarray | None = None) -> float | None:
    """Distance along the unit ``direction`` to the first opaque triangle, or None within ``max_dist``."""
    origin = np.asarray(origin, float)
    direction = np.asarray(direction, float)
    end = origin + direction * max_dist
    lo, hi = np.minimum(origin, end) - 1e-6, np.maximum(origin, end) + 1e-6
    occ = sp.occ_rows
    bmin, bmax = sp.bmin[occ], sp.bmax[occ]
    near = ((bmax >= lo) & (bmin <= hi)).all(axis=1)
    rows = occ[near]
    if ignore is not None and len(rows):
        rows = rows[~ignore[rows]]
    if not len(rows):
        return None
    # Slab test against each candidate's box first: only boxes the ray enters are tested by triangle.
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / np.where(np.abs(direction) < 1e-12, 1e-12, direction)
        t1, t2 = (sp.bmin[rows] - origin) * inv, (sp.bmax[rows] - origin) * inv
    t_near = np.minimum(t1, t2).max(axis=1)
    t_far = np.maximum(t1, t2).min(axis=1)
    rows = rows[(t_far >= np.maximum(t_near, 0.0)) & (t_near <= max_dist)]
    tri = sp.triangles_of(rows)
    if not len(tri):
        return None
    v0, e1, e2 = sp.tri_v0[tri], sp.tri_e1[tri], sp.tri_e2[tri]
    p = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-12
    inv_det = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    s = origin - v0
    u = np.einsum("ij,ij->i", s, p) * inv_det
    q = np.cross(s, e1)
    v = q @ direction * inv_det
    t = np.einsum("ij,ij->i", e2, q) * inv_det
    hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 1e-4) & (t <= max_dist)
    return float(t[hit].min()) if hit.any() else None


def floor_below(sp: SpatialIndex, pose: Pose, ignore: np.ndarray | None = None) -> float | None:
    """Height of the floor under the user's eyes (IFC z), or None when nothing is below."""
    d = first_hit(sp, pose.position, np.array([0.0, 0.0, -1.0]), ignore=ignore)
    return None if d is None else float(pose.position[2] - d)


def ceiling_height(sp: SpatialIndex, pose: Pose, ignore: np.ndarray | None = None) -> Span | None:
    """Clear height from the floor under the user to the first thing above (slab, ceiling, roof)."""
    down = first_hit(sp, pose.position, np.array([0.0, 0.0, -1.0]), ignore=ignore)
    up = first_hit(sp, pose.position, np.array([0.0, 0.0, 1.0]), ignore=ignore)
    if down is None or up is None:
        return None
    return Span(down + up, down, up)


def horizontal_span(sp: SpatialIndex, pose: Pose, across: bool, ignore: np.ndarray | None = None) -> Span | None:
    """Wall to wall through the user: across the heading (width) or along it (length)."""
    yaw = math.radians(pose.yaw + (90.0 if across else 0.0))
    axis = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    side = np.array([-axis[1], axis[0], 0.0])
    floor = floor_below(sp, pose, ignore)
    base = (pose.position[2] - EYE_HEIGHT) if floor is None else floor
    sides: list[float] = []
    for sign in (-1.0, 1.0):
        per_offset: list[float] = []
        for off in PROBE_OFFSETS_M:
            hits = [first_hit(sp, np.array([pose.position[0], pose.position[1], base + h]) + side * off,
                              axis * sign, ignore=ignore) for h in PROBE_HEIGHTS_M]
            found = [d for d in hits if d is not None]
            per_offset.append(min(found) if found else math.inf)
        sides.append(float(np.median(per_offset)))
    if not all(math.isfinite(d) for d in sides):
        return None
    return Span(sides[0] + sides[1], sides[0], sides[1])
