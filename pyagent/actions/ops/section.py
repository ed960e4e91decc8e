"""``section``: cut the model open with a horizontal plane or a section box (replaces any section)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import metres, say
from pyagent.actions.selectors import resolve_storey
from pyagent.review import sections

KIND = "change"

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    sp = ex.spatial
    body = ~sp.structure
    centre = (sp.bmin[body].min(axis=0) + sp.bmax[body].max(axis=0)) / 2 if body.any() else ctx.pose.position
    if step["mode"] == "plane":
        if "height" not in step:
            raise StepError("say how high to cut, e.g. \"cut the building at 1.2 metres\"")
        storey = resolve_storey(ex.building, ctx, step["storey"]) if step.get("storey") else ctx.user_storey()
        base = storey.elevation if storey is not None else 0.0
        z = base + float(step["height"])
        planes = sections.horizontal_cut(z, (float(centre[0]), float(centre[1])))
        if body.any() and z <= float(sp.bmin[body, 2].min()):
            raise StepError(say("section_cut_everything", height=metres(z)))
        ctx.state.sections = planes
        if storey is None:
            return None, say("section_plane_no_storey", height=metres(float(step["height"]))), []
        return None, say("section_plane", height=metres(float(step["height"])), storey=storey.name), []
    if "target" not in step:
        raise StepError("say what the section box should go around, e.g. \"show a section through the kitchen\"")
    ids = [g for g in ex.targets(ctx, step["target"]) if g in sp.index]
    if not ids:
        raise StepError("there is nothing to put a section box around")
    rows = np.array([sp.index[g] for g in ids], int)
    ctx.state.sections = sections.box(sp.bmin[rows].min(axis=0), sp.bmax[rows].max(axis=0))
    what = ex.label(ids[0]) if len(ids) == 1 else f"{len(ids)} elements"
    return None, say("section_box", what=what), ids
