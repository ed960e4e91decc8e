"""``teleport``: move the user to a room, a storey, an element or a position, standing on a floor."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.actions import places
from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say
from pyagent.model import Pose
from pyagent.spatial import EYE_HEIGHT, wrap_deg

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "camera"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    if "position" in step:
        p = np.asarray(step["position"], float)
        floor = places.floor_z(ex, p + np.array([0, 0, 0.3]))
        if floor is None:
            raise StepError("there is no floor to stand on at that position")
        target = np.array([p[0], p[1], floor + EYE_HEIGHT])
        ctx.state.pose = Pose(target, ctx.pose.yaw, 0.0)
        return None, say("teleported_position"), []
    if "target" not in step:
        raise StepError("say where to go")
    gid = ex.place_targets(ctx, step["target"])[0]
    target = places.standing_point(ex, ctx, gid)
    el = ex.building.elements.get(gid)
    yaw = ctx.pose.yaw
    if el is None or el.ifc_class not in ("IfcSpace", "IfcBuildingStorey"):
        d = ex.centre_of(ctx, gid)[:2] - target[:2]
        yaw = math.degrees(math.atan2(d[1], d[0]))
    ctx.state.pose = Pose(target, float(wrap_deg(yaw)), 0.0)
    inside = el is not None and el.ifc_class == "IfcSpace"
    return None, say("teleported_in" if inside else "teleported_at", what=ex.label(gid)), [gid]
