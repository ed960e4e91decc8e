"""``route``: the walk to a room through doors and stairs, and the rooms on the way (value: metres on foot)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions import places
from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import join_names, say
from pyagent.model import OUTSIDE
from pyagent.spatial import EYE_HEIGHT

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    to = ex.place_targets(ctx, step["to"])
    goal = to[0]
    if goal not in ex.building.elements:
        room = ex.graph.room_at(ex.centre_of(ctx, goal))
        if room is None:
            raise StepError("it is not in a room I can walk to")
        goal = room
    goal_el = ex.building.elements[goal]
    if goal_el.ifc_class != "IfcSpace":
        goal = goal_el.room or next((s for s in goal_el.sides if s != OUTSIDE), None) or ""
        if not goal:
            raise StepError(say("route_not_in_room", what=goal_el.label()))
    if "from" in step:
        fr = ex.targets(ctx, step["from"])
        start_room = fr[0] if ex.building.elements[fr[0]].ifc_class == "IfcSpace" else \
            ex.building.elements[fr[0]].room
        start = places.room_point(ex, start_room) if start_room else ex.spatial.centre[ex.spatial.index[fr[0]]]
    else:
        start_room = ctx.user_room()
        start = ctx.pose.position.copy()
        storey = ctx.user_storey()
        start[2] = storey.elevation if storey else start[2] - EYE_HEIGHT
    if start_room is None:
        raise StepError("you are not inside a room, so I cannot plan a walk from here")
    route = ex.graph.route(start, start_room, goal, places.room_point(ex, goal))
    if route is None:
        raise StepError(say("route_no_way", goal=ex.label(goal)))
    via = [ex.label(r) if r != OUTSIDE else "outside" for r in route.rooms[1:-1]]
    length = f"{route.length:.1f} m"
    text = say("route_via", goal=ex.label(goal), length=length, via=join_names(via)) if via else \
        say("route", goal=ex.label(goal), length=length)
    return round(route.length, 3), text, [goal]
