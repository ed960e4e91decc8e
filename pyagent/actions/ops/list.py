"""``list``: the elements a selector means, by name (value: their GlobalIds)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import join_names, say
from pyagent.actions.selectors import Resolver, noun_for

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    ids = ex.targets(ctx, step["target"], allow_empty=True)
    if not ids:
        return [], Resolver(ctx).explain_empty(step["target"]), []
    names = [ex.label(g) for g in ids]
    return ids, say("list", n=len(ids), noun=noun_for(step["target"], len(ids)), names=join_names(names)), ids
