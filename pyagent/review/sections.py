"""Section planes and section boxes as BCF-style clipping planes (IFC frame, metres).

A plane is ``{"location": [x, y, z], "direction": [dx, dy, dz]}``: what lies on the side ``direction``
points to is cut away (BCF 2.1's convention). A horizontal cut keeps what is below it (direction +Z);
a section box is its six faces with outward directions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Plane = dict[str, list[float]]

#: Extra room around a section box, so that the boundary walls of a room stay in view.
BOX_MARGIN_M = 0.3


def horizontal_cut(z: float, centre_xy: tuple[float, float]) -> list[Plane]:
    """One plane at height ``z``; everything above it is removed."""
    return [{"location": [round(float(centre_xy[0]), 4), round(float(centre_xy[1]), 4), round(float(z), 4)],
             "direction": [0.0, 0.0, 1.0]}]


def box(lo: np.ndarray, hi: np.ndarray, margin: float = BOX_MARGIN_M) -> list[Plane]:
    """The six faces of the box ``lo``..``hi`` (grown by ``margin``), cutting away everything outside."""
    lo = np.asarray(lo, float) - margin
    hi = np.asarray(hi, float) + margin
    c = (lo + hi) / 2
    planes: list[Plane] = []
    for axis in range(3):
        for sign, bound in ((-1.0, lo), (1.0, hi)):
            loc = c.copy()
            loc[axis] = bound[axis]
            direction = [0.0, 0.0, 0.0]
            direction[axis] = sign
            planes.append({"location": [round(float(v), 4) for v in loc], "direction": direction})
    return planes


def top_planes(planes: list[Plane]) -> list[int]:
    """Indexes of the planes that cut away what is above them (the 'cut' a user moves up or down)."""
    return [i for i, p in enumerate(planes) if p["direction"][2] > 0.5]


def moved(planes: list[Plane], by: float) -> list[Plane]:
    """The planes with the horizontal cut moved up by ``by`` metres (down when negative)."""
    out = [{"location": list(p["location"]), "direction": list(p["direction"])} for p in planes]
    for i in top_planes(out):
        out[i]["location"][2] = round(out[i]["location"][2] + float(by), 4)
    return out


def cut_height(planes: list[Plane]) -> float | None:
    """The height of the horizontal cut, when there is one."""
    tops = top_planes(planes)
    return min(planes[i]["location"][2] for i in tops) if tops else None


def cut_away(bmin: np.ndarray, bmax: np.ndarray, planes: list[Plane]) -> np.ndarray:
    """(N,) bool: boxes that lie wholly on the removed side of some plane (nothing of them is shown)."""
    n = len(bmin)
    out = np.zeros(n, bool)
    if not planes or not n:
        return out
    for p in planes:
        loc = np.asarray(p["location"], float)
        d = np.asarray(p["direction"], float)
        # The box corner furthest against the direction: if even it is on the removed side, all is.
        nearest = np.where(d >= 0, bmin, bmax)
        out |= (nearest - loc) @ d > 1e-6
    return out


def describe(planes: list[Plane]) -> dict[str, Any]:
    """What kind of section this is, for answers: {"kind": "none"|"plane"|"box", "height": z or None}."""
    if not planes:
        return {"kind": "none", "height": None}
    return {"kind": "plane" if len(planes) == 1 else "box", "height": cut_height(planes)}
