"""The MCP tools, derived from the action JSON Schema (never restated by hand).

One tool per step op of ``$defs/step`` (its input schema is the step's definition without ``op``),
plus ``run_program`` (the whole program schema), ``say`` (plain language through the front end),
``set_pose`` (``$defs/engine_pose``) and ``get_state``. Each input schema carries only the ``$defs``
it reaches, so a client can validate arguments on its own.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pyagent.actions.executor import QUERY_OPS
from pyagent.actions.schema import load_schema, program_schema

MAX_SAY_CHARS = 1000

# The kinds of tool: "op" runs one step; the others are the session's other ways in.
OP, PROGRAM, SAY, SET_POSE, GET_STATE = "op", "program", "say", "set_pose", "get_state"


@dataclass(frozen=True)
class ToolSpec:
    name: str
    kind: str
    description: str
    input_schema: dict[str, Any]
    read_only: bool


def _refs(value: Any) -> set[str]:
    """The ``$defs`` names a schema fragment refers to directly."""
    found: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            ref = v.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                found.add(ref.removeprefix("#/$defs/"))
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return found


def _with_defs(root: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """``root`` plus the definitions it reaches (transitively), so its ``#/$defs/...`` refs resolve."""
    needed: set[str] = set()
    todo = list(_refs(root))
    while todo:
        name = todo.pop()
        if name in needed:
            continue
        needed.add(name)
        todo.extend(_refs(defs[name]) - needed)
    out = {"$schema": "https://json-schema.org/draft/2020-12/schema", **copy.deepcopy(root)}
    if needed:
        out["$defs"] = {k: copy.deepcopy(defs[k]) for k in sorted(needed)}
    return out


def step_ops() -> list[str]:
    """The ops of the schema, in its order (from ``$defs/step``'s alternatives)."""
    defs = load_schema()["$defs"]
    ops = []
    for alt in defs["step"]["oneOf"]:
        name = alt["$ref"].removeprefix("#/$defs/")
        ops.append(defs[name]["properties"]["op"]["const"])
    return ops


def _op_tool(op: str, defs: dict[str, Any]) -> ToolSpec:
    step = defs[f"step_{op}"]
    props = {k: v for k, v in step["properties"].items() if k != "op"}
    root: dict[str, Any] = {"type": "object", "additionalProperties": False, "properties": props}
    required = [k for k in step.get("required", []) if k != "op"]
    if required:
        root["required"] = required
    query = op in QUERY_OPS
    what = "Query" if query else "Change"
    text = step.get("description", "")
    description = (f"{what} step '{op}' of the BimVoice action language, run on the live review session"
                   f"{' (journaled and undoable; engines see it at once)' if not query else ''}."
                   + (f" {text}" if text else "")
                   + " Arguments are the step's fields; a 'target' is a selector (ifc classes, names, storey, room,"
                     " spatial relations to the reviewer's pose, ids).")
    return ToolSpec(op, OP, description, _with_defs(root, defs), query)


@lru_cache(maxsize=1)
def tool_specs() -> tuple[ToolSpec, ...]:
    schema = load_schema()
    defs = schema["$defs"]
    specs = [_op_tool(op, defs) for op in step_ops()]
    program = program_schema()
    run_root = {"type": "object", "additionalProperties": False, "required": ["steps"],
                "properties": copy.deepcopy(program["properties"])}
    specs.append(ToolSpec(
        "run_program", PROGRAM,
        "Run a whole action program (up to 8 steps; later steps may use earlier results through {\"step\": i}) "
        "as one change: one journal entry, one undo. " + schema.get("description", ""),
        _with_defs(run_root, program["$defs"]), False))
    specs.append(ToolSpec(
        "say", SAY,
        "Plain language, as if the reviewer had said it in the headset (e.g. 'hide the door in front of me', "
        "'how many windows are upstairs?'): the same front end turns it into a validated program and runs it.",
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
         "additionalProperties": False, "required": ["text"],
         "properties": {"text": {"type": "string", "minLength": 1, "maxLength": MAX_SAY_CHARS}}}, False))
    specs.append(ToolSpec(
        "set_pose", SET_POSE,
        "Place the reviewer: eye position in metres (IFC frame, Z up), yaw in degrees counter-clockwise from +X, "
        "pitch in degrees. 'in front of me', 'this room' and the like are relative to this pose.",
        _with_defs(copy.deepcopy(defs["engine_pose"]), defs), False))
    specs.append(ToolSpec(
        "get_state", GET_STATE,
        "The scene state: every difference from the file as loaded (hidden, colours, transforms, deleted, "
        "props, selection) and the reviewer's pose, IFC frame; with the session's revision.",
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
         "additionalProperties": False, "properties": {}}, True))
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise RuntimeError(f"tool names collide: {names}")
    return tuple(specs)


def spec(name: str) -> ToolSpec | None:
    return next((s for s in tool_specs() if s.name == name), None)
