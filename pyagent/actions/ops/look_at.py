"""``look_at``: turn the user's head towards an element."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.actions.ops.answers import say
from pyagent.model import Pose
from pyagent.spatial import wrap_deg

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "camera"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    gid = ex.place_targets(ctx, step["target"])[0]
    c = ex.centre_of(ctx, gid)
    d = c - ctx.pose.position
    yaw = math.degrees(math.atan2(d[1], d[0]))
    pitch = math.degrees(math.atan2(d[2], max(1e-6, float(np.linalg.norm(d[:2])))))
    ctx.state.pose = Pose(ctx.pose.position.copy(), float(wrap_deg(yaw)), float(max(-60.0, min(60.0, pitch))))
    return None, say("looking_at", what=ex.label(gid)), [gid]
