"""The guidance schema: derived from the schema file, accepted by llguidance, bounded, only narrowing."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest

from pyagent.actions.schema import load_schema, schema_errors
from pyagent.language.llm_prompt import EXAMPLES
from pyagent.language.llm_schema import (
    GuidanceLimits,
    SchemaTransformError,
    guidance_schema,
    program_schema,
)


def _nodes(node: Any):
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _nodes(v)
    elif isinstance(node, list):
        for v in node:
            yield from _nodes(v)


def _guidance_validator(schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    schema = copy.deepcopy(schema)
    schema.pop("x-guidance", None)
    for node in _nodes(schema):
        node.pop("multipleOf", None)  # float multipleOf is unreliable in jsonschema (0.3 / 0.1)
    return jsonschema.Draft202012Validator(schema)


def test_program_schema_drops_engine_defs_and_is_self_contained():
    full = load_schema()
    prog = program_schema()
    assert any(k.startswith("engine_") for k in full["$defs"])
    assert not any(k.startswith("engine_") for k in prog["$defs"])
    assert set(prog["$defs"]) == {k for k in full["$defs"] if not k.startswith("engine_")}
    jsonschema.Draft202012Validator.check_schema(prog)


def test_guidance_schema_has_only_constructs_llguidance_accepts_and_every_terminal_bounded():
    schema = guidance_schema()
    text = json.dumps(schema)
    assert '"oneOf"' not in text  # llguidance: "oneOf constraints are not supported"
    assert schema["x-guidance"] == {"whitespace_flexible": False}
    defs = schema["$defs"]
    for node in _nodes(schema):
        ref = node.get("$ref")
        if ref is not None:
            assert ref.removeprefix("#/$defs/") in defs, ref
        kind = node.get("type")
        if kind == "string" and "const" not in node and "enum" not in node:
            assert node["maxLength"] <= 48
        if kind == "array":
            assert "maxItems" in node
        if kind in ("number", "integer"):
            assert "minimum" in node and "maximum" in node
        if kind == "number":
            assert node["multipleOf"] == 0.001
        assert not isinstance(kind, list)  # mixed types became anyOf of bounded ones
    jsonschema.Draft202012Validator.check_schema(schema)


def test_recursion_is_unrolled_to_the_nesting_limit():
    schema = guidance_schema(limits=GuidanceLimits(max_nesting=3))
    defs = schema["$defs"]
    assert "selector" not in defs and "relation" not in defs
    assert {"selector__0", "relation__1", "selector__2", "relation__3", "selector__3"} <= set(defs)
    assert "of" not in defs["relation__3"]["properties"]
    assert "relations" not in defs["selector__3"]["properties"]
    deep = {"class": ["IfcWindow"], "relations": [{"rel": "next_to", "of": {
        "class": ["IfcDoor"], "relations": [{"rel": "near", "of": {"class": ["IfcWall"]}}]}}]}
    program = {"steps": [{"op": "hide", "target": deep}]}
    assert schema_errors(program) == []  # the full schema accepts any depth
    assert list(_guidance_validator(schema).iter_errors(program))  # the decoder cannot produce it
    shallow = {"steps": [{"op": "hide", "target": {"class": ["IfcWindow"], "relations": [
        {"rel": "next_to", "of": {"class": ["IfcDoor"], "room": "Kitchen"}}]}}]}
    assert not list(_guidance_validator(schema).iter_errors(shallow))


def test_examples_are_valid_under_the_full_and_the_guidance_schema():
    validator = _guidance_validator(guidance_schema())
    for utterance, program in EXAMPLES:
        assert schema_errors(program) == [], utterance
        assert not list(validator.iter_errors(program)), utterance


def test_guidance_schema_only_narrows_caps():
    base = load_schema()["$defs"]
    schema = guidance_schema(limits=GuidanceLimits(max_items=2, max_string=10))
    sel = schema["$defs"]["selector__0"]["properties"]
    assert sel["ids"]["maxItems"] == 2 and base["selector"]["properties"]["ids"]["maxItems"] == 500
    assert sel["name"]["maxLength"] == 10
    assert schema["$defs"]["vec3"]["minItems"] == schema["$defs"]["vec3"]["maxItems"] == 3  # fixed length kept
    assert schema["properties"]["steps"]["minItems"] == 1


def test_ops_limit_keeps_only_those_steps_and_rejects_unknown_ops():
    schema = guidance_schema(limits=GuidanceLimits(ops=frozenset({"count", "list"})))
    refs = [alt["$ref"] for alt in schema["$defs"]["step"]["anyOf"]]
    assert refs == ["#/$defs/step_count", "#/$defs/step_list"]
    with pytest.raises(SchemaTransformError, match="unknown operations"):
        guidance_schema(limits=GuidanceLimits(ops=frozenset({"teleport", "fly"})))


def test_oneof_that_is_not_provably_disjoint_is_refused():
    overlapping = {
        "type": "object",
        "properties": {"a": {"oneOf": [{"type": "object", "properties": {"x": {"type": "integer"}}},
                                       {"type": "object", "properties": {"y": {"type": "integer"}}}]}},
    }
    with pytest.raises(SchemaTransformError, match="not provably disjoint"):
        guidance_schema(overlapping)
    disjoint = {"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}, {"type": "null"}]}}}
    assert "anyOf" in guidance_schema(disjoint)["properties"]["a"]
