"""``exists``: whether a selector means anything (value: true or false)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import say
from pyagent.actions.selectors import noun_for

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    target = step["target"]
    ids = ex.targets(ctx, target, allow_empty=True)
    rels = target.get("relations") or []
    if target.get("ids") and len(target["ids"]) == 1 and len(rels) == 1 and rels[0].get("rel") == "connected":
        # "can I walk straight from the kitchen into the living room?": say which rooms
        others = ex.targets(ctx, rels[0]["of"], allow_empty=True)
        if len(others) == 1:
            a, b = ctx.building.elements[others[0]].label(), ctx.building.elements[target["ids"][0]].label()
            return bool(ids), say("joined_yes" if ids else "joined_no", a=a, b=b), ids
    if target.get("ids") and len(target["ids"]) == 1 and [r.get("rel") for r in rels] == ["reachable"]:
        # "can I get into the kitchen from here without going outside?": say which room
        room = ctx.building.elements[target["ids"][0]].label()
        return bool(ids), say("reach_yes" if ids else "reach_no", room=room), ids
    if "step" in target:  # whether the things an earlier step found hold a test
        things = ex.targets(ctx, {"step": target["step"]}, allow_empty=True)
        return _holds(ctx, target, things, ids)
    noun = noun_for(target, 1)
    return bool(ids), say("exists_yes" if ids else "exists_no", noun=noun), ids


def _test_words(target: dict[str, Any]) -> str:
    """The test of a selector in words: "load bearing", "outside", "made of beton", "height over 2"."""
    out = []
    if "external" in target:
        out.append("outside" if target["external"] else "inside")
    for f in target.get("where") or []:
        key, cmp, value = f["key"], f["cmp"], f["value"]
        words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", key).lower()
        if isinstance(value, bool) and cmp == "eq":
            out.append(words if value else f"not {words}")
        elif key == "material":
            out.append(f"made of {value}")
        elif cmp == "contains":
            out.append(f"{words} with '{value}'")
        elif key in _DIMENSION_WORDS and isinstance(value, (int, float)):
            unit = "m²" if key == "area" else "m"
            out.append(f"{_CMP_WORDS.get(cmp, cmp)} {value:g} {unit} {_DIMENSION_WORDS[key]}")
        else:
            out.append(f"{words} {_CMP_WORDS.get(cmp, cmp)} {value}")
    return " and ".join(out) or "so"


_DIMENSION_WORDS = {"height": "tall", "width": "wide", "depth": "deep", "length": "long", "thickness": "thick",
                    "area": "in area"}
_CMP_WORDS = {"gt": "over", "gte": "at least", "lt": "under", "lte": "at most", "eq": "of", "ne": "not"}


def _holds(ctx: Context, target: dict[str, Any], things: list[str], hold: list[str]) -> tuple[bool, str, list[str]]:
    """Yes when every one of ``things`` holds the test (and there are some); the answer says which do."""
    labels = [ctx.building.elements[g].label() for g in things]
    test = _test_words(target)
    if not things:
        return False, say("holds_nothing"), []
    held = set(hold)
    yes = [lab for g, lab in zip(things, labels, strict=True) if g in held]
    no = [lab for g, lab in zip(things, labels, strict=True) if g not in held]
    if not no:
        return True, say("holds_yes", names=_names(yes), verb="is" if len(yes) == 1 else "are", test=test), things
    if not yes:
        return False, say("holds_no", names=_names(no), verb="is" if len(no) == 1 else "are", test=test), things
    return False, say("holds_some", yes=_names(yes), no=_names(no), test=test), things


def _names(labels: list[str]) -> str:
    return ", ".join(labels[:5]) + (f" and {len(labels) - 5} more" if len(labels) > 5 else "")
