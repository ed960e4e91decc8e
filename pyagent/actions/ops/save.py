"""``save``: write the edited model as a new IFC revision (after the whole program succeeded)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "record"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    saver = ex.saver
    if saver is None:
        raise StepError("saving is not available in this session")

    def run() -> str:  # the saver returns the revision's path, or a sentence while it is still writing
        where = saver(ctx.state)
        return where if where.endswith(".") else say("saved", where=where)
    ctx.pending.append((len(ctx.step_values), run))
    return None, "", []
