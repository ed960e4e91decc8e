"""``move_section``: move the horizontal cut (a plane, or a section box's top) up or down."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import metres, say, signed_cm
from pyagent.review import sections

KIND = "change"

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    planes = ctx.state.sections
    if not planes or not sections.top_planes(planes):
        raise StepError(say("no_section"))
    by = float(step["by"])
    moved = sections.moved(planes, by)
    height = sections.cut_height(moved)
    assert height is not None
    sp = ex.spatial
    body = ~sp.structure
    if body.any() and height <= float(sp.bmin[body, 2].min()):
        raise StepError(say("section_cut_everything", height=metres(height)))
    ctx.state.sections = moved
    direction = "up" if by >= 0 else "down"
    if len(moved) > 1:
        return None, say("section_moved_box", direction=direction, amount=signed_cm(by)), []
    storey = ctx.user_storey()
    above = height - (storey.elevation if storey is not None else 0.0)
    shown = f"{metres(above)} above {storey.name}" if storey is not None else metres(height)
    return None, say("section_moved", direction=direction, amount=signed_cm(by), height=shown), []
