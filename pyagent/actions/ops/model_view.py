"""``model_view``: the whole building as a small model on a table in front of the user, or full size."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say
from pyagent.review.model_view import table_placement

KIND = "change"

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    if step["mode"] == "full":
        if ctx.state.view_scale is None:
            raise StepError(say("model_already_full"))
        ctx.state.view_scale = None
        return None, say("model_full"), []
    if ctx.state.view_scale is not None:
        return None, say("model_table_again"), []
    placement = table_placement(ex.spatial, ctx.state.pose)
    ctx.state.view_scale = placement
    return None, say("model_table", ratio=int(round(1 / placement["scale"]))), []
