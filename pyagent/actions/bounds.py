"""Where things may be: coordinate limits relative to the building, not to the world origin.

Buildings are placed anywhere (a site in UTM coordinates sits 500 km from the origin), so a fixed
absolute range either rejects real files or allows nonsense. The schema's ``vec3`` range is only a
sanity bound on numbers; what the session accepts (poses, moved elements, placed props) must lie within
the building's box grown by ``REACH_M`` on every side. The executor, ``Session.set_pose`` and the journal
(both before a change is acknowledged and when it is replayed) apply the same ``Bounds``, so whatever is
acknowledged replays.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from pyagent.model import Building

REACH_M = 1000.0  # how far outside the building's box anything may go


@dataclass(frozen=True)
class Bounds:
    low: tuple[float, float, float]
    high: tuple[float, float, float]

    @classmethod
    def of(cls, building: Building, reach: float = REACH_M) -> Bounds:
        boxes = [(e.bbox_min, e.bbox_max) for e in building.elements.values() if e.has_geometry]
        if boxes:
            lo = np.min([b[0] for b in boxes], axis=0)
            hi = np.max([b[1] for b in boxes], axis=0)
        else:
            lo = hi = np.zeros(3)
        return cls(tuple(float(v) - reach for v in lo), tuple(float(v) + reach for v in hi))  # type: ignore[arg-type]

    def contains(self, point: Any) -> bool:
        try:
            p = [float(v) for v in point]
        except (TypeError, ValueError):
            return False
        return len(p) == 3 and all(math.isfinite(v) and lo <= v <= hi
                                   for v, lo, hi in zip(p, self.low, self.high, strict=True))

    def middle(self) -> np.ndarray:
        return (np.asarray(self.low) + np.asarray(self.high)) / 2.0

    def describe(self) -> str:
        return f"within {REACH_M:g} m of the building"

    def check(self, point: Any, what: str) -> None:
        """``ValueError`` naming ``what`` when ``point`` is not three finite numbers inside the bounds."""
        if not self.contains(point):
            raise ValueError(f"{what} is not {self.describe()}")
