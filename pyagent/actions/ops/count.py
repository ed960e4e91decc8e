"""``count``: how many elements a selector means, and on which storeys they are (value: the number)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.actions.ops.answers import say
from pyagent.actions.selectors import SelectionError, noun_for, resolve_storey
from pyagent.vocabulary import class_matches

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    ids = ex.targets(ctx, step["target"], allow_empty=True)
    n = _counted(ex, ids, step["target"])
    noun = noun_for(step["target"], n)
    if ids and not any(k in step["target"] for k in ("class", "kind", "name")):
        # "how many?" after "are there windows behind me": windows, where all that was counted is of one class
        classes = {ex.building.elements[g].ifc_class for g in ids if g in ex.building.elements}
        if len(classes) == 1:
            noun = noun_for({"class": sorted(classes)}, n)
    by_class = _by_class(ex, ids, step["target"])
    if by_class:  # "how many doors and windows": each said, rather than where they all are
        where = say("count_on_storey", storey=step["target"]["storey"]) if step["target"].get("storey") else ""
        where += say("count_per_storey", parts=by_class)
    else:
        where = _where_counted(ex, ctx, ids, step["target"])
    answer = say("count", be="is" if n == 1 else "are", n=n, noun=noun, where=where)
    return n, answer[:-1] + _held(ex, ids, noun) + answer[-1:], ids


def _held(ex: Executor, ids: list[str], noun: str) -> str:
    """", 144 in all by their Bolt count": where every element counted says how many of the things named it
    holds (a Tekla bolt group's "Bolt count"), the total of that too; "" otherwise."""
    els = [ex.building.elements[g] for g in ids if g in ex.building.elements]
    words = noun.lower().split()
    if not els or not words:
        return ""
    thing = words[-1].rstrip("s")
    for key in sorted(k for k in els[0].properties if "." not in k and k.lower().endswith(" count")):
        if key.lower().split()[0].rstrip("s") != thing:
            continue
        values = [el.properties.get(key) for el in els]
        numbers = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if len(numbers) == len(values):
            total = sum(numbers)
            if total != len(els):
                return say("count_held", total=f"{total:g}", prop=key)
    return ""


def _by_class(ex: Executor, ids: list[str], sel: dict[str, Any]) -> str:
    """"14 doors and 24 windows": the count of each class a selector of several classes asked for, where
    more than one of them was found; "" otherwise."""
    classes = list(sel.get("class") or ())
    if len(classes) < 2 or sel.get("kind") or sel.get("name"):
        return ""
    sp = ex.spatial
    rows = np.array([sp.index[g] for g in ids if g in sp.index], int)
    counts: list[tuple[str, int]] = []
    for c in classes:  # matched as the selector matched them (supertype, predefined type, whole, type)
        mine = [sp.ids[r] for r in rows[sp.class_mask(frozenset({c}))[rows]]]
        k = _counted(ex, mine, {"class": [c]})
        if k:
            counts.append((noun_for({"class": [c]}, k), k))
    if len(counts) < 2:
        return ""
    parts = [f"{k} {noun}" for noun, k in counts]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _where_counted(ex: Executor, ctx: Context, ids: list[str], sel: dict[str, Any]) -> str:
    """Where counted elements are: " on Erdgeschoss", ": 7 on Erdgeschoss, 4 on Dachgeschoss",
    or "" (nothing counted, one storey or none, the question named a room, or it counted storeys). Where the
    question named a storey, that one: a column standing on the ground floor that reaches the third is on the
    third as asked, not "on Ground Floor"."""
    if sel.get("ground"):
        return say(f"count_ground_{sel['ground']}")
    if not ids or sel.get("room") or "IfcBuildingStorey" in (sel.get("class") or ()):
        return ""  # storeys are not on storeys
    if sel.get("storey") and len(ex.building.storeys) > 1:
        try:
            return say("count_on_storey", storey=resolve_storey(ex.building, ctx, str(sel["storey"])).name)
        except SelectionError:
            return ""
    if len(ex.building.storeys) < 2:
        return ""  # a building of one storey: everything is on it ("26 columns on Undefined" says nothing)
    per_storey: dict[str, int] = {}
    for g in ids:
        el = ex.building.elements.get(g)
        st = ex.building.storey(el.storey) if el is not None and el.storey else None
        if st is not None:
            per_storey[st.name] = per_storey.get(st.name, 0) + 1
    if not per_storey:
        return ""
    if len(per_storey) == 1 and sum(per_storey.values()) == len(ids):
        return say("count_on_storey", storey=next(iter(per_storey)))
    order = {st.name: st.index for st in ex.building.storeys}
    ordered = sorted(per_storey.items(), key=lambda kv: order.get(kv[0], 0))
    parts = [say("count_part", n=k, storey=name) for name, k in ordered]
    return say("count_per_storey", parts=", ".join(parts))


def _counted(ex: Executor, ids: list[str], sel: dict[str, Any]) -> int:
    """How many things the person asked about: the parts of a bodiless whole of the asked class (the
    slabs of one IfcRoof) count once, as that whole."""
    wanted = set(sel.get("class") or ())
    if not wanted:
        return len(ids)
    singles = 0
    wholes: set[str] = set()
    for g in ids:
        el = ex.building.elements.get(g)
        if el is not None and el.whole is not None and not class_matches(
                ex.building.schema, el.ifc_class, el.properties.get("PredefinedType"), wanted):
            wholes.add(el.whole)
        else:
            singles += 1
    return singles + len(wholes)
