"""``show``: show hidden elements again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import say

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "change"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    ids = ex.targets(ctx, step["target"])
    if not step["target"]:  # everything: every body "isolate" may have hidden, the site's terrain too
        ids = sorted(set(ids) | (ctx.state.hidden & ex.bodies()))
    ctx.state.hidden -= set(ids)
    return None, ex.changed(say("verb_show"), ids, step["target"]), ids
