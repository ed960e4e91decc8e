"""One module per op, each a small use case: ``run(executor, ctx, step) -> (value, answer, referenced ids)``.

The executor dispatches an op here when this package has a module of that name (the older ops still live
in ``executor.py`` as ``_op_<name>`` methods and move here one by one). Read-only queries are listed in
``QUERY_OPS`` and never change the scratch state. English answer text lives in ``answers.en.json`` and is
filled in by :func:`pyagent.actions.ops.answers.say`, apart from the logic.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context

OpRun = Callable[["Executor", "Context", dict[str, Any]], tuple[Any, str, list[str]]]

#: Ops of this package that only read (their value is the program's answer value).
QUERY_OPS = ("list_views", "sun_position", "measure_here")
#: Ops of this package that move the user.
CAMERA_OPS = ("go_to_view",)
MODULES = ("section", "move_section", "clear_section", "save_view", "go_to_view", "list_views", "sun",
           "sun_position", "model_view", "measure_here")


def handler(op: str) -> OpRun | None:
    """The ``run`` function of the op's module, or None when the op is not (yet) one of these modules."""
    if op not in MODULES:
        return None
    module: ModuleType = importlib.import_module(f"pyagent.actions.ops.{op}")
    run: OpRun = module.run
    return run
