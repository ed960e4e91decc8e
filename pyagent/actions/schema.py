"""The action schema: loaded once from the single JSON file, used to validate programs."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any

import jsonschema

from pyagent.paths import schema_path


@lru_cache(maxsize=1)
def load_schema() -> dict[str, Any]:
    return json.loads(schema_path().read_text())


def schema_version() -> str:
    return str(load_schema()["x-version"])


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_schema())


def def_validator(name: str) -> jsonschema.Draft202012Validator:
    """A validator for one of the schema's $defs (e.g. ``engine_delta``), resolving references."""
    schema = copy.deepcopy(load_schema())
    schema.pop("properties", None)
    schema.pop("required", None)
    schema.pop("additionalProperties", None)
    schema["$ref"] = f"#/$defs/{name}"
    schema.pop("type", None)
    return jsonschema.Draft202012Validator(schema)


def program_schema() -> dict[str, Any]:
    """The program schema without the engine message definitions (what a language model may write)."""
    schema = copy.deepcopy(load_schema())
    schema["$defs"] = {k: v for k, v in schema["$defs"].items() if not k.startswith("engine_")}
    return schema


@lru_cache(maxsize=64)
def _step_validator(op: str) -> jsonschema.Draft202012Validator | None:
    if f"step_{op}" not in load_schema()["$defs"]:
        return None
    return def_validator(f"step_{op}")


def _fast_valid(program: dict[str, Any]) -> bool:
    """Each step checked against its own definition (the one its op names): the same verdict as the
    whole schema's oneOf, at a fraction of the cost. Errors are explained by the full validation."""
    steps = program.get("steps")
    if set(program) != {"steps"} or not isinstance(steps, list) or not 1 <= len(steps) <= 8:
        return False
    for step in steps:
        if not isinstance(step, dict) or not isinstance(step.get("op"), str):
            return False
        validator = _step_validator(step["op"])
        if validator is None or not validator.is_valid(step):
            return False
    return True


MAX_DEPTH = 24


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of a JSON value, counting no further than ``limit`` (iterative: no recursion)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
    return deepest


def schema_errors(program: Any) -> list[str]:
    """Human-readable schema errors for a program; empty when it is valid."""
    if not isinstance(program, dict):
        return ["a program must be a JSON object with a list of steps"]
    if _depth(program, MAX_DEPTH) > MAX_DEPTH:
        return [f"program: nested too deeply (more than {MAX_DEPTH} levels)"]
    if _fast_valid(program):
        return []
    errors = []
    for err in sorted(_validator().iter_errors(program), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(p) for p in err.absolute_path) or "program"
        message = err.message
        if err.validator == "oneOf" and isinstance(err.instance, dict) and "op" in err.instance:
            best = jsonschema.exceptions.best_match(err.context) if err.context else None
            message = f"step op {err.instance.get('op')!r}: " + (best.message if best else "does not fit any step")
        errors.append(f"{where}: {message}")
    return errors[:5]
