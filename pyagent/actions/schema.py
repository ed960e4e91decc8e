"""The action schema: loaded once from the single JSON file, used to validate programs."""

from __future__ import annotations

import copy
import json
import math
from functools import lru_cache
from typing import Any

import jsonschema

from pyagent.jsonsafe import finite_number
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


# Bounds checked before any schema work, so that checking a hostile program costs little and says little.
# A valid program is far inside them: 8 steps, selectors of at most 500 GlobalIds, strings of at most 500
# characters.
MAX_DEPTH = 24
MAX_STEPS = 8
MAX_NODES = 20_000  # JSON values in the whole program
MAX_STRING = 4096  # characters in one string
MAX_CHARS = 512 * 1024  # characters in all strings together
MAX_ERROR_CHARS = 200  # one error message (jsonschema's messages repeat the offending value)


def _shape_problem(program: Any) -> str | None:
    """What makes ``program`` too big, too deep, or not plain finite JSON; None when it is within bounds.
    Iterative, and stops at the first problem: its cost is bounded by the limits, not by the input."""
    nodes = chars = 0
    stack: list[tuple[Any, str, int]] = [(program, "program", 1)]
    while stack:
        v, where, depth = stack.pop()
        nodes += 1
        if depth > MAX_DEPTH:
            return f"program: nested too deeply (more than {MAX_DEPTH} levels)"
        if nodes > MAX_NODES:
            return f"program: too large (more than {MAX_NODES} values)"
        if isinstance(v, bool) or v is None:
            continue
        if isinstance(v, float):
            if not math.isfinite(v):
                return f"{where}: numbers must be finite (got {v})"
        elif isinstance(v, int):
            if not finite_number(v):
                return f"{where}: number out of range"
        elif isinstance(v, str):
            chars += len(v)
            if len(v) > MAX_STRING:
                return f"{where}: string too long ({len(v)} characters, at most {MAX_STRING})"
            if chars > MAX_CHARS:
                return f"program: too large (more than {MAX_CHARS} characters of text)"
        elif isinstance(v, dict):
            for k, x in v.items():
                if not isinstance(k, str):
                    return f"{where}: keys must be strings"
                stack.append((x, f"{where}/{k[:40]}" if where != "program" else k[:40], depth + 1))
        elif isinstance(v, list):
            stack.extend((x, f"{where}/{i}" if where != "program" else str(i), depth + 1) for i, x in enumerate(v))
        else:
            return f"{where}: {type(v).__name__} is not a JSON value"
    return None


def _short(text: str) -> str:
    return text if len(text) <= MAX_ERROR_CHARS else text[:MAX_ERROR_CHARS - 1] + "…"


def schema_errors(program: Any) -> list[str]:
    """Human-readable schema errors for a program; empty when it is valid. Size, nesting, step count and
    number range are checked first (non-finite numbers are an error anywhere), and each message is short."""
    if not isinstance(program, dict):
        return ["a program must be a JSON object with a list of steps"]
    steps = program.get("steps")
    if isinstance(steps, list) and len(steps) > MAX_STEPS:
        return [f"steps: a program has at most {MAX_STEPS} steps (got {len(steps)})"]
    problem = _shape_problem(program)
    if problem:
        return [problem]
    if _fast_valid(program):
        return []
    return _explain(program)


def _explain(program: dict[str, Any]) -> list[str]:
    """Why a bounded program is invalid: the top level by the whole schema, each step by the one definition
    its op names (the whole schema's oneOf would try every step kind on every value: 27 times the work)."""
    errors: list[str] = []
    steps = program.get("steps")
    top = {k: v for k, v in program.items() if k != "steps"}
    top["steps"] = [{"op": "undo"}] * len(steps) if isinstance(steps, list) else steps
    for err in sorted(_validator().iter_errors(top), key=lambda e: list(e.absolute_path)):
        errors.append(_short(f"{'/'.join(str(p) for p in err.absolute_path) or 'program'}: {err.message}"))
    if isinstance(steps, list):
        known = sorted(k[len("step_"):] for k in load_schema()["$defs"] if k.startswith("step_"))
        for i, step in enumerate(steps):
            if len(errors) >= 5:
                break
            op = step.get("op") if isinstance(step, dict) else None
            validator = _step_validator(op) if isinstance(op, str) else None
            if not isinstance(step, dict):
                errors.append(f"steps/{i}: a step must be an object with an 'op'")
            elif validator is None:
                errors.append(_short(f"steps/{i}: unknown op {str(op)[:40]!r}; known: {', '.join(known)}"))
            else:
                best = jsonschema.exceptions.best_match(validator.iter_errors(step))
                if best is not None:
                    errors.append(_short(f"steps/{i}: step op {op!r}: {best.message}"))
    return errors[:5] or ["program: does not match the schema"]
