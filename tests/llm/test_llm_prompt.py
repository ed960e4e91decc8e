"""The prompt: derived from the schema, a compact scene context, sized for a small context window."""

from __future__ import annotations

import numpy as np
import pytest

from pyagent.actions.schema import load_schema
from pyagent.language.llm_prompt import (
    EXAMPLES,
    build_messages,
    context_from_building,
    context_from_session,
    context_text,
    language_summary,
    result_text,
    short_label,
)
from pyagent.model import Building, Element, Pose, Storey


def _op_names() -> list[str]:
    defs = load_schema()["$defs"]
    return [defs[r["$ref"].rsplit("/", 1)[-1]]["properties"]["op"]["const"] for r in defs["step"]["oneOf"]]


def test_language_summary_lists_every_operation_with_its_required_fields():
    text = language_summary()
    defs = load_schema()["$defs"]
    for op in _op_names():
        line = next(ln for ln in text.splitlines() if ln.startswith(f"- {op}("))
        body = defs[f"step_{op}"]
        for field in body.get("required", []):
            if field != "op":
                assert f"{field}:" in line and f"{field}:" + "?" not in line, (op, field)
    assert "rel:in_front|behind|left|right" in text  # enum values come from the schema


def _box(gid: str, cls: str, name: str, centre: tuple[float, float, float], storey: str = "S0") -> Element:
    c = np.array(centre, dtype=float)
    return Element(id=gid, ifc_class=cls, name=name, storey=storey, bbox_min=c - 0.2, bbox_max=c + 0.2,
                   has_geometry=True)


def _toy_building() -> Building:
    a = "0" * 21
    elements = {
        a + "1": _box(a + "1", "IfcDoor", "Front door", (3.0, 0.0, 1.0)),  # +X: ahead when yaw = 0
        a + "2": _box(a + "2", "IfcWindow", "Window W1", (0.0, 4.0, 1.5)),  # +Y: left
        a + "3": _box(a + "3", "IfcWindow", "Window W2", (-5.0, 0.0, 1.5)),  # behind
        a + "4": _box(a + "4", "IfcFurnishingElement", "M_Sofa:1830mm:167426", (0.0, -2.0, 0.4)),  # right
        a + "5": _box(a + "5", "IfcWall", "Far wall", (90.0, 0.0, 1.5)),  # out of the radius
    }
    room = Element(id="R" * 22, ifc_class="IfcSpace", name="1", long_name="Kitchen", storey="S0",
                   bbox_min=np.array([-6.0, -6.0, 0.0]), bbox_max=np.array([6.0, 6.0, 3.0]))
    elements[room.id] = room
    storeys = [Storey("S0", "Ground floor", 0.0, index=0, top=3.0), Storey("S1", "Upper floor", 3.0, index=1)]
    return Building("toy.ifc", "IFC4", "x", elements, storeys, "S0")


def test_context_from_building_directions_distances_rooms_and_memory():
    b = _toy_building()
    pose = Pose(np.array([0.0, 0.0, 1.6]), yaw=0.0)
    ctx = context_from_building(b, pose, it=["0" * 21 + "2"], selected=["0" * 21 + "1", "unknown-id"])
    near = {n["label"]: n for n in ctx["near"]}
    assert near["Front door"]["direction"] == "in_front"
    assert near["Window W1"]["direction"] == "left"
    assert near["Window W2"]["direction"] == "behind"
    assert near["M_Sofa"]["direction"] == "right"  # label cut before the authoring tool's ':' suffix
    assert "Far wall" not in near
    assert [n["label"] for n in ctx["near"]][0] == "M_Sofa"  # nearest first
    assert ctx["classes"] == {"IfcWindow": 2, "IfcDoor": 1, "IfcFurnishingElement": 1, "IfcWall": 1}
    assert ctx["kinds"] == ["sofa"]
    assert ctx["here"] == {"storey": "Ground floor", "room": "Kitchen"}
    assert ctx["storeys"][0]["ground"] and not ctx["storeys"][1]["ground"]
    assert ctx["rooms"] == [{"id": "R" * 22, "name": "Kitchen", "storey": "Ground floor"}]
    assert [r["label"] for r in ctx["memory"]["it"]] == ["Window W1"]
    assert [r["label"] for r in ctx["memory"]["selected"]] == ["Front door"]  # unknown ids dropped
    # Turning left by 90 degrees puts the window ahead.
    turned = context_from_building(b, Pose(np.array([0.0, 0.0, 1.6]), yaw=90.0))
    assert {n["label"]: n["direction"] for n in turned["near"]}["Window W1"] == "in_front"
    text = context_text(ctx)
    assert f"Window W1 (IfcWindow {'0' * 21}2) 4 m left" in text
    assert "it = Window W1" in text and "User is on Ground floor, in Kitchen" in text


def test_prompt_contains_utterance_examples_and_fits_the_budget_on_real_buildings(fzk_session):
    from pyagent.session import Session

    sessions = [fzk_session, Session.open("ifc/duplex.ifc"), Session.open("ifc/MiniProject.ifc")]
    for session in sessions:
        ctx = context_from_session(session)
        messages = build_messages("hide the door in front of me", ctx)
        assert [m["role"] for m in messages] == ["system", "user"]
        assert messages[1]["content"].endswith("User: hide the door in front of me")
        assert EXAMPLES[0][0] in messages[0]["content"]
        assert sum(len(m["content"]) for m in messages) <= 6000
        assert "Near the user:" in messages[1]["content"]
    # A tight budget drops scene detail instead of the request.
    duplex = context_from_session(sessions[1])
    small = build_messages("count the doors", duplex, max_chars=4600)
    full = build_messages("count the doors", duplex)
    assert len(small[0]["content"]) < len(full[0]["content"])
    assert sum(len(m["content"]) for m in small) <= 4600
    assert small[1]["content"].endswith("User: count the doors")


def test_system_part_is_the_same_for_every_utterance_and_pose(fzk_session):
    """The fixed part comes first and does not depend on the request, so its cache can be reused."""
    systems, users = set(), set()
    for pose, utterance in [({"position": [5, 4, 1.6], "yaw": 90}, "hi"),
                            ({"position": [2, 8, 4.3], "yaw": -45}, "x " * 300)]:
        fzk_session.set_pose(Pose.from_json(pose))
        messages = build_messages(utterance, context_from_session(fzk_session))
        systems.add(messages[0]["content"])
        users.add(messages[1]["content"])
    assert len(systems) == 1 and len(users) == 2
    system = systems.pop()
    assert "Rooms: " in system and "Küche (Erdgeschoss)" in system and "Near the user" not in system


def test_feedback_turns_and_result_text():
    program = {"steps": [{"op": "count", "target": {"class": ["IfcDoor"]}}]}
    messages = build_messages("how many doors", {}, [(program, {"ok": True, "answer": "5 doors", "value": 5})])
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[2]["content"] == '{"steps":[{"op":"count","target":{"class":["IfcDoor"]}}]}'
    assert messages[3]["content"].startswith('Result: {"ok":true,"answer":"5 doors","value":5}')
    long = result_text({"value": ["x" * 22] * 100}, max_chars=120)
    assert len(long) == 120 and long.endswith("...")


@pytest.mark.parametrize(("label", "short"), [("Haustuer", "Haustuer"), ("M_Fixed:4835mm x 2420mm:145788", "M_Fixed"),
                                              ("x" * 40, "x" * 31 + "…")])
def test_short_label(label: str, short: str):
    assert short_label(label) == short
