"""``aggregate``: a total, average, smallest or largest value of one quantity over the selected elements
(value: the number, in metres, m² or m³; min and max also refer to the element(s) that have it).

Values are found as ``get`` finds them (``Executor.value_of``: the element's IFC quantities, dimensions and
properties). ``size`` means the area where the elements have one, else their volume. Elements without the
quantity are left out, and the answer says how many.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import join_distinct, said_as, say, unit_of
from pyagent.actions.selectors import noun_for

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"

#: Two values this close (relative) are the same extreme: every element that has it is named.
TIE_REL = 1e-3


def _numeric(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def quantity_of(ex: Executor, ids: list[str], prop: str) -> tuple[str, list[tuple[str, float]]]:
    """The quantity key actually used and the (id, value) pairs that have a number for it."""
    keys = ("area", "volume") if prop.strip().lower() in ("size", "big", "large") else (prop,)
    best: tuple[str, list[tuple[str, float]]] = (keys[0], [])
    for key in keys:
        found = [(g, float(v)) for g in ids for v in (ex.value_of(g, key),) if _numeric(v)]
        if len(found) > len(best[1]):
            best = (key, found)
    return best


def _shown(value: float, unit: str) -> str:
    """A figure as said: a count of things ("Bolt count") whole, a measure to two decimals."""
    if not unit and float(value).is_integer():
        return str(int(value))
    return f"{value:.2f} {unit}".strip()


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    ids = [g for g in ex.targets(ctx, step["target"]) if g in ex.building.elements]
    if not ids:
        raise StepError("the props you placed have no IFC quantities yet; save to make them real elements")
    fn = step["fn"]
    prop, known = quantity_of(ex, ids, step["property"])
    words = said_as(prop).replace("_", " ")
    n = len(ids)
    if not known:
        raise StepError(say("get_missing_one", what=ex.label(ids[0]), prop=words) if n == 1
                        else say("get_missing_all", n=n, noun=noun_for(step["target"], 2), prop=words))
    unit = unit_of(prop)
    missing = n - len(known)
    note = say("aggregate_missing", k=missing, n=n, prop=words) if missing else ""
    values = [v for _, v in known]
    noun = noun_for(step["target"], len(known))
    if fn in ("total", "average"):
        value = sum(values) if fn == "total" else sum(values) / len(values)
        shown = _shown(value, unit)
        answer = say(f"aggregate_{fn}", prop=words, n=len(known), noun=noun, shown=shown)
        return round(value, 4), answer + note, [g for g, _ in known]
    extreme = max(values) if fn == "max" else min(values)
    tol = max(abs(extreme) * TIE_REL, 1e-6)
    holders = [g for g, v in known if abs(v - extreme) <= tol]
    shown = _shown(extreme, unit)
    what = join_distinct([ex.label(g) for g in holders])
    key = f"aggregate_{fn}_one" if len(holders) == 1 else f"aggregate_{fn}_tied"
    answer = say(key, prop=words, n=len(known), noun=noun, what=what, shown=shown, k=len(holders))
    return round(extreme, 4), answer + note, holders
