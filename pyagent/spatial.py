"""The spatial engine: relations relative to the user's pose and between elements, and line of
sight by ray casting against the tessellated geometry. Arrays over all elements, numpy throughout.

Sectors (documented contract), with ``bearing`` = direction to the element's nearest point in plan
minus the user's yaw, in (-180, 180], counter-clockwise positive:
  in_front: |bearing| <= 45    left: 45 < bearing < 135    right: -135 < bearing < -45
  behind:   |bearing| >= 135
Pose-relative relations only consider what the user could mean: elements on the user's storey
(their height range overlaps the storey the user stands on). ``visible`` means inside the field of
view (110 degrees wide, 90 high) with a line of sight not blocked by walls, slabs, roofs, doors or
other opaque elements.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from pyagent.model import Building, Pose, Storey
from pyagent.tessellate import MeshSet

SECTOR_HALF_WIDTH = 45.0
FOV_H, FOV_V = 110.0, 90.0
NEAR_M = 2.0
NEXT_TO_M = 1.0
EYE_HEIGHT = 1.6
# Opaque classes that block the view. Windows, railings and spaces do not.
OCCLUDER_PREFIXES = ("IfcWall", "IfcSlab", "IfcRoof", "IfcCovering", "IfcDoor", "IfcCurtainWall", "IfcColumn",
                     "IfcPlate", "IfcStair", "IfcBuildingElementProxy", "IfcFooting")


def wrap_deg(a: np.ndarray | float) -> np.ndarray:
    return (np.asarray(a, dtype=float) + 180.0) % 360.0 - 180.0


@dataclass
class SpatialIndex:
    building: Building
    ids: list[str]
    index: dict[str, int]
    bmin: np.ndarray  # (N, 3)
    bmax: np.ndarray  # (N, 3)
    centre: np.ndarray  # (N, 3)
    occluder: np.ndarray  # (N,) bool
    # Occluder triangles, packed by element: v0, edge1, edge2 (T, 3)
    tri_v0: np.ndarray
    tri_e1: np.ndarray
    tri_e2: np.ndarray
    tri_start: np.ndarray  # (N+1,) offsets of each element's triangles (0 length for non-occluders)
    facing: np.ndarray  # (N,) outward plan direction in degrees, NaN where none
    structure: np.ndarray  # (N,) bool: site, building, storey, space
    occ_rows: np.ndarray  # rows of the occluders
    storey_of: np.ndarray  # (N,) object array of storey GlobalIds (or None)
    _class_masks: dict[frozenset[str], np.ndarray] = field(default_factory=dict)
    _band_tops: dict[str, float] = field(default_factory=dict)
    _envelopes: dict[str | None, np.ndarray] = field(default_factory=dict)

    def class_mask(self, wanted: frozenset[str]) -> np.ndarray:
        """Rows whose element is of one of the wanted classes (by supertype or predefined type), cached."""
        mask = self._class_masks.get(wanted)
        if mask is None:
            from pyagent.vocabulary import class_matches

            b = self.building
            kinds = [(e.ifc_class, e.properties.get("PredefinedType"), e.whole_class, e.type_class)
                     for e in (b.elements[g] for g in self.ids)]
            verdict = {k: class_matches(b.schema, k[0], k[1], set(wanted))
                       or (k[2] is not None and class_matches(b.schema, k[2], None, set(wanted)))
                       or (k[3] is not None and k[3] in wanted) for k in set(kinds)}
            mask = np.fromiter((verdict[k] for k in kinds), bool, len(kinds))
            self._class_masks[wanted] = mask
        return mask

    def rows_of(self, ids: set[str] | list[str]) -> np.ndarray:
        return np.array([self.index[g] for g in ids if g in self.index], int)

    @classmethod
    def build(cls, building: Building, meshes: MeshSet) -> SpatialIndex:
        ids = list(building.elements)
        index = {g: i for i, g in enumerate(ids)}
        els = [building.elements[g] for g in ids]
        bmin = np.array([e.bbox_min for e in els], dtype=float).reshape(-1, 3)
        bmax = np.array([e.bbox_max for e in els], dtype=float).reshape(-1, 3)
        occluder = np.array([e.has_geometry and e.ifc_class.startswith(OCCLUDER_PREFIXES) for e in els], bool)
        mesh_index = meshes.index()
        tris_l: list[np.ndarray] = []
        starts = np.zeros(len(ids) + 1, np.int64)
        for i, e in enumerate(els):
            n = 0
            if occluder[i] and e.id in mesh_index:
                t = meshes.triangles(mesh_index[e.id])
                tris_l.append(t)
                n = len(t)
            starts[i + 1] = starts[i] + n
        tris = np.concatenate(tris_l).astype(np.float64) if tris_l else np.zeros((0, 3, 3))
        facing = np.array([np.nan if e.facing_deg is None else e.facing_deg for e in els], float)
        structure = np.array([e.ifc_class in ("IfcSite", "IfcBuilding", "IfcBuildingStorey", "IfcSpace")
                              for e in els], bool)
        storey_of = np.array([e.storey for e in els], dtype=object)
        return cls(building, ids, index, bmin, bmax, (bmin + bmax) / 2.0, occluder,
                   tris[:, 0], tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0], starts, facing,
                   structure, np.nonzero(occluder)[0], storey_of)

    # ---- where the user is -----------------------------------------------------------------
    def storey_of_point(self, z: float) -> Storey | None:
        """The storey whose floor is the highest one at or below a standing point (eye height off)."""
        storeys = self.building.storeys
        if not storeys:
            return None
        floor_z = z - EYE_HEIGHT + 0.3
        below = [s for s in storeys if s.elevation <= floor_z]
        return below[-1] if below else storeys[0]

    def storey_band(self, storey: Storey | None) -> tuple[float, float]:
        """Floor to next floor; the top storey reaches up to what stands on it (a steel hall's
        trusses at 8 m), at least 4 m."""
        if storey is None:
            return (-math.inf, math.inf)
        if math.isfinite(storey.top):
            return (storey.elevation, storey.top)
        top = self._band_tops.get(storey.id)
        if top is None:
            mine = (self.storey_of == storey.id) & ~self.structure
            reach = float(self.bmax[mine, 2].max()) if mine.any() else -math.inf
            top = max(storey.elevation + 4.0, reach + 0.1)
            self._band_tops[storey.id] = top
        return (storey.elevation, top)

    def envelope(self, storey: str | None) -> np.ndarray:
        """The outline of the building on a storey in plan: the convex hull (counter-clockwise, (K, 2))
        of its walls' boxes, or of everything with a body when it has no walls; cached."""
        hull = self._envelopes.get(storey)
        if hull is None:
            body = ~self.structure & np.all(self.bmax > self.bmin, axis=1)
            walls = body & self.class_mask(frozenset({"IfcWall", "IfcCurtainWall"}))
            on = self.storey_of == storey
            rows = np.nonzero(walls & on)[0]
            for fallback in (walls, body & on, body):
                if len(rows) >= 1:
                    break
                rows = np.nonzero(fallback)[0]
            lo, hi = self.bmin[rows, :2], self.bmax[rows, :2]
            corners = np.concatenate([lo, hi, np.c_[lo[:, 0], hi[:, 1]], np.c_[hi[:, 0], lo[:, 1]]])
            hull = convex_hull(corners)
            self._envelopes[storey] = hull
        return hull

    def outside_depth(self, rows: np.ndarray) -> np.ndarray:
        """For each row, how far its plan centre lies inside its storey's outline (negative: outside)."""
        out = np.zeros(len(rows))
        for k, r in enumerate(rows):
            out[k] = inside_depth(self.envelope(self.storey_of[r]), self.centre[r, :2])
        return out

    def on_band(self, rows: np.ndarray, band: tuple[float, float]) -> np.ndarray:
        """Rows whose height range overlaps the band (with a margin so slabs above don't count)."""
        lo, hi = band
        return (self.bmax[rows, 2] > lo + 0.05) & (self.bmin[rows, 2] < hi - 0.05)

    # ---- pose-relative measures -----------------------------------------------------------
    def nearest_points(self, point: np.ndarray, rows: np.ndarray) -> np.ndarray:
        return np.clip(point, self.bmin[rows], self.bmax[rows])

    def distances(self, point: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Surface distance (to the bounding box) from a point, metres."""
        return np.linalg.norm(self.nearest_points(point, rows) - point, axis=1)

    def bearings(self, pose: Pose, rows: np.ndarray) -> np.ndarray:
        """Bearing (degrees, CCW positive) from the heading to each element's nearest point in plan."""
        eye = pose.position
        near = np.clip(eye[:2], self.bmin[rows, :2], self.bmax[rows, :2])
        inside = np.all(np.isclose(near, eye[:2]), axis=1)
        target = np.where(inside[:, None], self.centre[rows, :2], near)
        d = target - eye[:2]
        ang = np.degrees(np.arctan2(d[:, 1], d[:, 0]))
        return wrap_deg(ang - pose.yaw)

    def sector_mask(self, pose: Pose, rows: np.ndarray, rel: str) -> np.ndarray:
        b = self.bearings(pose, rows)
        if rel == "in_front":
            return np.abs(b) <= SECTOR_HALF_WIDTH
        if rel == "behind":
            return np.abs(b) >= 180.0 - SECTOR_HALF_WIDTH
        if rel == "left":
            return (b > SECTOR_HALF_WIDTH) & (b < 180.0 - SECTOR_HALF_WIDTH)
        if rel == "right":
            return (b < -SECTOR_HALF_WIDTH) & (b > -(180.0 - SECTOR_HALF_WIDTH))
        raise ValueError(f"not a sector: {rel}")

    def compass_mask(self, origin: np.ndarray, rows: np.ndarray, rel: str, use_facing: bool = True) -> np.ndarray:
        """Elements towards a compass direction (true north from the file): external doors, windows and
        walls by the way they face; everything else by where it lies seen from ``origin``."""
        return self.compass_offsets(origin, rows, rel, use_facing) <= 45.0

    def compass_offsets(self, origin: np.ndarray, rows: np.ndarray, rel: str, use_facing: bool = True,
                        body: np.ndarray | None = None) -> np.ndarray:
        """How far (degrees, 0-180) each element's way (see ``compass_mask``) is from a compass direction. With
        ``body`` (a mask of the building's own elements), the way is seen in the building's proportions: a
        long terrace's front runs its whole length, not only the part within 45 degrees of its middle."""
        heading = self.building.compass_heading(rel)
        assert heading is not None, rel
        d = self.centre[rows, :2] - origin[:2]
        if body is not None and body.any():
            h = math.radians(heading)
            axes = np.array([[math.cos(h), math.sin(h)], [-math.sin(h), math.cos(h)]])
            spans = self.centre[body, :2] @ axes.T
            half = np.maximum((spans.max(axis=0) - spans.min(axis=0)) / 2, 0.5)
            along = d @ axes.T / half
            ang = np.degrees(np.arctan2(along[:, 1], along[:, 0])) + heading
        else:
            ang = np.degrees(np.arctan2(d[:, 1], d[:, 0]))
        if use_facing:
            facing = np.array([self.facing[r] for r in rows], float)
            ang = np.where(np.isnan(facing), ang, facing)
        return np.abs(wrap_deg(ang - heading))

    # ---- between elements ------------------------------------------------------------------
    def box_gap(self, row: int, rows: np.ndarray) -> np.ndarray:
        """Surface-to-surface distance between bounding boxes (0 when they touch or overlap)."""
        gap = np.maximum(0.0, np.maximum(self.bmin[rows] - self.bmax[row], self.bmin[row] - self.bmax[rows]))
        return np.linalg.norm(gap, axis=1)

    def between_mask(self, a: int, b: int, rows: np.ndarray, lateral: float = 1.5) -> np.ndarray:
        pa, pb = self.centre[a, :2], self.centre[b, :2]
        ab = pb - pa
        length2 = float(ab @ ab)
        if length2 < 1e-9:
            return np.zeros(len(rows), bool)
        rel = self.centre[rows, :2] - pa
        t = rel @ ab / length2
        off = np.abs(rel[:, 0] * ab[1] - rel[:, 1] * ab[0]) / math.sqrt(length2)
        return (t > 0.0) & (t < 1.0) & (off <= lateral)

    # ---- line of sight ---------------------------------------------------------------------
    def sample_points(self, row: int, eye: np.ndarray) -> np.ndarray:
        """Points on an element to look at: its nearest point to the eye, its centre, and four
        points of its box shrunk towards the centre."""
        lo, hi, c = self.bmin[row], self.bmax[row], self.centre[row]
        shrink = 0.3
        a, b = c + (lo - c) * (1 - shrink), c + (hi - c) * (1 - shrink)
        near = np.clip(eye, lo, hi)
        near = near + (c - near) * 0.05
        return np.array([near, c, [a[0], a[1], c[2]], [b[0], b[1], c[2]], [a[0], b[1], b[2]], [b[0], a[1], a[2]]])

    def line_of_sight(self, eye: np.ndarray, row: int, ignore: np.ndarray | None = None) -> bool:
        """True when at least one sample point of the element is seen from the eye. What the element sits
        in (a window's wall, known or not: one whose box holds the element's centre) does not hide it."""
        targets = self.sample_points(row, eye)
        lo = np.minimum(eye, targets.min(axis=0)) - 1e-6
        hi = np.maximum(eye, targets.max(axis=0)) + 1e-6
        occ = self.occ_rows
        ob_min, ob_max = self.bmin[occ], self.bmax[occ]
        hit = ((ob_max[:, 0] >= lo[0]) & (ob_min[:, 0] <= hi[0]) & (ob_max[:, 1] >= lo[1]) & (ob_min[:, 1] <= hi[1])
               & (ob_max[:, 2] >= lo[2]) & (ob_min[:, 2] <= hi[2]))
        centre = self.centre[row]
        hit &= ~np.all((ob_min <= centre + 1e-6) & (centre - 1e-6 <= ob_max), axis=1)
        rows = occ[hit]
        rows = rows[rows != row]
        if ignore is not None:
            rows = rows[~ignore[rows]]
        tri = self.triangles_of(rows)
        if not len(tri):
            return True
        blocked = _segments_blocked(eye, targets, self.tri_v0[tri], self.tri_e1[tri], self.tri_e2[tri])
        return not bool(blocked.all())

    def triangles_of(self, rows: np.ndarray) -> np.ndarray:
        """Indexes of the occluder triangles of the elements ``rows`` (empty for non-occluders)."""
        if not len(rows):
            return np.zeros(0, int)
        starts, stops = self.tri_start[rows], self.tri_start[rows + 1]
        counts = stops - starts
        total = int(counts.sum())
        if not total:
            return np.zeros(0, int)
        return np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(total)

    def in_view(self, pose: Pose, rows: np.ndarray) -> np.ndarray:
        d = self.centre[rows] - pose.position
        near = self.nearest_points(pose.position, rows) - pose.position
        yaw_c = wrap_deg(np.degrees(np.arctan2(d[:, 1], d[:, 0])) - pose.yaw)
        yaw_n = wrap_deg(np.degrees(np.arctan2(near[:, 1], near[:, 0])) - pose.yaw)
        horiz = np.linalg.norm(d[:, :2], axis=1)
        pitch = np.degrees(np.arctan2(d[:, 2], np.maximum(horiz, 1e-6))) - pose.pitch
        ok_h = (np.abs(yaw_c) <= FOV_H / 2) | (np.abs(yaw_n) <= FOV_H / 2)
        return ok_h & (np.abs(pitch) <= FOV_V / 2 + 20.0)

    def visible_mask(self, pose: Pose, rows: np.ndarray, ignore: np.ndarray | None = None,
                     fov: bool = True) -> np.ndarray:
        out = self.in_view(pose, rows) if fov else np.ones(len(rows), bool)
        for k in np.nonzero(out)[0]:
            out[k] = self.line_of_sight(pose.position, int(rows[k]), ignore)
        return out


def _segments_blocked(origin: np.ndarray, targets: np.ndarray, v0: np.ndarray, e1: np.ndarray,
                      e2: np.ndarray) -> np.ndarray:
    """For each target: does the open segment origin->target cross any triangle? (Möller–Trumbore,
    all segments against all triangles in one pass, cross products written out.)"""
    d = targets - origin  # (S, 3)
    length = np.linalg.norm(d, axis=1)
    d = d / np.maximum(length, 1e-9)[:, None]
    dx, dy, dz = d[:, 0][:, None], d[:, 1][:, None], d[:, 2][:, None]  # (S, 1)
    e1x, e1y, e1z = e1[:, 0], e1[:, 1], e1[:, 2]  # (T,)
    e2x, e2y, e2z = e2[:, 0], e2[:, 1], e2[:, 2]
    px, py, pz = dy * e2z - dz * e2y, dz * e2x - dx * e2z, dx * e2y - dy * e2x  # (S, T)
    det = e1x * px + e1y * py + e1z * pz
    ok = np.abs(det) > 1e-12
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    sx, sy, sz = origin[0] - v0[:, 0], origin[1] - v0[:, 1], origin[2] - v0[:, 2]  # (T,)
    u = (sx * px + sy * py + sz * pz) * inv
    qx, qy, qz = sy * e1z - sz * e1y, sz * e1x - sx * e1z, sx * e1y - sy * e1x  # (T,)
    v = (dx * qx + dy * qy + dz * qz) * inv
    t = (e2x * qx + e2y * qy + e2z * qz) * inv
    hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 1e-4) & (t < length[:, None] - 1e-3)
    return hit.any(axis=1) & (length > 1e-9)


def convex_hull(points: np.ndarray) -> np.ndarray:
    """Counter-clockwise convex hull of plan points (K, 2) by the monotone chain; fewer than three
    distinct points come back as they are."""
    pts = np.unique(np.asarray(points, float).reshape(-1, 2), axis=0)
    if len(pts) < 3:
        return pts

    def half(seq: np.ndarray) -> list[np.ndarray]:
        chain: list[np.ndarray] = []
        for p in seq:
            while len(chain) >= 2 and _cross(chain[-1] - chain[-2], p - chain[-2]) <= 0:
                chain.pop()
            chain.append(p)
        return chain

    lower, upper = half(pts), half(pts[::-1])
    return np.array(lower[:-1] + upper[:-1])


def _cross(a: np.ndarray, b: np.ndarray) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def inside_depth(hull: np.ndarray, point: np.ndarray) -> float:
    """Distance from a plan point to the hull's boundary, positive inside, negative outside."""
    if len(hull) < 3:
        return -math.inf
    a, b = hull, np.roll(hull, -1, axis=0)
    edge = b - a
    length = np.linalg.norm(edge, axis=1)
    # Signed distance to each edge's line: positive on the inner (left) side of a CCW hull.
    side = (edge[:, 0] * (point[1] - a[:, 1]) - edge[:, 1] * (point[0] - a[:, 0])) / np.maximum(length, 1e-12)
    return float(side.min())
