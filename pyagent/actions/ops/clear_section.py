"""``clear_section``: remove the section; the whole building is shown again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say

KIND = "change"

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    if not ctx.state.sections:
        raise StepError(say("no_section_to_clear"))
    ctx.state.sections = []
    return None, say("section_cleared"), []
