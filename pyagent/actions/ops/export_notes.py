"""``export_notes``: write the review notes as a BCF 2.1 archive (after the whole program succeeded)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "record"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    exporter = ex.exporter
    if exporter is None:
        raise StepError("exporting notes is not available in this session")
    ctx.pending.append((len(ctx.step_values), exporter))
    return None, "", []
