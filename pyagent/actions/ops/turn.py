"""``turn``: turn the user by an angle (positive is to the left)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import say
from pyagent.model import Pose
from pyagent.spatial import wrap_deg

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "camera"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    deg = float(step["degrees"])
    ctx.state.pose = Pose(ctx.pose.position.copy(), float(wrap_deg(ctx.pose.yaw + deg)), ctx.pose.pitch)
    if abs(abs(deg) - 180) < 1:
        return None, say("turned_around"), []
    return None, say("turned_left" if deg > 0 else "turned_right", deg=f"{abs(deg):g}"), []
