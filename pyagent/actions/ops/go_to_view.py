"""``go_to_view``: back to a remembered view: the user's pose and the section it had."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from rapidfuzz import process

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say
from pyagent.actions.ops.save_view import view_key
from pyagent.model import Pose

KIND = "camera"

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context


def find_view(views: dict[str, Any], name: str) -> str | None:
    """The remembered view a spoken name means: exact, else the one clearly closest in spelling."""
    key = view_key(name)
    if key in views:
        return key
    best = process.extractOne(key, list(views), score_cutoff=80)
    return str(best[0]) if best else None


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    views = ctx.state.viewpoints
    key = find_view(views, step["name"])
    if key is None:
        known = say("views_known", names=", ".join(sorted(views))) if views else say("views_none")
        raise StepError(say("view_unknown", name=view_key(step["name"]), known=known))
    view = views[key]
    ctx.state.pose = Pose.from_json(view["pose"])
    ctx.state.sections = copy.deepcopy(view["sections"])
    return None, say("view_restored", name=key), []
