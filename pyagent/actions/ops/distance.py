"""``distance``: the distance from the user (or an element) to an element, surface to surface or centre to centre
(value: metres).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import metres, say

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    to = ex.targets(ctx, step["to"])
    mode = step.get("mode", "surface")
    sp = ex.spatial
    fr = ex.targets(ctx, step["from"]) if "from" in step else []
    if to[0] not in sp.index or any(g not in sp.index for g in fr):  # placed props: centre to centre
        d = float(np.linalg.norm(ex.centre_of(ctx, to[0]) - (
            ex.centre_of(ctx, fr[0]) if fr else ctx.pose.position)))
        return round(d, 4), say("distance_prop", what=ex.label(to[0]), d=metres(d)), [to[0]]
    # A set (the plates of a curtain wall, "the doors") is as far as its nearest member.
    rows = np.array([sp.index[g] for g in to if g in sp.index], int)
    if "from" in step:
        best: tuple[float, int, int] | None = None
        for f in (sp.index[g] for g in fr):
            gaps = np.linalg.norm(sp.centre[rows] - sp.centre[f], axis=1) if mode == "centre" else sp.box_gap(f, rows)
            k = int(np.argmin(gaps))
            if best is None or float(gaps[k]) < best[0]:
                best = (float(gaps[k]), f, int(rows[k]))
        if best is None:
            raise StepError("there is nothing to measure from")
        d, f, t = best
        return round(d, 4), say("distance_between_centres" if mode == "centre" else "distance_between",
                                a=ex.label(sp.ids[f]), d=metres(d), b=ex.label(sp.ids[t])), [sp.ids[t]]
    eye = ctx.pose.position
    gaps = np.linalg.norm(sp.centre[rows] - eye, axis=1) if mode == "centre" else sp.distances(eye, rows)
    k = int(np.argmin(gaps))
    d, t = float(gaps[k]), int(rows[k])
    return round(d, 4), say("distance_from_you", what=ex.label(sp.ids[t]), d=metres(d)), [sp.ids[t]]
