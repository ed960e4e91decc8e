"""``where_am_i``: the room and storey the user stands in (value: the room's name, or the storey's)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import say

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    room = ctx.user_room()
    storey = ctx.user_storey()
    floor = say("on_storey", storey=storey.name) if storey else ""
    if room is None:
        return (storey.name if storey else "outside"), say("where_not_in_room", floor=floor), []
    return ex.label(room), say("where_in_room", room=ex.label(room), floor=floor), [room]
