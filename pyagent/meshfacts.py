"""Per-element facts from the packed meshes, computed over all elements' arrays at once: bounding box,
surface area, enclosed volume, footprint and the colour covering the most faces. The per-element sums are taken
over each element's own slice, as a per-element computation would, so the numbers are the same."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pyagent.tessellate import MeshSet

CHUNK_FACES = 1 << 16


@dataclass
class MeshFacts:
    bbox_min: np.ndarray  # (N, 3) float64
    bbox_max: np.ndarray  # (N, 3) float64
    area: np.ndarray  # (N,) surface area
    volume: np.ndarray  # (N,) enclosed volume (divergence theorem), >= 0
    #: (N,) area in plan: half the faces' area projected on the ground (a closed body covers its footprint
    #: once from above and once from below; an L-shaped room's is its L, not its box)
    footprint: np.ndarray
    colour: np.ndarray  # (N,) index into the material table of the colour on the most faces (ties: lowest)
    #: (N,) half the area of the faces that lie parallel to the element's largest face: of a slab, its top (its
    #: area without its edges); of a wall, one side; of a pitched roof slab, its slope, not its plan
    face_area: np.ndarray

    @classmethod
    def of(cls, meshes: MeshSet) -> MeshFacts:
        n = len(meshes.ids)
        vo, fo = meshes.vert_offsets, meshes.face_offsets
        if n == 0:
            z3, z1 = np.zeros((0, 3)), np.zeros(0)
            return cls(z3, z3, z1, z1, z1, np.zeros(0, np.int64), z1)
        starts = vo[:-1]
        bmin = np.minimum.reduceat(meshes.verts, starts, axis=0).astype(float)
        bmax = np.maximum.reduceat(meshes.verts, starts, axis=0).astype(float)
        area = np.empty(n)
        volume = np.empty(n)
        footprint = np.empty(n)
        colour = np.zeros(n, np.int64)
        face_area = np.empty(n)
        n_mat = max(len(meshes.materials), int(meshes.face_material.max()) + 1 if len(meshes.face_material) else 0, 1)
        first = 0
        while first < n:  # in chunks of elements, to keep the float64 temporaries small
            last = int(np.searchsorted(fo, fo[first] + CHUNK_FACES, side="right")) - 1
            last = min(max(last, first + 1), n)
            fs = slice(fo[first], fo[last])
            owner = np.repeat(np.arange(last - first), np.diff(fo[first:last + 1]))
            # faces hold element-local indices: make them global to gather the chunk's triangles at once
            tris = meshes.verts[meshes.faces[fs] + vo[first:last][owner][:, None]]
            a, b, c = tris[:, 0].astype(float), tris[:, 1].astype(float), tris[:, 2].astype(float)
            cross = np.cross(b - a, c - a)
            norms = np.linalg.norm(cross, axis=1)
            plan = np.abs(cross[:, 2])
            triple = np.einsum("ij,ij->i", a, np.cross(b, c))
            base = fo[first]
            for i in range(first, last):
                s = slice(fo[i] - base, fo[i + 1] - base)
                area[i] = 0.5 * float(norms[s].sum())
                volume[i] = abs(float(triple[s].sum()) / 6.0)
                footprint[i] = 0.25 * float(plan[s].sum())
                face_area[i] = _face_area(cross[s], norms[s])
            counts = np.bincount(owner * n_mat + meshes.face_material[fs], minlength=(last - first) * n_mat)
            colour[first:last] = counts.reshape(last - first, n_mat).argmax(axis=1)
            first = last
        return cls(bmin, bmax, area, volume, footprint, colour, face_area)


#: Faces within about 18 degrees of the largest face's plane count as its side.
_PARALLEL_COS = 0.95


def _face_area(cross: np.ndarray, norms: np.ndarray) -> float:
    """Half the area of the triangles (their cross products and those products' lengths) that lie parallel to
    the largest one, either way up."""
    if not len(norms) or float(norms.max()) <= 0.0:
        return 0.0
    main = cross[int(norms.argmax())] / float(norms.max())
    keep = np.abs(cross @ main) >= _PARALLEL_COS * norms
    return 0.25 * float(norms[keep].sum())


def plan_extents(meshes: MeshSet, x_axes: np.ndarray) -> np.ndarray:
    """(N, 2): each element's extent along its own X axis in plan and across it (``x_axes``: (N, 2) unit
    vectors in plan, one per element), over all elements' vertices at once, in chunks of elements."""
    n = len(meshes.ids)
    out = np.zeros((n, 2))
    vo = meshes.vert_offsets
    first = 0
    while first < n:
        last = int(np.searchsorted(vo, vo[first] + CHUNK_FACES, side="right")) - 1
        last = min(max(last, first + 1), n)
        owner = np.repeat(np.arange(first, last), np.diff(vo[first:last + 1]))
        xy = meshes.verts[vo[first]:vo[last], :2].astype(float)
        ax = x_axes[owner]
        along = xy[:, 0] * ax[:, 0] + xy[:, 1] * ax[:, 1]
        across = xy[:, 1] * ax[:, 0] - xy[:, 0] * ax[:, 1]
        starts = vo[first:last] - vo[first]
        out[first:last, 0] = np.maximum.reduceat(along, starts) - np.minimum.reduceat(along, starts)
        out[first:last, 1] = np.maximum.reduceat(across, starts) - np.minimum.reduceat(across, starts)
        first = last
    return out
