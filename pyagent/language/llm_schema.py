"""The action schema as the language model sees it: loaded from the one schema file, then narrowed.

Nothing here restates the schema. The program schema is the file itself (validation always uses the
full file). The *guidance* schema handed to the constrained decoder (llguidance inside
onnxruntime-genai) is derived from it by transformations in code:

- the engine-facing ``engine_*`` definitions are dropped (a program never contains them);
- ``oneOf`` is rewritten to ``anyOf`` where the alternatives are provably disjoint (each names a
  distinct ``const`` for a shared required key, as the step ``op`` does): llguidance rejects ``oneOf``
  ("oneOf constraints are not supported"), and for disjoint alternatives the two mean the same;
- every terminal is bounded, so any output the decoder can produce has a bounded length: recursion
  through selectors is unrolled to a fixed depth, arrays and strings get smaller caps, numbers get a
  ``multipleOf`` (without it llguidance lets a number grow digits for ever), and JSON is compact
  (without it an untrained model can emit whitespace for ever);

so every output of the guidance schema is also valid under the full schema (it only narrows).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from pyagent.actions.schema import load_schema, schema_errors
from pyagent.paths import schema_path

SCHEMA_PATH = schema_path()
ENGINE_PREFIX = "engine_"


class SchemaTransformError(ValueError):
    """The schema has a construct the guidance transform cannot narrow safely."""


@dataclass(frozen=True)
class GuidanceLimits:
    """Caps applied to the guidance schema (never looser than the schema's own)."""

    max_items: int = 4  # array maxItems cap (fixed-length arrays such as vec3 keep their length)
    max_string: int = 48  # string maxLength cap
    max_nesting: int = 3  # $ref hops inside a recursive group (selector -> relation -> selector ...)
    number_step: float = 0.001  # multipleOf for numbers: at most three decimals
    number_bound: float = 100000.0  # |bound| given to numbers and integers that have none
    ops: frozenset[str] | None = None  # keep only these step operations (None: all)


def load_action_schema() -> dict[str, Any]:
    """A private copy of the action schema file, parsed."""
    return copy.deepcopy(load_schema())


def program_errors(program: Any) -> list[str]:
    """Schema errors of an action program against the full schema file (empty when valid)."""
    return schema_errors(program)


def program_schema(schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """The schema without the engine definitions, checked to be self-contained."""
    schema = copy.deepcopy(schema if schema is not None else load_action_schema())
    defs = schema.get("$defs", {})
    for name in [n for n in defs if n.startswith(ENGINE_PREFIX)]:
        del defs[name]
    missing = sorted({ref for ref in _refs(schema) if _ref_name(ref) not in defs})
    if missing:
        raise SchemaTransformError(f"the program schema refers to definitions it lacks: {missing}")
    return schema


def guidance_schema(schema: dict[str, Any] | None = None, limits: GuidanceLimits | None = None) -> dict[str, Any]:
    """The narrowed, bounded, self-contained schema for the constrained decoder."""
    limits = limits or GuidanceLimits()
    base = program_schema(schema)
    defs: dict[str, Any] = base.pop("$defs", {})
    recursive = _recursive_defs(defs)
    out_defs: dict[str, Any] = {}

    def def_name(name: str, depth: int) -> str:
        return f"{name}__{depth}" if name in recursive else name

    def emit(name: str, depth: int) -> str:
        key = def_name(name, depth)
        if key not in out_defs:
            out_defs[key] = {}  # placeholder against cycles
            out_defs[key] = walk(defs[name], depth, name in recursive)
        return key

    def walk(node: Any, depth: int, inside: bool) -> Any:
        """Copy ``node``; ``depth`` counts hops into the recursive group; None means drop."""
        if isinstance(node, list):
            return [walk(v, depth, inside) for v in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            target = _ref_name(node["$ref"])
            if target in recursive:
                nxt = depth + 1 if inside else 0
                if nxt > limits.max_nesting:
                    return None
                key = emit(target, nxt)
            else:
                key = emit(target, depth)
            rest = {k: walk(v, depth, inside) for k, v in node.items() if k != "$ref"}
            return {"$ref": f"#/$defs/{key}", **rest}
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "properties":
                props = {}
                for pname, pschema in value.items():
                    copied = walk(pschema, depth, inside)
                    if _dropped(copied):
                        if pname in node.get("required", []):
                            raise SchemaTransformError(
                                f"required property {pname!r} is recursive and cannot be bounded"
                            )
                        continue
                    props[pname] = copied
                out[key] = props
            elif key == "oneOf":
                alternatives = _keep_ops(_disjoint_alternatives(value, defs), defs, limits.ops)
                out["anyOf"] = [walk(v, depth, inside) for v in alternatives]
            elif key in ("description", "title", "$comment", "examples"):
                continue  # prose is for people and the prompt; the decoder does not need it
            else:
                out[key] = walk(value, depth, inside)
        _bound(out, limits)
        return out

    top = walk(base, 0, False)
    for key in ("$id", "$schema", "x-version"):
        top.pop(key, None)
    top["$defs"] = out_defs
    top["x-guidance"] = {"whitespace_flexible": False}
    return top


def guidance_schema_text(limits: GuidanceLimits | None = None) -> str:
    return json.dumps(guidance_schema(limits=limits), separators=(",", ":"), sort_keys=False)


# --- helpers -----------------------------------------------------------------------------------


def _ref_name(ref: str) -> str:
    prefix = "#/$defs/"
    if not ref.startswith(prefix):
        raise SchemaTransformError(f"only local $defs references are supported, got {ref!r}")
    return ref[len(prefix):]


def _refs(node: Any) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                found.append(value)
            else:
                found.extend(_refs(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_refs(value))
    return found


def _recursive_defs(defs: dict[str, Any]) -> set[str]:
    """Definitions that can reach themselves through $refs."""
    graph = {name: {_ref_name(r) for r in _refs(body)} for name, body in defs.items()}
    recursive = set()
    for start in graph:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            cur = todo.pop()
            if cur == start:
                recursive.add(start)
                break
            if cur in seen or cur not in graph:
                continue
            seen.add(cur)
            todo.extend(graph[cur])
    return recursive


def _dropped(node: Any) -> bool:
    """A copied property schema that lost its type because the recursion was cut."""
    if node is None:
        return True
    if isinstance(node, dict):
        if "items" in node and node["items"] is None:
            return True
        for key in ("anyOf", "allOf"):
            if key in node and all(_dropped(v) for v in node[key]):
                return True
    return False


def _disjoint_alternatives(alternatives: list[Any], defs: dict[str, Any]) -> list[Any]:
    """Return the alternatives when each is an object with a distinct const on a shared required key."""

    def resolve(node: Any) -> dict[str, Any]:
        while isinstance(node, dict) and "$ref" in node:
            node = defs[_ref_name(node["$ref"])]
        return node if isinstance(node, dict) else {}

    resolved = [resolve(a) for a in alternatives]
    shared = set.intersection(*(set(r.get("required", [])) for r in resolved)) if resolved else set()
    for key in sorted(shared):
        consts = [r.get("properties", {}).get(key, {}).get("const", _MISSING) for r in resolved]
        if _MISSING not in consts and len({json.dumps(c) for c in consts}) == len(consts):
            return alternatives
    # Not provably disjoint: e.g. a nullable colour (rgba | null) is disjoint by type.
    types = [r.get("type") for r in resolved]
    if all(isinstance(t, str) for t in types) and len(set(types)) == len(types):
        return alternatives
    raise SchemaTransformError(
        "oneOf alternatives are not provably disjoint; llguidance only accepts anyOf, "
        "and rewriting would widen the language"
    )


_MISSING = object()


def _keep_ops(alternatives: list[Any], defs: dict[str, Any], ops: frozenset[str] | None) -> list[Any]:
    """Alternatives whose ``op`` const is in ``ops`` (all of them when ``ops`` is None or there is no op)."""
    if ops is None:
        return alternatives

    def op_of(node: Any) -> Any:
        while isinstance(node, dict) and "$ref" in node:
            node = defs[_ref_name(node["$ref"])]
        return node.get("properties", {}).get("op", {}).get("const") if isinstance(node, dict) else None

    tagged = [(op_of(a), a) for a in alternatives]
    if any(op is None for op, _ in tagged):
        return alternatives
    unknown = sorted(set(ops) - {op for op, _ in tagged})
    if unknown:
        raise SchemaTransformError(f"unknown operations {unknown}")
    return [a for op, a in tagged if op in ops]


def _bound(node: dict[str, Any], limits: GuidanceLimits) -> None:
    """Tighten one schema node in place (only ever narrowing)."""
    kind = node.get("type")
    if "const" in node or "enum" in node:
        return
    if kind == "array":
        fixed = node.get("minItems") is not None and node.get("minItems") == node.get("maxItems")
        if not fixed:
            cap = min(node.get("maxItems", limits.max_items), limits.max_items)
            node["maxItems"] = max(cap, node.get("minItems", 0))
    elif kind == "string":
        cap = min(node.get("maxLength", limits.max_string), limits.max_string)
        node["maxLength"] = max(cap, node.get("minLength", 0))
    elif kind in ("number", "integer"):
        node.setdefault("minimum", -limits.number_bound)
        node.setdefault("maximum", limits.number_bound)
        if kind == "number":
            node.setdefault("multipleOf", limits.number_step)
    elif isinstance(kind, list):
        # Mixed scalar types (a filter value: string | number | boolean) become an anyOf of bounded ones.
        parts = []
        for t in kind:
            part: dict[str, Any] = {"type": t}
            _bound(part, limits)
            parts.append(part)
        del node["type"]
        node["anyOf"] = parts
