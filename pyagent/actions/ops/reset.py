"""``reset``: back to the model as loaded: every edit undone at once (the pose and remembered views stay;
what the file itself hides, e.g. a saved review's switched-off layer, stays hidden as it was loaded)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import say
from pyagent.actions.state import SceneState

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "change"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    pose, views = ctx.state.pose, ctx.state.viewpoints
    ctx.state.restore_edits(SceneState().edits())
    ctx.state.pose, ctx.state.viewpoints = pose, views  # remembered views are the user's, not model edits
    ctx.state.hidden = {g for g, e in ex.building.elements.items() if e.hidden_in_file}
    return None, say("reset"), []
