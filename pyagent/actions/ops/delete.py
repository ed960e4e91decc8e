"""``delete``: delete elements (kept in the state, restored by undo) or remove placed props; the spatial
structure cannot be deleted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "change"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    ids = ex.targets(ctx, step["target"])
    structural = [g for g in ids if g in ex.building.elements and ex.building.elements[g].ifc_class in (
        "IfcSpace", "IfcBuildingStorey", "IfcBuilding", "IfcSite")]
    placed = {g for g in ids if ex.prop_of(ctx, g) is not None}
    ctx.state.props = [p for p in ctx.state.props if p["id"] not in placed]
    ids = [g for g in ids if g not in placed] or ids
    if structural:
        raise StepError(say("delete_structure", what=ex.label(structural[0])))
    ctx.state.deleted |= {g for g in ids if g not in placed}
    ctx.state.hidden -= set(ids)
    ctx.state.selected = [g for g in ctx.state.selected if g not in ids]
    return None, ex.changed(say("verb_delete"), ids, step["target"]) + say("deleted_undo_hint"), ids
