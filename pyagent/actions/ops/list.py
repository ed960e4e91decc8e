"""``list``: the elements a selector means, by name (value: their GlobalIds)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import join_names, say
from pyagent.actions.selectors import Resolver, element_value, noun_for

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"
#: Orders by a measure, and the measure said with the things they pick.
_ORDER_MEASURE = {"largest": ("area", "m²"), "smallest": ("area", "m²"), "tallest": ("height", "m"),
                  "widest": ("width", "m")}


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    ids = ex.targets(ctx, step["target"], allow_empty=True)
    if not ids:
        return [], Resolver(ctx).explain_empty(step["target"]), []
    names = [ex.label(g) for g in ids]
    measure = _ORDER_MEASURE.get(str(step["target"].get("order")))
    if measure is not None and len(ids) <= 3:  # "the largest room": with the size that makes it so
        key, unit = measure
        values = [element_value(ex.building.elements[g], key) for g in ids]
        names = [f"{n} ({v:.2f} {unit})" if isinstance(v, (int, float)) else n
                 for n, v in zip(names, values, strict=True)]
    return ids, say("list", n=len(ids), noun=noun_for(step["target"], len(ids)), names=join_names(names)), ids
