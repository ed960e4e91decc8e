"""One module per op, each a small use case: ``run(executor, ctx, step) -> (value, answer, referenced ids)``.

Every step op of the action schema has a module of its name here (``undo`` and ``redo`` are the
executor's history, not steps). Each module says what it is in ``KIND``:

- ``query``: reads only; its value is the program's answer value (the LLM may run these to look);
- ``change``: changes the scene state (journaled, undoable);
- ``camera``: moves the user (undoable as one pose change);
- ``record``: writes outside the scene (revisions, notes), only after the whole program succeeded.

English answer text lives in ``answers.en.json`` and is filled in by
:func:`pyagent.actions.ops.answers.say`, apart from the logic.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

OpRun = Callable[["Executor", "Context", dict[str, Any]], tuple[Any, str, list[str]]]

KINDS = ("query", "change", "camera", "record")
#: Every op module, by what it does.
MODULES: dict[str, tuple[str, ...]] = {
    "query": ("count", "list", "exists", "get", "distance", "route", "where_am_i", "describe", "list_views",
              "sun_position", "measure_here", "aggregate", "group"),
    "change": ("hide", "show", "isolate", "color", "reset_color", "transparency", "move", "rotate", "delete",
               "add_prop", "select", "reset", "section", "move_section", "clear_section", "save_view", "sun",
               "model_view"),
    "camera": ("teleport", "turn", "look_at", "go_to_view", "walk", "change_floor"),
    "record": ("save", "export_notes", "note"),
}
ALL_OPS = tuple(op for ops in MODULES.values() for op in ops)
#: Ops that only read (their value is the program's answer value).
QUERY_OPS = MODULES["query"]
#: Ops that move the user.
CAMERA_OPS = MODULES["camera"]


@cache
def module(op: str) -> ModuleType:
    """The op's module; its ``KIND`` must be the kind it is listed under."""
    if op not in ALL_OPS:
        raise KeyError(f"no op module for {op!r}")
    mod = importlib.import_module(f"pyagent.actions.ops.{op}")
    listed = next(kind for kind, ops in MODULES.items() if op in ops)
    if getattr(mod, "KIND", None) != listed:
        raise TypeError(f"pyagent.actions.ops.{op} declares KIND {getattr(mod, 'KIND', None)!r}, listed as {listed!r}")
    return mod


def handler(op: str) -> OpRun:
    """The ``run`` function of the op's module."""
    run: OpRun = module(op).run
    return run
