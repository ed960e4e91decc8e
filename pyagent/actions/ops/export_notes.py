"""``export_notes``: the review notes and remembered views as a BCF 2.1 archive, without a new revision."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.executor import StepError
from pyagent.actions.ops.answers import say

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    exporter = ex.exporter
    if exporter is None:
        raise StepError(say("notes_unavailable"))

    def write() -> str:  # runs once the whole program has succeeded
        try:
            path = exporter()
        except OSError as exc:
            raise StepError(say("notes_not_written", why=str(exc))) from exc
        return say("notes_exported", path=path.name)
    ctx.pending.append((len(ctx.step_values), write))
    return None, "", []
