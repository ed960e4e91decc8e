"""The tool list is derived from the action schema: every op is a tool, every input schema is valid."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import jsonschema
import pytest
from mcp import Client

from pyagent.actions.executor import QUERY_OPS
from pyagent.actions.schema import def_validator, load_schema, schema_errors
from pyagent.mcp.app import build_server
from pyagent.mcp.tools import step_ops, tool_specs

EXTRA = {"run_program", "say", "set_pose", "get_state"}


def _listed(gateway: Any) -> list[Any]:
    async def main() -> list[Any]:
        async with Client(build_server(gateway)) as client:
            return list((await client.list_tools()).tools)

    return asyncio.run(main())


def test_every_schema_op_is_a_tool_with_a_valid_input_schema(gateway: Any) -> None:
    tools = {t.name: t for t in _listed(gateway)}
    ops = [alt["$ref"].split("/")[-1].removeprefix("step_") for alt in load_schema()["$defs"]["step"]["oneOf"]]
    assert len(ops) >= 37 and ops == step_ops()  # every op of the schema, review ops included
    assert set(tools) == set(ops) | EXTRA
    for name, tool in tools.items():
        schema = tool.input_schema
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object", name
        assert tool.description, name
        assert tool.annotations.read_only_hint == (name in QUERY_OPS or name == "get_state"), name
    # One tool's schema is the step's, less "op": the same fields, the same requirements.
    hide = tools["hide"].input_schema
    assert hide["required"] == ["target"] and set(hide["properties"]) == {"target"}
    assert "selector" in hide["$defs"] and "relation" in hide["$defs"] and "engine_state" not in hide["$defs"]


# Arguments that the step definition accepts or refuses; the tool's schema must agree on every one.
SAMPLES: list[tuple[str, dict[str, Any]]] = [
    ("count", {"target": {"class": ["IfcDoor"]}}),
    ("count", {}),
    ("count", {"target": {"class": ["Door"]}}),
    ("hide", {"target": {"storey": "upper", "relations": [{"rel": "in_front"}]}}),
    ("hide", {"target": {"ids": ["short"]}}),
    ("color", {"target": {"ref": "it"}, "rgba": [1, 0, 0, 1]}),
    ("color", {"target": {"ref": "it"}, "rgba": [1, 0, 0]}),
    ("move", {"target": {"ref": "selected"}, "direction": "north", "distance": 2}),
    ("move", {"target": {"ref": "selected"}, "distance": 200}),
    ("turn", {"degrees": 90}),
    ("turn", {"degrees": 90, "extra": 1}),
    ("note", {"text": "check this", "target": {"kind": "sofa"}}),
    ("note", {"text": ""}),
    ("undo", {"count": 2}),
    ("where_am_i", {}),
]


@pytest.mark.parametrize(("op", "args"), SAMPLES)
def test_tool_schema_agrees_with_the_step_definition(op: str, args: dict[str, Any]) -> None:
    tool = next(s for s in tool_specs() if s.name == op)
    by_tool = jsonschema.Draft202012Validator(tool.input_schema).is_valid(args)
    by_step = def_validator(f"step_{op}").is_valid({"op": op, **args})
    assert by_tool == by_step
    assert by_tool == (not schema_errors({"steps": [{"op": op, **args}]}))


def test_run_program_takes_the_program_schema() -> None:
    tool = next(s for s in tool_specs() if s.name == "run_program")
    v = jsonschema.Draft202012Validator(tool.input_schema)
    program = {"steps": [{"op": "count", "target": {"class": ["IfcWindow"]}},
                         {"op": "color", "target": {"step": 0}, "rgba": [0, 0, 1, 1]}]}
    assert v.is_valid(program)
    too_long = {"steps": [copy.deepcopy(program["steps"][0]) for _ in range(9)]}
    assert not v.is_valid(too_long) and schema_errors(too_long)
    assert not v.is_valid({"steps": [{"op": "shell", "cmd": "rm -rf /"}]})


def test_set_pose_takes_the_engine_pose() -> None:
    tool = next(s for s in tool_specs() if s.name == "set_pose")
    v = jsonschema.Draft202012Validator(tool.input_schema)
    assert v.is_valid({"position": [4, 4.5, 1.6], "yaw": 0, "pitch": 0})
    assert not v.is_valid({"position": [4, 4.5], "yaw": 0, "pitch": 0})
    assert not v.is_valid({"position": [1e9, 0, 0], "yaw": 0, "pitch": 0})
