"""``rotate``: turn elements or placed props about the vertical axis through their centre."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyagent.actions.ops.answers import say
from pyagent.spatial import wrap_deg

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

KIND = "change"


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    ids = ex.targets(ctx, step["target"])
    deg = float(step["degrees"])
    for g in ids:
        prop = ex.prop_of(ctx, g)
        if prop is not None:
            prop["yaw"] = round(float(wrap_deg(prop["yaw"] + deg)), 3)
            continue
        t = ctx.state.transforms.setdefault(g, {"translation": [0.0, 0.0, 0.0], "rotation_deg": [0.0, 0.0, 0.0]})
        t["rotation_deg"][2] = round(float(wrap_deg(t["rotation_deg"][2] + deg)), 6)
    return None, ex.changed(say("verb_rotate", deg=f"{deg:g}"), ids, step["target"]), ids
