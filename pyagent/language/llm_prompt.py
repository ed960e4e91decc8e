"""The prompt for the local language model: instructions, the action language in brief, examples,
a compact scene context and the user's utterance, sized for a small context window (~1,500 tokens).

The action-language summary is derived from the schema file (operations, their fields, enum values),
never restated. The scene context is a plain dict (see ``context_from_building``); the session can
supply its own through the same keys.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.language.llm_schema import load_action_schema
from pyagent.model import Building, Element, Pose
from pyagent.vocabulary import KIND_WORDS, class_noun

if TYPE_CHECKING:
    from pyagent.language.host import Host

# Utterance -> program examples shown to the model (validated against the schema by the tests).
EXAMPLES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("hide the door in front of me",
     {"steps": [{"op": "hide", "target": {"class": ["IfcDoor"], "relations": [{"rel": "in_front"}],
                                          "order": "nearest", "limit": 1}}]}),
    ("how many windows are on the ground floor?",
     {"steps": [{"op": "count", "target": {"class": ["IfcWindow"], "storey": "ground"}}]}),
    ("make it red",
     {"steps": [{"op": "color", "target": {"ref": "it"}, "rgba": [1, 0, 0, 1]}]}),
    ("how tall is the window to my left?",
     {"steps": [{"op": "get", "target": {"class": ["IfcWindow"], "relations": [{"rel": "left"}],
                                         "order": "nearest", "limit": 1}, "property": "height"}]}),
    ("take me to the kitchen",
     {"steps": [{"op": "teleport", "target": {"room": "kitchen"}}]}),
    ("put a sofa next to the window",
     {"steps": [{"op": "add_prop", "asset": "sofa",
                 "anchor": {"class": ["IfcWindow"], "order": "nearest", "limit": 1}, "placement": "next_to"}]}),
    ("turn around", {"steps": [{"op": "turn", "degrees": 180}]}),
    ("what is the furthest object from me and how deep is it?",
     {"steps": [{"op": "list", "target": {"ref": "all", "order": "furthest", "limit": 1}},
                {"op": "get", "target": {"step": 0}, "property": "depth"}]}),
    ("undo that", {"steps": [{"op": "undo"}]}),
)

INSTRUCTIONS = (
    "You turn a spoken request to a BIM model viewer into an action program: JSON {\"steps\":[...]}. "
    "Units are metres and degrees; positive turns and rotations are counter-clockwise (to the left). "
    "A selector without ids picks elements by class, kind, name, storey, room, relations and order. "
    "{\"ref\":\"it\"} is what was just talked about, {\"ref\":\"selected\"} what the user points at, "
    "{\"step\":i} the elements found by step i. Relations without \"of\" are relative to the user. "
    "Use names and ids from the scene below. Reply with the JSON program only."
)

USER_SHARE = 1340  # characters of the prompt kept for the situation and the utterance
SECTORS = (("in_front", 45.0), ("left", 135.0))  # |bearing| limits; see the schema's relation text


def compact(value: Any) -> str:
    """JSON as the model writes it (compact, like the guidance grammar enforces)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# --- the action language in brief, from the schema --------------------------------------------


def _field_text(name: str, node: dict[str, Any], defs: dict[str, Any]) -> str:
    if "$ref" in node:
        target = node["$ref"].rsplit("/", 1)[-1]
        body = defs.get(target, {})
        if "enum" in body:
            return f"{name}:{'|'.join(map(str, body['enum']))}"
        return f"{name}:{target}"
    if "enum" in node:
        return f"{name}:{'|'.join(map(str, node['enum']))}"
    kind = node.get("type", "any")
    if kind == "array":
        items = node.get("items", {})
        inner = _field_text("", items, defs).lstrip(":") if isinstance(items, dict) else "any"
        return f"{name}:[{inner}]"
    return f"{name}:{kind if isinstance(kind, str) else '|'.join(kind)}"


def language_summary(schema: dict[str, Any] | None = None) -> str:
    """One line per operation (required fields first, optional with '?'), then selector and relation fields."""
    schema = schema or load_action_schema()
    defs = schema["$defs"]
    lines = ["Operations (one step each):"]
    for ref in defs["step"]["oneOf"]:
        body = defs[ref["$ref"].rsplit("/", 1)[-1]]
        props = body.get("properties", {})
        op = props.get("op", {}).get("const")
        required = [p for p in body.get("required", []) if p != "op"]
        optional = [p for p in props if p not in required and p != "op"]
        fields = [_field_text(p, props[p], defs) for p in required]
        fields += [_field_text(p, props[p], defs) + "?" for p in optional]
        lines.append(f"- {op}({', '.join(fields)})")
    for name in ("selector", "relation", "filter"):
        props = defs[name].get("properties", {})
        fields = [_field_text(p, v, defs) for p, v in props.items()]
        lines.append(f"{name}: {{{', '.join(fields)}}}")
    return "\n".join(lines)


def examples_text(examples: Iterable[tuple[str, dict[str, Any]]] = EXAMPLES) -> str:
    return "\n".join(f"User: {u}\nProgram: {compact(p)}" for u, p in examples)


# --- scene context ---------------------------------------------------------------------------


def _bearing_sector(pose: Pose, point: Sequence[float] | np.ndarray) -> str:
    dx, dy = point[0] - pose.position[0], point[1] - pose.position[1]
    if math.hypot(dx, dy) < 1e-6:
        return "here"
    bearing = (math.degrees(math.atan2(dy, dx)) - pose.yaw + 180.0) % 360.0 - 180.0
    if abs(bearing) <= SECTORS[0][1]:
        return "in_front"
    if SECTORS[0][1] < bearing < SECTORS[1][1]:
        return "left"
    if -SECTORS[1][1] < bearing < -SECTORS[0][1]:
        return "right"
    return "behind"


def _kinds_present(elements: Iterable[Element]) -> list[str]:
    """Everyday kinds (the vocabulary's) whose words occur in element names and types, most frequent first."""
    counts: Counter[str] = Counter()
    for el in elements:
        text = " ".join((el.name, el.type_name, el.object_type)).lower()
        if not text.strip():
            continue
        for kind, words in KIND_WORDS.items():
            if any(re.search(rf"(?<![a-z]){re.escape(w)}", text) for w in words):
                counts[kind] += 1
    return [k for k, _ in counts.most_common()]


def _storey_of_point(building: Building, z: float) -> str | None:
    for s in building.storeys:
        if s.elevation - 0.5 <= z < s.top - 0.5:
            return s.id
    return building.storeys[-1].id if building.storeys and z >= building.storeys[-1].elevation else None


def _room_of_point(building: Building, p: Sequence[float]) -> Element | None:
    """The space whose box holds the point (smallest box first: boxes of L-shaped rooms overlap)."""
    inside = [s for s in building.spaces()
              if all(s.bbox_min[i] - 0.05 <= p[i] <= s.bbox_max[i] + 0.05 for i in range(2))
              and s.bbox_min[2] - 0.5 <= p[2] <= s.bbox_max[2] + 0.5]
    if not inside:
        return None
    return min(inside, key=lambda s: float((s.bbox_max - s.bbox_min)[0] * (s.bbox_max - s.bbox_min)[1]))


def short_label(label: str, limit: int = 32) -> str:
    """A label cut for the prompt: authoring tools append type sizes and ids after ':'."""
    head = label.split(":", 1)[0].strip() or label
    return head if len(head) <= limit else head[: limit - 1] + "…"


def _rooms(building: Building) -> list[dict[str, Any]]:
    """Rooms by storey (lowest first) then name; a name repeated on one storey is listed once."""
    order = {s.id: s.index for s in building.storeys}
    names = {s.id: s.name for s in building.storeys}
    seen: set[tuple[str, str]] = set()
    rooms = []
    for space in sorted(building.spaces(), key=lambda s: (order.get(s.storey or "", 99), s.label())):
        key = (short_label(space.label()), names.get(space.storey or "", ""))
        if key not in seen:
            seen.add(key)
            rooms.append({"id": space.id, "name": key[0], "storey": key[1]})
    return rooms


def context_from_building(building: Building, pose: Pose, *, it: Sequence[str] = (),
                          selected: Sequence[str] = (), near_limit: int = 8,
                          radius: float = 20.0) -> dict[str, Any]:
    """The scene facts the prompt shows, built directly from the building model and the pose.

    Keys (a session may supply the same dict itself): ``classes`` {class: count}, ``kinds`` [words],
    ``storeys`` [{id, name, elevation, ground}], ``rooms`` [{id, name, storey}], ``here`` {storey,
    room}, ``pose``, ``near`` [{id, label, class, distance, direction}], ``memory`` {it, selected}
    with [{id, label, class}] entries.
    """
    products = [e for e in building.products() if e.has_geometry]
    storey_names = {s.id: s.name for s in building.storeys}
    eye = [float(v) for v in pose.position]
    near = []
    for el in products:
        dist = float(math.dist(eye, [float(v) for v in el.centre]))
        if dist <= radius:
            near.append((dist, el))
    near.sort(key=lambda t: (t[0], t[1].id))
    here_storey = _storey_of_point(building, eye[2] - 1.0)
    here_room = _room_of_point(building, eye)

    def ref(gid: str) -> dict[str, Any] | None:
        el = building.elements.get(gid)
        return None if el is None else {"id": gid, "label": short_label(el.label()), "class": el.ifc_class}

    return {
        "classes": dict(Counter(e.ifc_class for e in products).most_common()),
        "kinds": _kinds_present(products),
        "storeys": [{"id": s.id, "name": s.name, "elevation": round(s.elevation, 2),
                     "ground": s.id == building.ground_storey} for s in building.storeys],
        "rooms": _rooms(building),
        "here": {"storey": storey_names.get(here_storey or ""), "room": here_room.label() if here_room else None},
        "pose": pose.to_json(),
        "near": [{"id": el.id, "label": short_label(el.label()), "class": el.ifc_class, "distance": round(d, 1),
                  "direction": _bearing_sector(pose, el.centre)} for d, el in near[:near_limit]],
        "memory": {"it": [r for r in map(ref, it) if r], "selected": [r for r in map(ref, selected) if r]},
    }


def context_from_session(session: Host) -> dict[str, Any]:
    """``context_from_building`` for a session (``host.Host``: its building, pose, "it" and selection)."""
    view = session.view()
    return context_from_building(session.building, session.pose, it=view.it(), selected=view.selected())


def _refs_text(items: Sequence[dict[str, Any]]) -> str:
    return ", ".join(f"{r.get('label', '?')} ({r.get('class', '?')} {r.get('id', '?')})" for r in items)


def building_text(context: dict[str, Any], *, rooms_limit: int = 16, classes_limit: int = 14) -> str:
    """The facts that do not change while the user moves: classes, kinds, storeys, rooms."""
    lines = []
    classes = context.get("classes") or {}
    if classes:
        shown = list(classes.items())[:classes_limit]
        lines.append("Classes: " + ", ".join(f"{c} {n} ({class_noun(c)})" for c, n in shown))
    if context.get("kinds"):
        lines.append("Kinds: " + ", ".join(context["kinds"]))
    if context.get("storeys"):
        lines.append("Storeys: " + "; ".join(
            f"{s['name']} at {s['elevation']:g} m" + (" (ground)" if s.get("ground") else "")
            for s in context["storeys"]))
    rooms = context.get("rooms") or []
    if rooms:
        lines.append("Rooms: " + "; ".join(
            f"{r['name']} ({r['storey']})" if r.get("storey") else r["name"] for r in rooms[:rooms_limit]))
    return "\n".join(lines)


def situation_text(context: dict[str, Any], *, near_limit: int = 8) -> str:
    """The facts that follow the user: where they are, what is near, what "it" and "selected" are."""
    lines = []
    here = context.get("here") or {}
    if here.get("storey") or here.get("room"):
        lines.append(f"User is on {here.get('storey') or 'an unknown storey'}"
                     + (f", in {here['room']}" if here.get("room") else ", in no room"))
    near = context.get("near") or []
    if near:
        lines.append("Near the user: " + "; ".join(
            f"{n['label']} ({n['class']} {n['id']}) {n['distance']:g} m {n['direction'].replace('_', ' ')}"
            for n in near[:near_limit]))
    memory = context.get("memory") or {}
    if memory.get("it"):
        lines.append("it = " + _refs_text(memory["it"][:4]))
    if memory.get("selected"):
        lines.append("selected = " + _refs_text(memory["selected"][:4]))
    return "\n".join(lines)


def context_text(context: dict[str, Any], *, rooms_limit: int = 16, near_limit: int = 8,
                 classes_limit: int = 14) -> str:
    """All the scene facts as short lines; missing keys are left out."""
    parts = [building_text(context, rooms_limit=rooms_limit, classes_limit=classes_limit),
             situation_text(context, near_limit=near_limit)]
    return "\n".join(p for p in parts if p)


def system_text(context: dict[str, Any] | None = None, *, rooms_limit: int = 16, classes_limit: int = 14) -> str:
    """Instructions, the language in brief, examples and the building's fixed facts.

    This part is the same for every request in one building, so its key/value cache is reused.
    """
    parts = [INSTRUCTIONS, language_summary(), "Examples:\n" + examples_text()]
    building = building_text(context or {}, rooms_limit=rooms_limit, classes_limit=classes_limit)
    if building:
        parts.append("Building:\n" + building)
    return "\n\n".join(parts)


def build_messages(utterance: str, context: dict[str, Any],
                   feedback: Sequence[tuple[dict[str, Any], dict[str, Any]]] = (),
                   *, max_chars: int = 6000) -> list[dict[str, str]]:
    """Chat messages for one model call.

    The system message holds what stays the same while the user moves (its cache is reused between
    requests); the user message holds the situation and the utterance. ``feedback`` holds (query
    program, its result) pairs from earlier calls of the same request; each becomes an assistant turn
    and a user turn with the result, so the model can write the final program. Scene detail is cut
    until the whole prompt fits ``max_chars`` (about 3.5 characters a token).
    """
    # The system part is cut against its own share only, so it is the same for every utterance.
    for rooms_limit, classes_limit in ((16, 14), (10, 10), (6, 8), (3, 6), (0, 4)):
        system = system_text(context, rooms_limit=rooms_limit, classes_limit=classes_limit)
        if len(system) <= max_chars - USER_SHARE:
            break
    for near_limit in (8, 6, 4, 3, 2, 0):
        situation = situation_text(context, near_limit=near_limit)
        user = (f"{situation}\n\n" if situation else "") + f"User: {utterance}"
        if len(system) + len(user) <= max_chars:
            break
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    for program, result in feedback:
        messages.append({"role": "assistant", "content": compact(program)})
        messages.append({"role": "user", "content": "Result: " + result_text(result)
                         + f"\nNow write the final program for: {utterance}"})
    return messages


def result_text(result: dict[str, Any], max_chars: int = 400) -> str:
    """A query result for the model: the answer, value and error, cut to ``max_chars``."""
    keep = {k: result.get(k) for k in ("ok", "answer", "value", "error") if k in result}
    text = compact(keep)
    return text if len(text) <= max_chars else text[: max_chars - 3] + "..."
