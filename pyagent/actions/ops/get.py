"""``get``: a property or quantity of the selected elements: one value, a total for areas and volumes, or one per
element.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import join_names, said_as, say, unit_of
from pyagent.actions.selectors import noun_for
from pyagent.vocabulary import plural_noun

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "query"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:

    ids = [g for g in ex.targets(ctx, step["target"]) if g in ex.building.elements]
    if not ids:
        raise StepError("the props you placed have no IFC properties yet; save to make them real elements")
    prop = step["property"]
    values = [ex.value_of(g, prop) for g in ids]
    # a text property written empty says nothing ("FireRating": "")
    known = [(g, v) for g, v in zip(ids, values, strict=True)
             if v is not None and not (isinstance(v, str) and not v.strip())]
    if not known:
        raise StepError(say("get_missing_one", what=ex.label(ids[0]), prop=said_as(prop)) if len(ids) == 1
                        else say("get_missing_all", n=len(ids), noun=noun_for(step["target"], 2), prop=said_as(prop)))
    unit = unit_of(prop)
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for _, v in known)
    if len(known) == 1:
        g, v = known[0]
        shown = f"{v:.2f} {unit}".strip() if numeric else str(v)
        el = ex.building.elements[g]
        if prop == "room" and el.ifc_class == "IfcDoor" and len([r for r in el.sides if r]) == 2:
            # "where does this door lead": the two rooms it joins
            a, b = (ex.label(r) if r in ex.building.elements else "outside" for r in el.sides if r)
            return v, say("get_door_rooms", what=ex.label(g), a=a, b=b), ids
        if prop == "name" and str(v) == ex.label(g):  # "what's this building called": its name, said once
            return v, say("get_name", what=ex.building.elements[g].ifc_class.removeprefix("Ifc").lower(),
                          shown=shown), ids
        return (round(float(v), 4) if numeric else v), say("get_one", prop=said_as(prop), what=ex.label(g),
                                                           shown=shown), ids
    if numeric and prop.lower() in ("area", "volume", "floor_area"):
        total = float(sum(v for _, v in known))
        return round(total, 4), say("get_total", prop=said_as(prop), n=len(known), noun=noun_for(step["target"], 2),
                                    total=f"{total:.2f} {unit}".strip()), ids
    if numeric:
        vals = [float(v) for _, v in known]
        if max(vals) - min(vals) < 1e-3:
            shown = f"{vals[0]:.2f} {unit}".strip()
            return round(vals[0], 4), say("get_all_same", prop=said_as(prop), shown=shown), ids
        parts = [f"{ex.label(g)}: {float(v):.2f} {unit}".strip() for g, v in known]
        return [round(v, 4) for v in vals], say("get_each", props=_plural(said_as(prop)), parts=join_names(parts)), ids
    if len({str(v) for _, v in known}) == 1:  # "what are the railings made of": all of one, said once
        return [v for _, v in known], say("get_all_same_text", n=len(known), noun=noun_for(step["target"], 2),
                                          prop=said_as(prop), shown=str(known[0][1])), ids
    parts = [f"{ex.label(g)}: {v}" for g, v in known]
    return [v for _, v in known], say("get_each_text", parts=join_names(parts)), ids


def _plural(prop: str) -> str:
    """A property's name in the plural for an answer ("thickness" -> "thicknesses"); a name written as one
    word in CamelCase ("ThermalTransmittance") as it is written, with an "s"."""
    said = plural_noun(prop)
    return said if said != prop else f"{prop}s"
