"""``move``: move elements or placed props by a vector or a distance in a direction (relative to the user,
compass, up/down), within the building's reach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.actions import places
from pyagent.actions.bounds import REACH_M
from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import metres, say

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "change"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    ids = ex.targets(ctx, step["target"])
    if "delta" in step:
        delta = np.asarray(step["delta"], float)
    elif "direction" in step:
        delta = places.direction_vector(ex, ctx, step["direction"]) * float(step.get("distance", 0.5))
    else:
        raise StepError("say how far and which way to move it")
    if float(np.linalg.norm(delta)) > 50.0:
        raise StepError("that move is more than 50 m; move things a little at a time")
    moved: list[tuple[str, dict[str, Any] | None, list[float]]] = []
    for g in ids:  # everything is checked before anything moves
        prop = ex.prop_of(ctx, g)
        if prop is not None:
            value = [round(float(a + b), 4) for a, b in zip(prop["position"], delta, strict=True)]
            where = np.asarray(value)
        else:
            t = ctx.state.transforms.get(g, {"translation": [0.0, 0.0, 0.0]})
            value = [round(float(a + b), 6) for a, b in zip(t["translation"], delta, strict=True)]
            el = ex.building.elements.get(g)
            base = el.centre if el is not None and el.has_geometry else ex.bounds.middle()
            where = base + np.asarray(value)
        if not ex.bounds.contains(where):
            raise StepError(say("move_too_far", what=ex.label(g), reach=f"{REACH_M:g}"))
        moved.append((g, prop, value))
    for g, prop, value in moved:
        if prop is not None:
            prop["position"] = value
            continue
        t = ctx.state.transforms.setdefault(g, {"translation": [0.0, 0.0, 0.0], "rotation_deg": [0.0, 0.0, 0.0]})
        t["translation"] = value
    return None, ex.changed(say("verb_move", d=metres(float(np.linalg.norm(delta)))), ids, step["target"]), ids
