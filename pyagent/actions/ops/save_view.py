"""``save_view``: remember the user's current view (pose and section) under a name."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say

KIND = "change"

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

MAX_VIEWS = 100  # the schema's maxProperties for engine_state.viewpoints


def view_key(name: str) -> str:
    """Views are found again whatever the case and spacing the user says their name with."""
    return " ".join(name.split()).strip().lower()


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    name = view_key(step["name"])
    if not name:
        raise StepError("a view needs a name, e.g. \"remember this view as entrance\"")
    views = ctx.state.viewpoints
    replacing = name in views
    if not replacing and len(views) >= MAX_VIEWS:
        raise StepError(say("views_full", n=len(views)))
    views[name] = {"pose": ctx.state.pose.to_json(), "sections": copy.deepcopy(ctx.state.sections)}
    return None, say("view_replaced" if replacing else "view_saved", name=name), []
