"""The built-in prop library: furniture the user can place, with footprints, as glb assets."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pyagent.glb import GlbPart, write_glb
from pyagent.paths import props_dir


@dataclass(frozen=True)
class PropSpec:
    width: float  # along the prop's own X (its facing direction is +Y)
    depth: float
    height: float
    rgba: tuple[float, float, float, float]
    # Boxes in the prop's frame (origin on the floor at its centre): (cx, cy, cz, sx, sy, sz)
    boxes: tuple[tuple[float, float, float, float, float, float], ...]
    # A second colour (frame, legs, cushions) and the boxes drawn in it: two tones that stand out
    # against pale floors and walls and show the prop's shape. Colours are sRGB (as in IFC styles);
    # the glb gets them linear, as glTF wants.
    accent: tuple[float, float, float, float] | None = None
    accent_boxes: tuple[int, ...] = ()


def _table(w: float, d: float, h: float, top: float = 0.04, leg: float = 0.05) -> tuple:
    x, y = w / 2 - leg, d / 2 - leg
    legs = tuple((sx * x, sy * y, (h - top) / 2, leg, leg, h - top) for sx in (-1, 1) for sy in (-1, 1))
    return ((0.0, 0.0, h - top / 2, w, d, top),) + legs


_DARK = (0.16, 0.13, 0.12, 1.0)  # legs, frames and arms

PROPS: dict[str, PropSpec] = {
    "sofa": PropSpec(2.0, 0.9, 0.85, (0.72, 0.25, 0.12, 1.0), (
        (0, 0.05, 0.22, 2.0, 0.8, 0.44), (0, -0.33, 0.6, 2.0, 0.24, 0.5),
        (-0.9, 0.05, 0.55, 0.2, 0.8, 0.26), (0.9, 0.05, 0.55, 0.2, 0.8, 0.26)), _DARK, (2, 3)),
    "armchair": PropSpec(0.85, 0.85, 0.9, (0.05, 0.42, 0.50, 1.0), (
        (0, 0.05, 0.22, 0.85, 0.75, 0.44), (0, -0.32, 0.62, 0.85, 0.2, 0.56),
        (-0.35, 0.05, 0.55, 0.15, 0.75, 0.26), (0.35, 0.05, 0.55, 0.15, 0.75, 0.26)), _DARK, (2, 3)),
    "chair": PropSpec(0.45, 0.5, 0.9, (0.70, 0.15, 0.12, 1.0),
                      _table(0.45, 0.5, 0.46) + ((0, -0.23, 0.68, 0.45, 0.04, 0.44),), _DARK, (1, 2, 3, 4)),
    "table": PropSpec(1.6, 0.9, 0.75, (0.45, 0.28, 0.16, 1.0), _table(1.6, 0.9, 0.75), _DARK, (1, 2, 3, 4)),
    "desk": PropSpec(1.4, 0.7, 0.75, (0.18, 0.32, 0.60, 1.0), _table(1.4, 0.7, 0.75), _DARK, (1, 2, 3, 4)),
    "bed": PropSpec(1.6, 2.1, 0.9, (0.35, 0.22, 0.14, 1.0), (
        (0, 0, 0.25, 1.6, 2.1, 0.5), (0, -1.0, 0.55, 1.6, 0.08, 0.7), (0, -0.8, 0.56, 1.2, 0.35, 0.12)),
        (0.93, 0.92, 0.88, 1.0), (2,)),
    "lamp": PropSpec(0.4, 0.4, 1.7, (0.95, 0.75, 0.25, 1.0), (
        (0, 0, 0.02, 0.35, 0.35, 0.04), (0, 0, 0.8, 0.04, 0.04, 1.5), (0, 0, 1.6, 0.4, 0.4, 0.25)),
        _DARK, (0, 1)),
    "plant": PropSpec(0.5, 0.5, 1.2, (0.20, 0.50, 0.20, 1.0), (
        (0, 0, 0.2, 0.4, 0.4, 0.4), (0, 0, 0.8, 0.5, 0.5, 0.8)), (0.65, 0.32, 0.18, 1.0), (0,)),
    "shelf": PropSpec(1.0, 0.35, 1.9, (0.50, 0.33, 0.20, 1.0), (
        (-0.48, 0, 0.95, 0.04, 0.35, 1.9), (0.48, 0, 0.95, 0.04, 0.35, 1.9),
        (0, 0, 0.05, 1.0, 0.35, 0.04), (0, 0, 0.7, 1.0, 0.35, 0.03), (0, 0, 1.3, 1.0, 0.35, 0.03),
        (0, 0, 1.88, 1.0, 0.35, 0.04))),
    "tv": PropSpec(1.2, 0.4, 1.2, (0.25, 0.25, 0.27, 1.0), (
        (0, 0, 0.25, 1.2, 0.4, 0.5), (0, 0, 0.85, 1.1, 0.06, 0.65)), (0.04, 0.04, 0.05, 1.0), (1,)),
}


def _box_mesh(cx: float, cy: float, cz: float, sx: float, sy: float, sz: float) -> tuple[np.ndarray, np.ndarray]:
    corners = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])
    verts = corners * np.array([sx, sy, sz]) + np.array([cx, cy, cz])
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    faces = [f for a, b, c, d in quads for f in ((a, b, c), (a, c, d))]
    return verts, np.array(faces)


def prop_mesh(asset: str) -> tuple[np.ndarray, np.ndarray]:
    """IFC-frame mesh of a prop standing at the origin, facing +Y."""
    verts_l, faces_l, n = [], [], 0
    for box in PROPS[asset].boxes:
        v, f = _box_mesh(*box)
        verts_l.append(v)
        faces_l.append(f + n)
        n += len(v)
    return np.concatenate(verts_l), np.concatenate(faces_l)


def _linear(rgba: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """sRGB colour -> the linear colour glTF's baseColorFactor means (alpha unchanged)."""
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgba[:3])
    return r, g, b, rgba[3]


def write_prop_assets(folder: Path | None = None) -> list[Path]:
    """Write one glb per prop (the engine's furniture library)."""
    out = folder or props_dir()
    paths = []
    for name, spec in PROPS.items():
        v, f = prop_mesh(name)
        path = out / f"{name}.glb"
        per_box = len(f) // len(spec.boxes)  # every box has the same 12 triangles
        face_material = np.repeat([1 if i in spec.accent_boxes else 0 for i in range(len(spec.boxes))], per_box)
        palette = np.array([_linear(spec.rgba), _linear(spec.accent or spec.rgba)], np.float32)
        write_glb([GlbPart(name, v, f, face_material.astype(np.int32))], palette, path,
                  root_name=f"prop_{name}", recentre=False)
        paths.append(path)
    return paths
