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
    ids = ex.targets(ctx, step["target"], allow_empty=True)
    noun = noun_for(step["target"], 1)
    return bool(ids), say("exists_yes" if ids else "exists_no", noun=noun), ids
