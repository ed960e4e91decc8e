"""``isolate``: show only the selected elements, hiding every other body."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import say

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "change"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    ids = set(ex.targets(ctx, step["target"]))
    ctx.state.hidden = (ctx.state.hidden | ex.bodies()) - ids
    return None, ex.changed(say("verb_isolate"), sorted(ids), step["target"]), sorted(ids)
