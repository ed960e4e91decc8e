"""Repeated geometry: which elements draw the same shape as an element before them, and turned how.

Two elements are repeats when, centred on their boxes, one is the other turned by a quarter-turn
rotation about the axes (a signed permutation matrix with det +1, the identity first) or not at all:
the same number of triangles of each colour, the same vertices (each within ``tol``), and the same
surface: every triangle of one is a triangle of the other (same corners, same winding, same colour),
or else its centre and the midpoints of its edges lie on the other's surface of that colour (within
``tol``). The latter because the tessellator triangulates a planar face afresh for every placement:
a chair turned a quarter turn has the same vertices and surface, but some faces cut along the other
diagonal. Drawing one with the other's triangles then draws the same surface.

Only axis-aligned turns are tried, so a repeat's box, drawn through its node, is exactly its box
(elements turned by other angles keep their own mesh). Candidates are found by hashing what cannot
change under such a turn (the colours' triangle counts, the vertex count and the sorted box extents,
bucketed to a millimetre, probing the neighbouring bucket near an edge), then sifted by per-colour
area and first moment of area, which every candidate turn must keep, before the full comparison.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

#: Two elements share a mesh when every vertex of one, turned, lies this close to the other's (metres).
SHARE_TOLERANCE_M = 5e-5
_EXTENT_CELL_M = 1e-3
# A direction with no simple relation to the axes: vertices are put in order along it.
_PROBE = np.array([1.0, np.sqrt(2.0) - 1.0, np.sqrt(3.0) - 1.5])


def turn_matrix(perm: tuple[int, int, int], signs: tuple[float, float, float]) -> np.ndarray:
    """The rotation R with R[k, perm[k]] = signs[k], so (R @ p)[k] = signs[k] * p[perm[k]]."""
    r = np.zeros((3, 3))
    r[range(3), perm] = signs
    return r


def quarter_turns() -> list[tuple[tuple[int, int, int], tuple[float, float, float]]]:
    """The 24 rotations that map each axis onto an axis, as (perm, signs) for ``turn_matrix``; the
    identity first."""
    out: list[tuple[tuple[int, int, int], tuple[float, float, float]]] = []
    for p in itertools.permutations(range(3)):
        for s in itertools.product((1.0, -1.0), repeat=3):
            perm, signs = (p[0], p[1], p[2]), (s[0], s[1], s[2])
            if np.linalg.det(turn_matrix(perm, signs)) > 0:
                out.append((perm, signs))
    out.sort(key=lambda ps: (ps[0] != (0, 1, 2), [-s for s in ps[1]]))
    return out


_TURNS = quarter_turns()


@dataclass
class Shapes:
    """Every element's geometry, each centred on its box (any frame, metres): element i has faces
    ``faces[face_offsets[i]:face_offsets[i+1]]`` (indices into its own vertices) sorted by colour
    (``material``), and vertices ``verts[vert_offsets[i]:vert_offsets[i+1]]``; ``triangles`` gathers
    the faces' corners (a chunk at a time: a large building's would take hundreds of megabytes)."""

    faces: np.ndarray  # (F, 3) indices into the element's own vertices
    material: np.ndarray  # (F,)
    face_offsets: np.ndarray  # (n + 1,)
    verts: np.ndarray  # (V, 3)
    vert_offsets: np.ndarray  # (n + 1,)
    extents: np.ndarray  # (n, 3) box sizes

    def triangles(self, start: int, stop: int) -> np.ndarray:
        """The corners of faces ``start:stop``, shape (F, 3, 3)."""
        element = np.searchsorted(self.face_offsets, np.arange(start, stop), side="right") - 1
        return self.triangles_of(np.arange(start, stop), element)

    def triangles_of(self, faces: np.ndarray, element: np.ndarray) -> np.ndarray:
        """The corners of the faces with these indices, each of the element given, shape (F, 3, 3)."""
        return self.verts[self.faces[faces] + self.vert_offsets[element][:, None]]


@dataclass
class Repeats:
    """For each element, the element whose mesh draws it (itself when its own is written) and the
    rotation that turns that mesh into it (None: no turn)."""

    source: np.ndarray
    turns: list[np.ndarray | None]

    def written(self) -> np.ndarray:
        """Whether each element's own mesh is written."""
        return self.source == np.arange(len(self.source))


_PERMS = np.array([p for p, _ in _TURNS])  # (24, 3)
_SIGNS = np.array([s for _, s in _TURNS])  # (24, 3)


@dataclass
class _Measures:
    """Per (element, colour) run of faces: area, summed perimeters, first moment of area; per element
    its runs and its bucket key (each colour's triangle count, and the vertex count)."""

    run_offsets: np.ndarray  # (n + 1,) element i has runs run_offsets[i]:run_offsets[i+1]
    area: np.ndarray
    edges: np.ndarray
    moment: np.ndarray  # (runs, 3)
    keys: list[bytes]


def _measures(shapes: Shapes) -> _Measures:
    n = len(shapes.face_offsets) - 1
    fo = shapes.face_offsets
    element = np.repeat(np.arange(n, dtype=np.int32), np.diff(fo))
    brk = np.flatnonzero((np.diff(element) != 0) | (np.diff(shapes.material) != 0)) + 1
    starts = np.concatenate([[0], brk]).astype(np.int64) if len(element) else np.zeros(0, np.int64)
    run_offsets = np.searchsorted(starts, fo, side="left")
    area = np.zeros(len(starts))
    edges = np.zeros(len(starts))
    moment = np.zeros((len(starts), 3))
    chunk = 1 << 15  # faces at a time, to bound the float64 temporaries (some 15 MB)
    for a in range(0, len(element), chunk):
        t = shapes.triangles(a, min(a + chunk, len(element))).astype(np.float64)
        f_area = np.linalg.norm(np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0]), axis=1) / 2.0
        f_edges = np.linalg.norm(t - np.roll(t, 1, axis=1), axis=2).sum(axis=1)
        f_moment = f_area[:, None] * t.mean(axis=1)
        run = np.searchsorted(starts, np.arange(a, a + len(t)), side="right") - 1
        area += np.bincount(run, f_area, len(starts))
        edges += np.bincount(run, f_edges, len(starts))
        for c in range(3):
            moment[:, c] += np.bincount(run, f_moment[:, c], len(starts))
    run_mat = shapes.material[starts] if len(starts) else np.zeros(0, np.int64)
    run_len = np.diff(np.append(starts, len(element)))
    n_verts = np.diff(shapes.vert_offsets)
    keys = []
    for i in range(n):
        r0, r1 = int(run_offsets[i]), int(run_offsets[i + 1])
        keys.append(hashlib.blake2b(np.concatenate([run_mat[r0:r1], run_len[r0:r1], n_verts[i:i + 1]])
                                    .astype(np.int64).tobytes(), digest_size=16).digest())
    return _Measures(run_offsets, area, edges, moment, keys)


@dataclass
class _Shape:
    element: int
    extent: np.ndarray
    area: np.ndarray  # per colour
    edges: np.ndarray  # per colour: the triangles' perimeters, summed
    moment: np.ndarray  # (colours, 3) first moment of area
    verts: np.ndarray  # sorted along _PROBE
    verts_order: np.ndarray  # verts = own vertices[verts_order]
    tris: np.ndarray  # (F, 3, 3)
    faces: np.ndarray  # (F, 3) into own vertices, each the first of the vertices at its place
    material: np.ndarray  # (F,)
    size: float
    first: np.ndarray  # own vertex -> the first own vertex at the same place (meshes repeat some)
    #: sets of triangles (as own vertex indices) found to cover the same surface, or not
    checked: dict[bytes, bool] = field(default_factory=dict)


def _probe_order(v: np.ndarray) -> np.ndarray:
    return np.argsort(v @ _PROBE, kind="stable")


def _match_points(mine: np.ndarray, other: np.ndarray, tol: float) -> np.ndarray | None:
    """For each point of ``mine`` the index of a point of ``other`` within ``tol`` (in each coordinate),
    or None when one has none; both sorted along ``_PROBE`` (nearly tied points may come either way)."""
    if np.abs(mine - other).max() <= tol:
        return np.arange(len(mine))
    key = other @ _PROBE
    reach = tol * float(np.abs(_PROBE).sum())
    at = mine @ _PROBE
    if np.abs(at - key).max() > reach:  # sorted, so the k-th of one is the k-th of the other
        return None
    lo = np.searchsorted(key, at - reach, side="left")
    hi = np.searchsorted(key, at + reach, side="right")
    found = np.full(len(mine), -1)
    for step in range(int((hi - lo).max(initial=0))):
        j = np.minimum(lo + step, len(other) - 1)
        hit = (found < 0) & (lo + step < hi) & (np.abs(other[j] - mine).max(axis=1) <= tol)
        found[hit] = j[hit]
    return found if bool((found >= 0).all()) else None


def _winding_rows(faces: np.ndarray, material: np.ndarray, n_verts: int) -> np.ndarray:
    """(colour, corners from the lowest index on, winding kept) per face, as comparable keys."""
    first = np.argmin(faces, axis=1)
    turn = (first[:, None] + np.arange(3)) % 3
    f = np.take_along_axis(faces, turn, axis=1).astype(np.int64)
    colours = int(material.max(initial=0)) + 1
    if float(n_verts) ** 3 * colours < 2.0**62:
        return ((material.astype(np.int64) * n_verts + f[:, 0]) * n_verts + f[:, 1]) * n_verts + f[:, 2]
    rows = np.ascontiguousarray(np.column_stack([material, f]), np.int64)
    return rows.view(np.dtype((np.void, 32))).ravel()


def _on_surface(points: np.ndarray, facing: np.ndarray, tris: np.ndarray, tol: float) -> bool:
    """Whether every point lies within ``tol`` of one of the triangles (over its inside, near its plane)
    that faces the same way (``facing``: a normal per point)."""
    if len(points) and not len(tris):
        return False
    a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
    n = np.cross(b - a, c - a)
    area2 = np.linalg.norm(n, axis=1)
    keep = area2 > 1e-12
    a, b, c, area2 = a[keep], b[keep], c[keep], area2[keep]
    unit = n[keep] / area2[:, None]
    slack = tol / np.maximum(np.sqrt(area2), 1e-9)  # barycentric slack, about tol in length
    # barycentric weights of a point's projection q are linear in q: w_a = (b - q) x (c - q) . unit / area2
    ga = np.cross(unit, c - b) / area2[:, None]  # gradient of w_a in q (in-plane)
    gb = np.cross(unit, a - c) / area2[:, None]
    h0, a0, b0 = (a * unit).sum(axis=1), (b * ga).sum(axis=1), (c * gb).sum(axis=1)
    # only a point within a triangle's box can touch it: the points in each triangle's slab along
    # _PROBE (a range of the points sorted along it; faces square to an axis spread along it), then
    # the box, then the triangle
    lo, hi = tris.min(axis=1)[keep] - tol, tris.max(axis=1)[keep] + tol
    reach = tol * float(np.abs(_PROBE).sum())
    along = np.stack([a @ _PROBE, b @ _PROBE, c @ _PROBE], axis=1)
    x = points @ _PROBE
    by_x = np.argsort(x, kind="stable")
    xs = x[by_x]
    start = np.searchsorted(xs, along.min(axis=1) - reach, side="left")
    count = np.searchsorted(xs, along.max(axis=1) + reach, side="right") - start
    found = np.zeros(len(points), bool)
    t0 = 0
    while t0 < len(a):
        # triangles t0:t1, some 65,000 pairs at a time
        t1 = t0 + max(1, int(np.searchsorted(np.cumsum(count[t0:]), 1 << 16)))
        n = count[t0:t1]
        ti = np.repeat(np.arange(t0, t1), n)
        pi = by_x[start[ti] + np.arange(len(ti)) - np.repeat(np.cumsum(n) - n, n)]
        q = points[pi]
        near = np.all((q >= lo[ti]) & (q <= hi[ti]), axis=1)
        pi, ti, q = pi[near], ti[near], q[near]
        height = (q * unit[ti]).sum(axis=1) - h0[ti]
        w_a = (q * ga[ti]).sum(axis=1) - a0[ti]
        w_b = (q * gb[ti]).sum(axis=1) - b0[ti]
        sl = slack[ti]
        hit = (w_a >= -sl) & (w_b >= -sl) & (1.0 - w_a - w_b >= -sl) & (np.abs(height) <= tol)
        hit &= (facing[pi] * unit[ti]).sum(axis=1) > 0.0
        found[pi[hit]] = True
        t0 = t1
    return bool(found.all())


def _same_surface(me: _Shape, other: _Shape, order: np.ndarray, found: np.ndarray,
                  perm: tuple[int, int, int], signs: tuple[float, float, float], tol: float) -> bool:
    """Whether ``me``, turned, has ``other``'s triangles (see the module's doc). ``order`` is my turned
    vertices' order along _PROBE, ``found`` the other's vertex (in its probe order) for each of them."""
    to_other = np.empty(len(order), np.int64)
    to_other[order] = other.first[other.verts_order[found]]  # my vertex -> the other's own index
    mapped = to_other[me.faces]
    if np.array_equal(mapped, other.faces):  # the same triangles in the same order (colours sorted alike)
        return True
    mine = _winding_rows(mapped, me.material, len(order))
    theirs = _winding_rows(other.faces, other.material, len(order))
    mine_sorted = np.sort(mine)
    if np.array_equal(mine_sorted, np.sort(theirs)):  # the same triangles in another order
        return True
    # repeats of one element tend to come cut the same ways: their triangle sets are checked once
    key = hashlib.blake2b(mine_sorted.tobytes(), digest_size=16).digest()
    if key not in other.checked:
        other.checked[key] = _covers(me, other, mine, theirs, perm, signs, tol)
    return other.checked[key]


#: How many probes a large set of faces cut otherwise is tried with before all of them (see ``_covers``).
_PROBE_SAMPLE = 48


def _covers(me: _Shape, other: _Shape, mine: np.ndarray, theirs: np.ndarray, perm: tuple[int, int, int],
            signs: tuple[float, float, float], tol: float) -> bool:
    """Whether my triangles that the other lacks lie on the other's surface (see the module's doc)."""
    missing = ~np.isin(mine, theirs)
    if not missing.any():
        return True
    # the faces cut otherwise cover the same part of the surface as the other's faces that I lack
    spare = ~np.isin(theirs, mine)
    tris = me.tris[missing][:, :, perm] * np.asarray(signs)
    colours = np.tile(me.material[missing], 4)
    probes = np.concatenate([tris.mean(axis=1), *((tris[:, k] + tris[:, (k + 1) % 3]) / 2.0 for k in range(3))])
    facing = np.tile(np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0]), (4, 1))
    for colour in np.unique(colours):
        at = np.flatnonzero(colours == colour)
        target = other.tris[spare & (other.material == colour)]
        # a few probes spread over the set first: where the surfaces differ, most probes miss, and a
        # large set (thousands of probes against a thousand triangles) is not searched through
        few = at[::max(1, len(at) // _PROBE_SAMPLE)] if len(at) > 4 * _PROBE_SAMPLE else at[:0]
        if len(few) and not _on_surface(probes[few], facing[few], target, tol):
            return False
        if not _on_surface(probes[at], facing[at], target, tol):
            return False
    return True


def _shape(shapes: Shapes, m: _Measures, i: int) -> _Shape:
    r = slice(int(m.run_offsets[i]), int(m.run_offsets[i + 1]))
    f = slice(int(shapes.face_offsets[i]), int(shapes.face_offsets[i + 1]))
    v = shapes.verts[int(shapes.vert_offsets[i]):int(shapes.vert_offsets[i + 1])].astype(np.float64)
    ext = shapes.extents[i]
    order = _probe_order(v)
    rows = np.ascontiguousarray(v).view(np.dtype((np.void, 24))).ravel()
    _, at, back = np.unique(rows, return_index=True, return_inverse=True)
    first = at[back.reshape(-1)]
    return _Shape(i, ext, m.area[r], m.edges[r], m.moment[r], v[order], order, v[shapes.faces[f]],
                  first[shapes.faces[f]], shapes.material[f], float(np.linalg.norm(ext)), first)


def _turn_onto(me: _Shape, other: _Shape, tol: float) -> np.ndarray | None:
    """The rotation R that turns ``me`` into ``other`` (see the module's doc), or None."""
    # moving every vertex by tol changes a triangle's area by about tol times its perimeter
    area_tol = 2.0 * tol * me.edges
    if np.any(np.abs(me.area - other.area) > area_tol):
        return None
    moment_tol = (area_tol * me.size + me.area * tol)[:, None, None]
    ok = np.abs(me.extent[_PERMS] - other.extent).max(axis=1) <= 2 * tol
    ok &= (np.abs(me.moment[:, _PERMS] * _SIGNS - other.moment[:, None, :]) <= moment_tol).all(axis=(0, 2))
    own = me.verts[np.argsort(me.verts_order)]  # my vertices in their own order
    for k in np.flatnonzero(ok):
        perm, signs = _TURNS[k]
        turned = own[:, perm] * signs
        order = me.verts_order if k == 0 else _probe_order(turned)
        found = _match_points(turned[order], other.verts, tol)
        if found is not None and _same_surface(me, other, order, found, perm, signs, tol):
            return turn_matrix(perm, signs)
    return None


def _cells(extent: np.ndarray) -> list[tuple[int, ...]]:
    """Bucket keys of an extent (sorted): its own cell first, then those it lies near the edge of."""
    x = np.sort(extent)[::-1] / _EXTENT_CELL_M
    options = []
    for v in x.tolist():
        b = round(v)
        near = v - b
        options.append((b, b + (1 if near > 0 else -1)) if abs(abs(near) - 0.5) < 0.1 else (b,))
    return [tuple(c) for c in itertools.product(*options)]


def find_repeats(shapes: Shapes, tol: float = SHARE_TOLERANCE_M, known: Repeats | None = None,
                 given: Mapping[int, tuple[int, np.ndarray | None]] | None = None) -> Repeats:
    """Which elements repeat an earlier one (see the module's doc). ``known``: the answer for the first
    ``len(known.source)`` elements, the same shapes in the same order (an element's answer depends only
    on those before it), taken as it is. ``given``: element -> (an earlier element, the turn T with its
    centred mesh = T @ the earlier one's; None: no turn), known without a search (the tessellator placed
    one from the other's mesh)."""
    n = len(shapes.face_offsets) - 1
    source = np.arange(n)
    turns: list[np.ndarray | None] = [None] * n
    buckets: dict[tuple[bytes, tuple[int, ...]], list[_Shape | int]] = {}
    m = _measures(shapes)
    empty = np.diff(shapes.face_offsets) == 0
    k = 0 if known is None else len(known.source)
    for i in range(min(k, n)):
        assert known is not None
        if known.source[i] != i:
            source[i], turns[i] = known.source[i], known.turns[i]
        elif not empty[i]:  # its _Shape is made when an element is compared with it
            buckets.setdefault((m.keys[i], _cells(shapes.extents[i])[0]), []).append(i)
    for i in range(k, n):
        if empty[i]:
            continue
        if given and i in given and not empty[given[i][0]]:
            j, turn = given[i]
            source[i] = source[j]
            before = turns[j]
            both = turn if before is None else (before if turn is None else turn @ before)
            turns[i] = None if both is None or np.array_equal(both, np.eye(3)) else both
            continue
        cells = _cells(shapes.extents[i])
        me: _Shape | None = None
        found: tuple[_Shape, np.ndarray] | None = None
        for cell in cells:
            bucket = buckets.get((m.keys[i], cell), [])
            for b, other in enumerate(bucket):
                if isinstance(other, int):
                    other = bucket[b] = _shape(shapes, m, other)
                me = me or _shape(shapes, m, i)
                r = _turn_onto(me, other, tol)
                if r is not None:
                    found = (other, r)
                    break
            if found:
                break
        if found is None:
            buckets.setdefault((m.keys[i], cells[0]), []).append(me or i)
            continue
        other, r = found
        source[i] = other.element
        if not np.array_equal(r, np.eye(3)):
            turns[i] = r.T  # R @ mine ~= other's, so mine ~= R.T @ other's
    return Repeats(source, turns)
