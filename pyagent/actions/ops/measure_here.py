"""``measure_here``: clear height, width or length at the user's position, by rays into the geometry."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import metres, say
from pyagent.review import measure, sections

KIND = "query"

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context


def ignore_mask(ex: Executor, ctx: Context) -> np.ndarray:
    """Hidden, deleted and cut-away elements are not there for the rays."""
    sp = ex.spatial
    mask = sections.cut_away(sp.bmin, sp.bmax, ctx.state.sections)
    for g in ctx.state.hidden | ctx.state.deleted:
        if g in sp.index:
            mask[sp.index[g]] = True
    return mask


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    what = step["what"]
    ignore = ignore_mask(ex, ctx)
    if what == "ceiling_height":
        span = measure.ceiling_height(ex.spatial, ctx.pose, ignore)
        if span is None:
            raise StepError(say("cannot_measure_up", where="above" if span is None else "below"))
        return round(span.length, 3), say("ceiling_height", height=metres(span.length)), []
    span = measure.horizontal_span(ex.spatial, ctx.pose, across=(what == "width"), ignore=ignore)
    if span is None:
        raise StepError(say("cannot_measure_across"))
    if what == "width":
        # first is towards yaw - 90 (the user's right), second towards yaw + 90 (left).
        return round(span.length, 3), say("width_here", length=metres(span.length), left=metres(span.second),
                                          right=metres(span.first)), []
    return round(span.length, 3), say("length_here", length=metres(span.length), back=metres(span.first),
                                      ahead=metres(span.second)), []
