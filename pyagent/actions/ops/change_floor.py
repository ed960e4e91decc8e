"""``change_floor``: go up (positive) or down a number of storeys, keeping the heading.

The user lands straight above or below where they stand when there is a room (or, in a file without rooms,
a floor slab) there on the new storey; otherwise in the storey's largest room, as ``teleport`` to a storey
does. Storeys are counted in their order by level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.actions import places
from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say
from pyagent.model import Pose
from pyagent.spatial import EYE_HEIGHT

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "camera"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    by = int(step["by"])
    if by == 0:
        raise StepError(say("floor_by_zero"))
    storeys = ex.building.storeys
    mine = ctx.user_storey()
    if mine is None:
        raise StepError("this building has no storeys")
    index = mine.index + by
    if not 0 <= index < len(storeys):
        raise StepError(say("no_floor_above" if by > 0 else "no_floor_below", storey=ex.label(mine.id)))
    target = storeys[index]
    here = ctx.pose.position
    room = ex.graph.room_at(np.array([here[0], here[1], target.elevation + 0.3]))
    if room is not None and ex.building.elements[room].storey != target.id:
        room = None
    if room is not None:
        point = np.array([here[0], here[1], float(ex.building.elements[room].bbox_min[2]) + EYE_HEIGHT])
    else:
        point = places.standing_point(ex, ctx, target.id)
        room = ex.graph.room_at(point - np.array([0.0, 0.0, EYE_HEIGHT - 0.3]))
    ctx.state.pose = Pose(point, ctx.pose.yaw, 0.0)
    if room is not None:
        return None, say("floor_changed_room", storey=ex.label(target.id), room=ex.label(room)), [target.id]
    return None, say("floor_changed", storey=ex.label(target.id)), [target.id]
