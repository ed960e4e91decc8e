"""Binary glTF (.glb) for the engine: one node per element, named by its GlobalId, Y up.

Each element node sits at the element's centre (the centre of its box, so the engine rotates it
about its own centre) and draws a mesh with a primitive per colour. Coordinates go through
``pyagent.frames``.

Repeated geometry is written once (``share``, see ``pyagent.instancing``): an element that repeats one
written before gets a node that refers to that element's mesh (plain glTF: nodes may share a mesh),
with the quarter turn, if any, in the node's matrix. Elements drawn once keep their own mesh and a
node that only translates, as without sharing.

The writer works on every element at once with numpy and writes the JSON and the binary container
itself (a glTF library's object model takes seconds per thousand elements).
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pyagent.instancing import Repeats, Shapes, find_repeats

_FLOAT, _ARRAY_BUFFER = 5126, 34962
_CHUNK_FACES = 1 << 18


@dataclass
class GlbPart:
    """One element (or prop): IFC-frame triangles with a colour index per face."""

    name: str
    verts: np.ndarray  # (V, 3) IFC frame
    faces: np.ndarray  # (F, 3) indices into verts
    face_material: np.ndarray  # (F,) indices into the material palette
    extras: dict[str, str] = field(default_factory=dict)


@dataclass
class GlbStats:
    """What a ``write_glb`` wrote."""

    elements: int
    meshes: int  # distinct meshes in the file
    shared: int  # element nodes drawing a mesh written for another element
    turned: int  # of those, nodes whose matrix turns the mesh
    triangles: int  # triangles in the file
    bytes: int
    #: which element draws which one's mesh (``known`` for a later write that starts with the same parts)
    repeats: Repeats | None = field(default=None, repr=False)


def _material_json(palette: np.ndarray) -> list[dict[str, Any]]:
    out = []
    for rgba in palette:
        transparent = float(rgba[3]) < 0.999
        out.append({"pbrMetallicRoughness": {"baseColorFactor": [float(c) for c in rgba], "metallicFactor": 0.0,
                                             "roughnessFactor": 0.9},
                    "alphaMode": "BLEND" if transparent else "OPAQUE", "doubleSided": True})
    return out


def _node_matrix(basis: np.ndarray, translation: np.ndarray) -> list[float]:
    """glTF's column-major 4x4 matrix of a basis and a translation."""
    m = np.eye(4)
    m[:3, :3] = basis
    m[:3, 3] = translation
    return [float(v) for v in m.T.reshape(-1)]


def _write_container(path: Path, doc: dict[str, Any], chunks: list[np.ndarray]) -> int:
    """Write the GLB container (header, JSON chunk space-padded, BIN chunk of ``chunks``) to ``path``
    through a temporary file; returns its size."""
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    n_bin = sum(c.nbytes for c in chunks)
    pad = -n_bin % 4
    total = 12 + 8 + len(text) + (8 + n_bin + pad if n_bin else 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as f:
        f.write(struct.pack("<4sII", b"glTF", 2, total))
        f.write(struct.pack("<I4s", len(text), b"JSON"))
        f.write(text)
        if n_bin:
            f.write(struct.pack("<I4s", n_bin + pad, b"BIN\0"))
            for c in chunks:
                f.write(np.ascontiguousarray(c).data)
            f.write(b"\0" * pad)
    tmp.replace(path)
    return total


def _offsets(counts: list[int]) -> np.ndarray:
    out = np.zeros(len(counts) + 1, np.int64)
    out[1:] = np.cumsum(counts)
    return out


def _shapes(parts: list[GlbPart], recentre: bool) -> tuple[Shapes, np.ndarray]:
    """Every part's triangles in Godot's frame (float32: the frames only swap and negate axes, so the
    float32 vertices stay exact), each centred on its box and sorted by colour; and the centres. Built a
    chunk of faces at a time, with 32-bit indices, to keep the temporaries small (a large building has
    millions of faces)."""
    n = len(parts)
    fo = _offsets([len(p.faces) for p in parts])
    vo = _offsets([len(p.verts) for p in parts])
    verts = (np.concatenate([np.asarray(p.verts, np.float32) for p in parts]) if n
             else np.zeros((0, 3), np.float32))
    # pyagent.frames.ifc_to_godot, in float32 (exact: a swap and a negation), in place
    y = verts[:, 1].copy()
    verts[:, 1] = verts[:, 2]
    verts[:, 2] = -y
    del y
    faces = (np.concatenate([np.asarray(p.faces, np.int32) for p in parts]) if fo[-1]
             else np.zeros((0, 3), np.int32))
    element = np.repeat(np.arange(n, dtype=np.int32), np.diff(fo))
    material = (np.concatenate([np.asarray(p.face_material, np.int32) for p in parts]) if fo[-1]
                else np.zeros(0, np.int32))
    # by element, then colour (stable): most elements have one colour and come sorted already
    down = np.flatnonzero((np.diff(material) < 0) & (np.diff(element) == 0))
    for e in np.unique(element[down]).tolist():  # the elements whose colours are not sorted yet, each in place
        a, b = int(fo[e]), int(fo[e + 1])
        order = np.argsort(material[a:b], kind="stable")
        faces[a:b] = faces[a:b][order]
        material[a:b] = material[a:b][order]
    del down
    has = np.diff(fo) > 0
    lo = np.full((n, 3), np.inf, np.float32)
    hi = np.full((n, 3), -np.inf, np.float32)
    for a in range(0, len(faces), _CHUNK_FACES):  # each element's box, over its faces' corners
        b = min(a + _CHUNK_FACES, len(faces))
        e = element[a:b]
        corners = verts[faces[a:b] + vo[:-1][e][:, None]].reshape(-1, 3)
        starts = np.concatenate([[0], np.flatnonzero(np.diff(e)) + 1])
        np.minimum.at(lo, e[starts], np.minimum.reduceat(corners, 3 * starts, axis=0))
        np.maximum.at(hi, e[starts], np.maximum.reduceat(corners, 3 * starts, axis=0))
    lo[~has] = 0.0
    hi[~has] = 0.0
    # the centre rounded to float32, so that mesh + translation gives back the float32 vertices
    centre = ((lo.astype(np.float64) + hi) / 2.0).astype(np.float32) if recentre else np.zeros((n, 3), np.float32)
    verts -= np.repeat(centre, np.diff(vo), axis=0)
    return Shapes(faces, material, fo, verts, vo, (hi - lo).astype(np.float64)), centre


def write_glb(parts: Iterable[GlbPart], palette: np.ndarray, path: Path, root_name: str = "building",
              recentre: bool = True, share: bool = True, known: Repeats | None = None,
              copies: Mapping[str, tuple[str, np.ndarray]] | None = None) -> GlbStats:
    """Write a .glb with flat-shaded meshes; each part becomes a node at its centre (or the origin).
    With ``share`` (and ``recentre``), repeated geometry is written once (see the module's doc);
    ``known``: the repeats of an earlier write whose parts were the first of these (``GlbStats.repeats``),
    not looked for again; ``copies``: part name -> (an earlier part's name, the quarter turn in the IFC
    frame that makes its mesh this one's), taken without a search (``MeshSet.copy_of``)."""
    parts = list(parts)
    n = len(parts)
    shapes, centre = _shapes(parts, recentre)
    fo = shapes.face_offsets
    given = _given(parts, copies) if copies else None
    rep = (find_repeats(shapes, known=known, given=given) if share and recentre
           else Repeats(np.arange(n), [None] * n))
    element = np.repeat(np.arange(n, dtype=np.int32), np.diff(fo))
    keep = rep.written()[element]
    tris = shapes.triangles_of(np.flatnonzero(keep), element[keep])
    material = shapes.material[keep]
    k_elem = element[keep]
    del shapes, element, keep  # every element's faces and vertices: only the written ones are needed now
    # face normals in float64, a chunk of faces at a time (a large building's would be its largest array)
    normals = np.empty((len(tris), 3), np.float32)
    drawn = np.ones(len(tris), bool)
    for a in range(0, len(tris), _CHUNK_FACES):
        t64 = tris[a:a + _CHUNK_FACES].astype(np.float64)
        n64 = np.cross(t64[:, 1] - t64[:, 0], t64[:, 2] - t64[:, 0])
        length = np.linalg.norm(n64, axis=1, keepdims=True)
        drawn[a:a + len(t64)] = length[:, 0] > 1e-12  # a triangle of no area draws nothing and has no normal
        normals[a:a + len(t64)] = n64 / np.where(length > 1e-12, length, 1.0)
        del t64, n64, length
    if not drawn.all():
        tris, material, k_elem, normals = tris[drawn], material[drawn], k_elem[drawn], normals[drawn]
    positions = tris.reshape(-1, 3)
    normal_data = np.repeat(normals, 3, axis=0)
    # A primitive per run of (element, colour) among the written faces.
    brk = np.flatnonzero((np.diff(k_elem) != 0) | (np.diff(material) != 0)) + 1
    run_start = np.concatenate([[0], brk]).astype(np.int64) if len(k_elem) else np.zeros(0, np.int64)
    run_end = np.append(run_start[1:], len(k_elem)).astype(np.int64) if len(k_elem) else run_start
    accessors: list[dict[str, Any]] = []
    mesh_of: dict[int, int] = {}
    meshes: list[dict[str, Any]] = []
    if len(run_start):
        p_lo = np.minimum.reduceat(positions, 3 * run_start, axis=0).tolist()
        p_hi = np.maximum.reduceat(positions, 3 * run_start, axis=0).tolist()
        run_elem = k_elem[run_start].tolist()
        run_mat = material[run_start].tolist()
    for r, (a, b) in enumerate(zip(run_start.tolist(), run_end.tolist(), strict=True)):
        i = run_elem[r]
        if i not in mesh_of:
            mesh_of[i] = len(meshes)
            meshes.append({"primitives": []})
        accessors.append({"bufferView": 0, "byteOffset": 36 * a, "componentType": _FLOAT, "count": 3 * (b - a),
                          "type": "VEC3", "min": p_lo[r], "max": p_hi[r]})
        accessors.append({"bufferView": 1, "byteOffset": 36 * a, "componentType": _FLOAT, "count": 3 * (b - a),
                          "type": "VEC3"})
        meshes[mesh_of[i]]["primitives"].append(
            {"attributes": {"POSITION": len(accessors) - 2, "NORMAL": len(accessors) - 1}, "material": run_mat[r]})
    nodes: list[dict[str, Any]] = [{"name": root_name, "children": list(range(1, n + 1))}]
    shared = turned = 0
    centres = centre.astype(np.float64).tolist()
    for i, part in enumerate(parts):
        node: dict[str, Any] = {"name": part.name}
        src = int(rep.source[i])
        if src in mesh_of:
            node["mesh"] = mesh_of[src]
            shared += src != i
        turn = rep.turns[i]
        if turn is not None:
            node["matrix"] = _node_matrix(turn, centre[i])
            turned += 1
        elif recentre:
            node["translation"] = centres[i]
        if part.extras:
            node["extras"] = dict(part.extras)
        nodes.append(node)
    if n == 0:
        del nodes[0]["children"]
    doc: dict[str, Any] = {"asset": {"generator": "pyagent", "version": "2.0"}, "scene": 0,
                           "scenes": [{"nodes": [0]}], "nodes": nodes}
    if meshes:
        doc["meshes"] = meshes
    if len(palette):
        doc["materials"] = _material_json(palette)
    chunks: list[np.ndarray] = []
    if accessors:
        chunks = [positions, normal_data]
        doc["accessors"] = accessors
        doc["bufferViews"] = [
            {"buffer": 0, "byteOffset": 0, "byteLength": positions.nbytes, "byteStride": 12, "target": _ARRAY_BUFFER},
            {"buffer": 0, "byteOffset": positions.nbytes, "byteLength": normal_data.nbytes, "byteStride": 12,
             "target": _ARRAY_BUFFER}]
        doc["buffers"] = [{"byteLength": positions.nbytes + normal_data.nbytes}]
    size = _write_container(path, doc, chunks)
    return GlbStats(n, len(meshes), shared, turned, len(tris), size, rep)


# IFC (x, y, z) -> Godot (x, z, -y), as pyagent.frames.ifc_to_godot
_TO_GODOT = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]])


def _given(parts: list[GlbPart], copies: Mapping[str, tuple[str, np.ndarray]]
           ) -> dict[int, tuple[int, np.ndarray | None]]:
    """``copies`` by part index, the turns in Godot's frame; only those whose earlier part comes before."""
    index = {p.name: i for i, p in enumerate(parts)}
    out: dict[int, tuple[int, np.ndarray | None]] = {}
    for name, (first, turn) in copies.items():
        i, j = index.get(name), index.get(first)
        if i is None or j is None or j >= i:
            continue
        t = _TO_GODOT @ turn @ _TO_GODOT.T
        out[i] = (j, None if np.array_equal(t, np.eye(3)) else t)
    return out


def read_glb(path: Path) -> tuple[dict[str, Any], bytes]:
    """The JSON and the binary chunk of a .glb (raises ``ValueError`` for anything else)."""
    data = path.read_bytes()
    if len(data) < 20:
        raise ValueError(f"{path}: not a binary glTF ({len(data)} bytes)")
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    if magic != b"glTF" or version != 2 or length != len(data):
        raise ValueError(f"{path}: not a binary glTF 2.0 file")
    size, kind = struct.unpack_from("<I4s", data, 12)
    if kind != b"JSON":
        raise ValueError(f"{path}: the first chunk is not JSON")
    doc = json.loads(data[20:20 + size])
    at = 20 + size
    blob = b""
    if at + 8 <= len(data):
        bsize, bkind = struct.unpack_from("<I4s", data, at)
        if bkind == b"BIN\0":
            blob = data[at + 8:at + 8 + bsize]
    return doc, blob


def node_names(path: Path) -> list[str]:
    """Names of the element nodes in a glb written by ``write_glb`` (children of the root)."""
    doc, _ = read_glb(path)
    root = doc["nodes"][doc["scenes"][doc.get("scene", 0)]["nodes"][0]]
    return [doc["nodes"][i]["name"] for i in root.get("children", [])]
