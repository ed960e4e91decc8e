"""``select``: select elements (what "this" means afterwards); an empty id list clears the selection."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import say

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "change"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    if step["target"] == {"ids": []}:
        ctx.state.selected = []
        return [], say("selection_cleared"), []
    ids = ex.targets(ctx, step["target"])
    ctx.state.selected = list(ids)
    return ids, ex.changed(say("verb_select"), ids, step["target"]), ids
