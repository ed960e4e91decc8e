"""``list_views``: the names of the remembered views (a query; the value is the list of names)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import say

KIND = "query"

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    names = sorted(ctx.state.viewpoints)
    if not names:
        return [], say("views_none"), []
    return names, say("views_known", names=", ".join(names)), []
