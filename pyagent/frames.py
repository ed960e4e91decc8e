"""The one place where the IFC frame (Z up) meets glTF/Godot (Y up): godot = (x, z, -y)."""

from __future__ import annotations

import numpy as np


def ifc_to_godot(p: np.ndarray) -> np.ndarray:
    """Points or vectors, shape (..., 3), IFC (x, y, z) -> Godot (x, z, -y)."""
    p = np.asarray(p, dtype=float)
    return np.stack([p[..., 0], p[..., 2], -p[..., 1]], axis=-1)


def godot_to_ifc(p: np.ndarray) -> np.ndarray:
    """Points or vectors, shape (..., 3), Godot (x, y, z) -> IFC (x, -z, y)."""
    p = np.asarray(p, dtype=float)
    return np.stack([p[..., 0], -p[..., 2], p[..., 1]], axis=-1)
