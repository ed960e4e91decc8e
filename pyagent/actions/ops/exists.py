"""``exists``: whether a selector means anything (value: true or false)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import say
from pyagent.actions.selectors import noun_for

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    target = step["target"]
    ids = ex.targets(ctx, target, allow_empty=True)
    rels = target.get("relations") or []
    if target.get("ids") and len(target["ids"]) == 1 and len(rels) == 1 and rels[0].get("rel") == "connected":
        # "can I walk straight from the kitchen into the living room?": say which rooms
        others = ex.targets(ctx, rels[0]["of"], allow_empty=True)
        if len(others) == 1:
            a, b = ctx.building.elements[others[0]].label(), ctx.building.elements[target["ids"][0]].label()
            return bool(ids), say("joined_yes" if ids else "joined_no", a=a, b=b), ids
    noun = noun_for(target, 1)
    return bool(ids), say("exists_yes" if ids else "exists_no", noun=noun), ids
