"""``where_am_i``: the room and storey the user stands in (value: the room's name, or the storey's)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    room = ctx.user_room()
    storey = ctx.user_storey()
    floor = f" on {storey.name}" if storey else ""
    if room is None:
        return (storey.name if storey else "outside"), f"You are not in a room{floor}.", []
    return ex.label(room), f"You are in {ex.label(room)}{floor}.", [room]
