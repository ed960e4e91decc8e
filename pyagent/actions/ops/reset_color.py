"""``reset_color``: give the selected elements their colour from the file back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import say

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "change"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    ids = ex.targets(ctx, step["target"])
    for g in ids:
        ctx.state.colors.pop(g, None)
    return None, ex.changed(say("verb_reset_color"), ids, step["target"]), ids
