"""The op registry: one module per schema op, each with its docstring, its kind, and its own tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyagent.actions import ops
from pyagent.actions.executor import CAMERA_OPS, HISTORY_OPS, QUERY_OPS
from pyagent.actions.schema import load_schema

HERE = Path(__file__).resolve().parent


def _schema_ops() -> set[str]:
    defs = load_schema()["$defs"]
    return {d["properties"]["op"]["const"] for k, d in defs.items() if k.startswith("step_")}


def test_every_schema_op_is_a_module_or_history() -> None:
    assert _schema_ops() == set(ops.ALL_OPS) | set(HISTORY_OPS)
    assert len(ops.ALL_OPS) == len(set(ops.ALL_OPS))


@pytest.mark.parametrize("op", ops.ALL_OPS)
def test_each_op_module_says_what_it_is_and_has_tests(op: str) -> None:
    mod = ops.module(op)
    assert mod.__doc__ and mod.__doc__.startswith(f"``{op}``"), op
    assert mod.KIND in ops.KINDS and callable(mod.run)
    assert (HERE / f"test_op_{op}.py").is_file(), f"tests/ops/test_op_{op}.py"


def test_queries_and_camera_moves_come_from_the_modules() -> None:
    assert set(QUERY_OPS) == {op for op in ops.ALL_OPS if ops.module(op).KIND == "query"}
    assert set(CAMERA_OPS) == {op for op in ops.ALL_OPS if ops.module(op).KIND == "camera"}


def test_no_english_sentence_is_built_in_an_op_module() -> None:
    # Answers come from answers.en.json: no op module returns a capitalised sentence literal.
    import re

    for op in ops.ALL_OPS:
        text = (Path(ops.__file__).parent / f"{op}.py").read_text(encoding="utf-8")
        code = text.split('"""', 2)[2]  # after the module docstring
        assert not re.search(r"return [^\n]*f?\"[A-Z][a-z]+ [a-z]+[^\"]*\.\"", code), op
