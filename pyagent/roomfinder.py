"""Which room (IfcSpace) a point is in, from the spaces' tessellated geometry."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pyagent.model import Element
from pyagent.tessellate import MeshSet


@dataclass
class _Room:
    id: str
    zmin: float
    zmax: float
    tris: np.ndarray  # (T, 3, 2) plan triangles of the footprint
    bmin: np.ndarray
    bmax: np.ndarray
    area: float


@dataclass
class RoomFinder:
    """Point-in-room tests: the plan footprint (upward faces of the space's body) and its height range."""

    rooms: list[_Room] = field(default_factory=list)
    _box_cache: np.ndarray | None = None

    @classmethod
    def from_meshes(cls, spaces: list[Element], meshes: MeshSet) -> RoomFinder:
        index = meshes.index()
        rooms: list[_Room] = []
        for sp in spaces:
            i = index.get(sp.id)
            if i is None:
                continue
            tris = meshes.triangles(i).astype(float)
            normal_z = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])[:, 2]
            up = tris[normal_z > 1e-9]
            if not len(up):
                continue
            plan = up[:, :, :2]
            rooms.append(_Room(sp.id, float(tris[:, :, 2].min()), float(tris[:, :, 2].max()), plan,
                               plan.reshape(-1, 2).min(axis=0), plan.reshape(-1, 2).max(axis=0),
                               float(0.5 * np.abs(normal_z[normal_z > 1e-9]).sum())))
        rooms.sort(key=lambda r: r.area)  # smallest first: nested spaces win
        return cls(rooms)

    def _boxes(self) -> np.ndarray:
        if self._box_cache is None or len(self._box_cache) != len(self.rooms):
            self._box_cache = np.array([[r.bmin[0], r.bmin[1], r.zmin, r.bmax[0], r.bmax[1], r.zmax]
                                        for r in self.rooms], float).reshape(-1, 6)
        return self._box_cache

    def room_at(self, point: np.ndarray, z_tolerance: float = 0.3, min_floor: float = -np.inf,
                exclude: str | None = None) -> str | None:
        """The room whose footprint holds the point and whose height range (with tolerance) spans it."""
        x, y, z = float(point[0]), float(point[1]), float(point[2])
        if not self.rooms:
            return None
        bx = self._boxes()
        cand = np.nonzero((bx[:, 0] - 1e-6 <= x) & (x <= bx[:, 3] + 1e-6) & (bx[:, 1] - 1e-6 <= y)
                          & (y <= bx[:, 4] + 1e-6) & (bx[:, 2] - z_tolerance <= z) & (z <= bx[:, 5] + z_tolerance)
                          & (bx[:, 2] >= min_floor))[0]
        for i in cand:  # rooms are sorted smallest first, so the first hit is the innermost
            r = self.rooms[i]
            if r.id != exclude and _in_any_triangle(r.tris, x, y):
                return r.id
        return None

    def rooms_at(self, points: np.ndarray, z_tolerance: float = 0.3) -> list[str | None]:
        """``room_at`` of each of ``points`` (P, 3), room by room over all the points at once."""
        points = np.asarray(points, float).reshape(-1, 3)
        found: list[str | None] = [None] * len(points)
        if not self.rooms or not len(points):
            return found
        open_ = np.ones(len(points), bool)  # points without a room yet
        x, y, z = points[:, 0], points[:, 1], points[:, 2]
        for r, (x0, y0, z0, x1, y1, z1) in zip(self.rooms, self._boxes().tolist(), strict=True):
            near = np.nonzero(open_ & (x0 - 1e-6 <= x) & (x <= x1 + 1e-6) & (y0 - 1e-6 <= y) & (y <= y1 + 1e-6)
                              & (z0 - z_tolerance <= z) & (z <= z1 + z_tolerance))[0]
            if not len(near):
                continue
            for i in near[_in_triangles(r.tris, x[near], y[near])].tolist():
                found[i] = r.id
                open_[i] = False
        return found

    def held(self, room: str, xy: np.ndarray) -> np.ndarray:
        """For each plan point of ``xy`` (P, 2), whether the room's footprint holds it (``holds``, at once)."""
        xy = np.asarray(xy, float).reshape(-1, 2)
        out = np.zeros(len(xy), bool)
        for r in self.rooms:
            if r.id == room and len(xy):
                out |= _in_triangles(r.tris, xy[:, 0], xy[:, 1])
        return out

    def holds(self, room: str, point: np.ndarray) -> bool:
        """Whether the room's footprint holds the point in plan (whatever other rooms hold it too)."""
        return any(r.id == room and _in_any_triangle(r.tris, float(point[0]), float(point[1])) for r in self.rooms)

    def open_passages(self, step: float = 0.08) -> list[tuple[str, str, np.ndarray]]:
        """Pairs of rooms whose footprints touch with no wall between (open plan), and a point where."""
        found: dict[tuple[str, str], np.ndarray] = {}
        for r in self.rooms:
            for a, b in _boundary_edges(r.tris):
                d = b - a
                length = float(np.hypot(*d))
                if length < 0.3:
                    continue
                normal = np.array([-d[1], d[0]]) / length
                for t in np.linspace(0.15, 0.85, 4):
                    mid = a + d * t
                    for sign in (1.0, -1.0):
                        p = mid + sign * normal * step
                        point = np.array([p[0], p[1], r.zmin + 1.0])
                        other = self.room_at(point, z_tolerance=0.0, exclude=r.id)
                        if other is not None and not _in_any_triangle(r.tris, p[0], p[1]):
                            key = (min(r.id, other), max(r.id, other))
                            found.setdefault(key, np.array([mid[0], mid[1], r.zmin]))
        return [(a, b, p) for (a, b), p in found.items()]


def _boundary_edges(tris: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Edges used by exactly one triangle of a plan triangulation: the outline."""
    counts: dict[tuple[tuple[float, float], tuple[float, float]], int] = {}
    for tri in np.round(tris, 4):
        for i in range(3):
            a, b = tuple(tri[i]), tuple(tri[(i + 1) % 3])
            key = (a, b) if a <= b else (b, a)
            counts[key] = counts.get(key, 0) + 1
    return [(np.array(a), np.array(b)) for (a, b), n in counts.items() if n == 1]


def _in_triangles(tris: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """For each point (x[i], y[i]), whether any of the plan triangles holds it (``_in_any_triangle``, the
    same test for many points)."""
    a, b, c = tris[None, :, 0], tris[None, :, 1], tris[None, :, 2]
    px, py = x[:, None], y[:, None]

    def side(p0: np.ndarray, p1: np.ndarray) -> np.ndarray:
        return (p1[..., 0] - p0[..., 0]) * (py - p0[..., 1]) - (p1[..., 1] - p0[..., 1]) * (px - p0[..., 0])

    d1, d2, d3 = side(a, b), side(b, c), side(c, a)
    eps = 1e-9
    has_neg = (d1 < -eps) | (d2 < -eps) | (d3 < -eps)
    has_pos = (d1 > eps) | (d2 > eps) | (d3 > eps)
    return np.any(~(has_neg & has_pos), axis=1)


def _in_any_triangle(tris: np.ndarray, x: float, y: float) -> bool:
    return bool(_in_triangles(tris, np.array([x]), np.array([y]))[0])
