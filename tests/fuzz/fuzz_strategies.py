"""Hypothesis strategies for bad input: any JSON, and programs generated from the action schema itself
(conforming, or conforming with one part broken)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from pyagent.actions.schema import load_schema

SCHEMA = load_schema()
DEFS = SCHEMA["$defs"]

WORDS = ["mine", "here", "ground", "upper", "top", "above", "below", "kitchen", "Wohnen", "Bad", "Erdgeschoss",
         "door", "window", "sofa", "height", "area", "IsExternal", "it", "selected", "all", "../../etc/passwd",
         "'; DROP TABLE x; --", "${HOME}", "\x00", "ü", "🏠", ""]
CLASSES = ["IfcWall", "IfcWallStandardCase", "IfcDoor", "IfcWindow", "IfcSlab", "IfcSpace", "IfcStair",
           "IfcBuildingStorey", "IfcRoof", "IfcFurniture", "IfcNothing", "IfcBeam"]

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12),
                         st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
                         st.sampled_from(WORDS))
any_json = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5),
    st.dictionaries(st.one_of(st.sampled_from(["steps", "op", "target", "class", "ids", "rgba", "ref", "except",
                                               "relations", "rel", "of", "count", "asset", "position"]),
                              st.text(max_size=8)), inner, max_size=5)), max_leaves=25)


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = DEFS[node["$ref"].rsplit("/", 1)[1]]
    return node


@st.composite
def conforming(draw: st.DrawFn, node: dict[str, Any], ids: tuple[str, ...], depth: int = 0) -> Any:
    """A value for ``node`` (a piece of the action schema) that follows it."""
    node = _resolve(node)
    if "const" in node:
        return node["const"]
    if "enum" in node:
        return draw(st.sampled_from(node["enum"]))
    for key in ("oneOf", "anyOf"):
        if key in node:
            return draw(conforming(draw(st.sampled_from(node[key])), ids, depth))
    kind = node.get("type", "object")
    if isinstance(kind, list):
        kind = draw(st.sampled_from(kind))
    if kind == "object":
        props = node.get("properties", {})
        required = list(node.get("required", []))
        optional = [k for k in props if k not in required]
        if depth > 2:  # selectors nest (except, of, and): keep programs small
            optional = [k for k in optional if k not in ("except", "of", "and", "relations", "where")]
        chosen = required + draw(st.lists(st.sampled_from(optional), unique=True, max_size=3)) if optional \
            else required
        return {k: draw(conforming(props[k], ids, depth + 1)) for k in chosen}
    if kind == "array":
        lo = node.get("minItems", 0)
        hi = max(lo, min(node.get("maxItems", 3), 3))
        return draw(st.lists(conforming(node.get("items", {}), ids, depth + 1), min_size=lo, max_size=hi))
    if kind == "string":
        pattern = node.get("pattern", "")
        if "22" in pattern:
            return draw(st.sampled_from(ids)) if ids else "0" * 22
        if pattern.startswith("^Ifc"):
            return draw(st.sampled_from(CLASSES))
        if pattern:  # other patterns (dates, clock times): strings that match them
            return draw(st.from_regex(pattern, fullmatch=True))
        lo, hi = node.get("minLength", 0), node.get("maxLength", 40)
        return draw(st.one_of(st.sampled_from([w for w in WORDS if lo <= len(w) <= hi] or ["x" * max(lo, 1)]),
                              st.text(min_size=lo, max_size=min(hi, 30))))
    if kind == "integer":
        return draw(st.integers(int(node.get("minimum", -5)), int(node.get("maximum", 50))))
    if kind == "number":
        return draw(st.floats(float(node.get("minimum", -1e3)), float(node.get("maximum", 1e3)),
                              allow_nan=False, allow_infinity=False))
    if kind == "boolean":
        return draw(st.booleans())
    return None


@st.composite
def broken(draw: st.DrawFn, value: Any) -> Any:
    """``value`` with one part replaced by any JSON (or a key added)."""
    if isinstance(value, dict) and value and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        return {**value, key: draw(broken(value[key]))}
    if isinstance(value, list) and value and draw(st.booleans()):
        i = draw(st.integers(0, len(value) - 1))
        return value[:i] + [draw(broken(value[i]))] + value[i + 1:]
    if isinstance(value, dict) and draw(st.booleans()):
        return {**value, draw(st.text(min_size=1, max_size=6)): draw(any_json)}
    return draw(any_json)


def programs(ids: tuple[str, ...]) -> st.SearchStrategy[Any]:
    good = conforming(SCHEMA, ids)
    return st.one_of(good, good.flatmap(broken))
