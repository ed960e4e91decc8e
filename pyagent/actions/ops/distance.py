"""``distance``: the distance from the user (or an element) to an element, surface to surface or centre to centre
(value: metres).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.actions.ops.answers import metres, say

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    to = ex.targets(ctx, step["to"])
    mode = step.get("mode", "surface")
    sp = ex.spatial
    if to[0] not in sp.index:
        d = float(np.linalg.norm(ex.centre_of(ctx, to[0]) - (
            ex.centre_of(ctx, ex.targets(ctx, step["from"])[0]) if "from" in step else ctx.pose.position)))
        return round(d, 4), say("distance_prop", what=ex.label(to[0]), d=metres(d)), [to[0]]
    t = sp.index[to[0]]
    if "from" in step:
        fr = ex.targets(ctx, step["from"])
        f = sp.index[fr[0]]
        d = float(np.linalg.norm(sp.centre[t] - sp.centre[f])) if mode == "centre" else float(
            sp.box_gap(f, np.array([t]))[0])
        return round(d, 4), say("distance_between_centres" if mode == "centre" else "distance_between",
                                a=ex.label(fr[0]), d=metres(d), b=ex.label(to[0])), [to[0]]
    eye = ctx.pose.position
    d = float(np.linalg.norm(sp.centre[t] - eye)) if mode == "centre" else float(
        sp.distances(eye, np.array([t]))[0])
    return round(d, 4), say("distance_from_you", what=ex.label(to[0]), d=metres(d)), [to[0]]
