"""``route``: the walk to a room through doors and stairs, and the rooms on the way (value: metres on foot)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.actions import places
from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import join_names, say
from pyagent.model import OUTSIDE
from pyagent.spatial import EYE_HEIGHT

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"


#: "The nearest bathroom" on foot: at most this many candidates are walked to, to find the nearest by walking.
MAX_CANDIDATES = 12


def _room_of(ex: Executor, ctx: Context, gid: str, start_room: str | None = None) -> str:
    """The room to walk into to reach ``gid``: the room itself, or the room it stands in (of a door or wall
    between two, the one the walk starts in when it is one of them)."""
    if gid not in ex.building.elements:
        room = ex.graph.room_at(ex.centre_of(ctx, gid))
        if room is None:
            raise StepError("it is not in a room I can walk to")
        return room
    el = ex.building.elements[gid]
    if el.ifc_class == "IfcSpace":
        return gid
    if start_room is not None and (el.room == start_room or start_room in el.sides):
        return start_room
    room = el.room or next((s for s in el.sides if s != OUTSIDE), None) or ""
    if not room:  # a thing no room holds (a door of a building whose rooms do not reach it): the room around it
        room = ex.graph.room_at(ex.centre_of(ctx, gid)) or ""
    if not room:
        raise StepError(say("route_not_in_room", what=el.label()))
    return room


def _candidates(ex: Executor, ctx: Context, to: Any) -> list[str]:
    """Where "the nearest X" may be when walking: every X (the nearest on foot is not always the nearest as
    the crow flies: the neighbour's bathroom behind a party wall)."""
    if not isinstance(to, dict) or to.get("limit") != 1 or to.get("order") not in (None, "nearest") or "ordinal" in to:
        return []
    pool = {k: v for k, v in to.items() if k not in ("limit", "order")}
    try:
        found = ex.targets(ctx, pool)
    except StepError:
        return []
    return found if 1 < len(found) <= MAX_CANDIDATES else []


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    targets = _candidates(ex, ctx, step["to"]) or ex.place_targets(ctx, step["to"])[:1]
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
    if start_room is None and "from" in step:
        raise StepError("that is not inside a room, so I cannot plan a walk from it")
    if start_room is None:  # outside, or a building without rooms: no walk to plan, so as the crow flies
        from pyagent.actions.ops import distance

        value, text, shown = distance.run(ex, ctx, {"op": "distance", "to": {"ids": targets}})
        return value, say("route_no_room", text=text), shown
    # a room is walked to its free floor point, and so is the room of a thing in another room; a thing in
    # the room the walk starts in (the door in front) is walked to
    goals: dict[str, tuple[str, np.ndarray]] = {}
    roomless = []
    for g in targets:  # of several in one room, the nearest as the crow flies
        try:
            room = _room_of(ex, ctx, g, start_room)
        except StepError:
            roomless.append(g)
            continue
        point = places.room_point(ex, room)
        if g != room and room == start_room and g in ex.building.elements:  # in this room: to its nearest side
            el = ex.building.elements[g]
            point = np.array([*np.clip(start[:2], el.bbox_min[:2], el.bbox_max[:2]), point[2]])
        if room not in goals or np.linalg.norm(point[:2] - start[:2]) < np.linalg.norm(goals[room][1][:2] - start[:2]):
            goals[room] = (g, point)
    if not goals:  # a thing in no room (a door of a building with no rooms by it): as the crow flies
        from pyagent.actions.ops import distance

        value, text, shown = distance.run(ex, ctx, {"op": "distance", "to": {"ids": roomless}})
        return value, say("route_goal_no_room", what=ex.label(roomless[0]), text=text), shown
    route = ex.graph.nearest_route(start, start_room, {room: point for room, (_g, point) in goals.items()})
    if route is None:
        raise StepError(say("route_no_way", goal=ex.label(next(iter(goals)))))
    goal = goals[route.rooms[-1]][0] if route.rooms[-1] in goals else route.rooms[-1]
    via = [ex.label(r) if r != OUTSIDE else "outside" for r in route.rooms[1:-1]]
    # rooms of one name in a row ("Staircase" on each storey a stair passes) are said once
    via = [name for i, name in enumerate(via) if i == 0 or via[i - 1] != name]
    length = f"{route.length:.1f} m"
    text = say("route_via", goal=ex.label(goal), length=length, via=join_names(via)) if via else \
        say("route", goal=ex.label(goal), length=length)
    return round(route.length, 3), text, [goal]
