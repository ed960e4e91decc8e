"""``transparency``: make the selected elements see-through (alpha below 1) or opaque, keeping their colour."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import say

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "change"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    ids = ex.targets(ctx, step["target"])
    alpha = float(step["alpha"])
    for g in ids:
        el = ex.building.elements.get(g)
        base = ctx.state.colors.get(g) or list((el.color if el else None) or (0.8, 0.8, 0.8, 1.0))
        ctx.state.colors[g] = [float(base[0]), float(base[1]), float(base[2]), alpha]
    verb = say("verb_see_through" if alpha < 1 else "verb_opaque")
    return None, ex.changed(verb, ids, step["target"]), ids
