"""``turn``: turn the user by an angle (positive is to the left)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say
from pyagent.model import Pose
from pyagent.spatial import wrap_deg

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "camera"


#: Compass directions as degrees counter-clockwise from north.
_FROM_NORTH = {"north": 0.0, "northwest": 45.0, "west": 90.0, "southwest": 135.0, "south": 180.0,
               "southeast": 225.0, "east": 270.0, "northeast": 315.0}


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    if "face" in step:  # "face north": the building's true north, not the model's +Y
        heading = ex.building.true_north_deg + _FROM_NORTH[step["face"]]
        ctx.state.pose = Pose(ctx.pose.position.copy(), float(wrap_deg(heading)), ctx.pose.pitch)
        return None, say("turned_to", direction=step["face"]), []
    if "degrees" not in step:
        raise StepError("say how far to turn, or which way to face")
    deg = float(step["degrees"])
    ctx.state.pose = Pose(ctx.pose.position.copy(), float(wrap_deg(ctx.pose.yaw + deg)), ctx.pose.pitch)
    if abs(abs(deg) - 180) < 1:
        return None, say("turned_around"), []
    return None, say("turned_left" if deg > 0 else "turned_right", deg=f"{abs(deg):g}"), []
