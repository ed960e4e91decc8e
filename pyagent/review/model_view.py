"""The scale-model view: where and how small the building stands as a table model in front of the user."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from pyagent.model import Pose
from pyagent.spatial import EYE_HEIGHT, SpatialIndex

#: The model's largest plan extent on the table, metres.
TABLE_SIZE_M = 1.0
#: Table top above the floor the user stands on, and its distance in front of the eyes.
TABLE_HEIGHT_M = 0.8
TABLE_DISTANCE_M = 1.0


def table_placement(sp: SpatialIndex, pose: Pose) -> dict[str, Any]:
    """The schema's ``engine_view_scale``: the building's footprint centre at its lowest point (pivot) is
    shown at a table top (anchor) in front of the user, scaled so the plan fits ``TABLE_SIZE_M``."""
    # What the engine draws: every element with a body, and the site's terrain (not storeys or rooms).
    body = ~sp.structure | sp.class_mask(frozenset({"IfcSite"}))
    lo = sp.bmin[body].min(axis=0) if body.any() else sp.bmin.min(axis=0)
    hi = sp.bmax[body].max(axis=0) if body.any() else sp.bmax.max(axis=0)
    extent = float(max(hi[0] - lo[0], hi[1] - lo[1], 1e-3))
    scale = min(1.0, TABLE_SIZE_M / extent)
    pivot = np.array([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, lo[2]])
    yaw = math.radians(pose.yaw)
    floor = float(pose.position[2]) - EYE_HEIGHT
    anchor = np.array([pose.position[0] + math.cos(yaw) * TABLE_DISTANCE_M,
                       pose.position[1] + math.sin(yaw) * TABLE_DISTANCE_M, floor + TABLE_HEIGHT_M])
    return {"scale": round(scale, 6), "pivot": [round(float(v), 4) for v in pivot],
            "anchor": [round(float(v), 4) for v in anchor]}
