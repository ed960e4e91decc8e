"""Small .glb files for the engine tests, written with struct (no glTF library needed).

The layout follows the agent's glb: a root node with one child node per element, named by the
element's GlobalId, placed at the element's centre (Godot frame, Y up), holding a box mesh.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from pathlib import Path

# 22-character GlobalIds using every character class the IFC alphabet has, `$` and `_` included.
SAMPLE_IDS = (
    "0u4wgLe6n0ABVaiXyikbkA",
    "1$Tz3vBcn2Rg$q7xYz_AbC",
    "2O2Fr$t4X7Zf8NOew3FLOH",
    "3cUkl32yn9qRSPvBJVyWYp",
    "0_bAdF00D$aaBbCcDdEeFf",
    "1hOSvn6df7F8_7GcBWlR72",
)

_BOX_FACES = ((0, 1), (0, -1), (1, 1), (1, -1), (2, 1), (2, -1))  # (axis, sign) of each face


@dataclass
class Box:
    """An element: a box of ``size`` centred at ``centre`` (Godot frame), coloured ``rgba``."""

    name: str
    centre: tuple[float, float, float]
    size: tuple[float, float, float]
    rgba: tuple[float, float, float, float] = (0.8, 0.8, 0.8, 1.0)


def _box_triangles(size: tuple[float, float, float]) -> tuple[list[float], list[float]]:
    """Flat-shaded box around the origin: (positions, normals), 36 vertices."""
    hx, hy, hz = (s / 2.0 for s in size)
    half = (hx, hy, hz)
    pos: list[float] = []
    nrm: list[float] = []
    for axis, sign in _BOX_FACES:
        u, v = [a for a in range(3) if a != axis]
        corners = []
        for du, dv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            p = [0.0, 0.0, 0.0]
            p[axis] = sign * half[axis]
            p[u] = du * half[u]
            p[v] = dv * half[v]
            corners.append(p)
        # Wind the two triangles counter-clockwise seen from outside (checked against the normal).
        a, b, c, d = corners
        n = [0.0, 0.0, 0.0]
        n[axis] = float(sign)
        tri = [a, b, c, a, c, d]
        e1 = [b[i] - a[i] for i in range(3)]
        e2 = [c[i] - a[i] for i in range(3)]
        cross = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]]
        if sum(cross[i] * n[i] for i in range(3)) < 0:
            tri = [a, c, b, a, d, c]
        for p in tri:
            pos.extend(p)
            nrm.extend(n)
    return pos, nrm


def write_glb(path: Path, boxes: list[Box], root_name: str = "building") -> Path:
    """Write a glb with one node per box (children of one root node)."""
    blob = bytearray()
    views: list[dict] = []
    accessors: list[dict] = []
    meshes: list[dict] = []
    materials: list[dict] = []
    nodes: list[dict] = [{"name": root_name, "children": []}]
    for box in boxes:
        pos, nrm = _box_triangles(box.size)
        mins = [min(pos[i::3]) for i in range(3)]
        maxs = [max(pos[i::3]) for i in range(3)]
        acc_ids = []
        for data, minmax in ((pos, True), (nrm, False)):
            raw = struct.pack(f"<{len(data)}f", *data)
            views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(raw), "target": 34962})
            blob.extend(raw)
            acc = {"bufferView": len(views) - 1, "componentType": 5126, "count": len(data) // 3, "type": "VEC3"}
            if minmax:
                acc["min"], acc["max"] = mins, maxs
            accessors.append(acc)
            acc_ids.append(len(accessors) - 1)
        materials.append({
            "pbrMetallicRoughness": {"baseColorFactor": list(box.rgba), "metallicFactor": 0.0,
                                     "roughnessFactor": 0.9},
            "alphaMode": "BLEND" if box.rgba[3] < 1.0 else "OPAQUE",
        })
        meshes.append({"name": box.name, "primitives": [
            {"attributes": {"POSITION": acc_ids[0], "NORMAL": acc_ids[1]}, "material": len(materials) - 1}
        ]})
        nodes.append({"name": box.name, "mesh": len(meshes) - 1, "translation": list(box.centre)})
        nodes[0]["children"].append(len(nodes) - 1)
    doc = {
        "asset": {"version": "2.0", "generator": "tests/engine/glb_fixture.py"},
        "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes, "meshes": meshes,
        "materials": materials, "accessors": accessors, "bufferViews": views,
        "buffers": [{"byteLength": len(blob)}],
    }
    js = json.dumps(doc, separators=(",", ":")).encode()
    js += b" " * (-len(js) % 4)
    blob += b"\0" * (-len(blob) % 4)
    total = 12 + 8 + len(js) + 8 + len(blob)
    out = struct.pack("<4sII", b"glTF", 2, total)
    out += struct.pack("<I4s", len(js), b"JSON") + js
    out += struct.pack("<I4s", len(blob), b"BIN\0") + bytes(blob)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out)
    return path


def sample_boxes() -> list[Box]:
    """A floor slab, two walls, a door, a window and a column with ids from ``SAMPLE_IDS``."""
    return [
        Box(SAMPLE_IDS[0], (5.0, -0.1, -4.0), (10.0, 0.2, 8.0), (0.7, 0.7, 0.7, 1.0)),  # floor slab
        Box(SAMPLE_IDS[1], (5.0, 1.4, -8.0), (10.0, 2.8, 0.3), (0.9, 0.9, 0.85, 1.0)),  # wall north
        Box(SAMPLE_IDS[2], (10.0, 1.4, -4.0), (0.3, 2.8, 8.0), (0.9, 0.9, 0.85, 1.0)),  # wall east
        Box(SAMPLE_IDS[3], (10.0, 1.05, -2.0), (0.4, 2.1, 0.9), (0.5, 0.3, 0.1, 1.0)),  # door
        Box(SAMPLE_IDS[4], (5.0, 1.5, -8.0), (1.2, 1.2, 0.4), (0.6, 0.8, 1.0, 0.4)),  # window
        Box(SAMPLE_IDS[5], (2.0, 1.4, -2.0), (0.3, 2.8, 0.3), (0.4, 0.4, 0.4, 1.0)),  # column
    ]


def grid_boxes(count: int) -> list[Box]:
    """``count`` small boxes on a grid, with distinct GlobalId-shaped names (for benchmarks)."""
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$"
    boxes = []
    side = max(1, int(count ** 0.5))
    for i in range(count):
        digits = []
        n = i
        for _ in range(6):
            digits.append(alphabet[n % 64])
            n //= 64
        name = "2" + "".join(reversed(digits)) + "BenchElement0000"[: 22 - 7]
        x, z = i % side, i // side
        boxes.append(Box(name[:22], (x * 1.5, 0.5, -z * 1.5), (1.0, 1.0, 1.0)))
    return boxes
