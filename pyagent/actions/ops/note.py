"""``note``: attach a review note to the selected elements (stored once the whole program succeeded)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "record"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    ids = ex.targets(ctx, step["target"]) if step.get("target") else list(ctx.state.selected or ctx.last_ids)
    noter = ex.noter
    if noter is None:
        raise StepError("review notes are not available in this session")
    text = step["text"]

    def run() -> str:
        noter(text, ids, ctx.state)
        return say("noted", text=text)
    ctx.pending.append((len(ctx.step_values), run))
    return None, "", ids
