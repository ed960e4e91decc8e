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
    measure = _ORDER_MEASURE.get(str(step["target"].get("order")))
    if measure is not None and step["target"].get("limit") == 1 and len(ids) == 1:
        tied = _tied(ex, ctx, step["target"], ids[0], measure[0])
        if len(tied) > 1:  # "the smallest window" where four share the smallest area: all four
            value = element_value(ex.building.elements[ids[0]], measure[0])
            return tied, say("list_tied", n=len(tied), noun=noun_for(step["target"], len(tied)),
                             order=step["target"]["order"], value=f"{value:.2f} {measure[1]}",
                             names=join_names([ex.label(g) for g in tied])), tied
    names = [ex.label(g) for g in ids]
    if measure is not None and len(ids) <= 3:  # "the largest room": with the size that makes it so
        key, unit = measure
        values = [element_value(ex.building.elements[g], key) for g in ids]
        names = [f"{n} ({v:.2f} {unit})" if isinstance(v, (int, float)) else n
                 for n, v in zip(names, values, strict=True)]
    return ids, say("list", n=len(ids), noun=noun_for(step["target"], len(ids)), names=join_names(names)), ids


def _tied(ex: Executor, ctx: Context, target: dict[str, Any], first: str, key: str) -> list[str]:
    """The things of ``target`` (without its limit) whose measure equals the first one's."""
    value = element_value(ex.building.elements[first], key)
    if not isinstance(value, (int, float)):
        return [first]
    wider = ex.targets(ctx, {k: v for k, v in target.items() if k != "limit"}, allow_empty=True)
    out = []
    for gid in wider:
        other = element_value(ex.building.elements[gid], key)
        if isinstance(other, (int, float)) and abs(other - value) <= 1e-6 * max(1.0, abs(value)):
            out.append(gid)
    return out if first in out else [first]
