"""Engine deltas between scene states: element groups, on the shipped house."""

from __future__ import annotations

import copy

import ifcopenshell
from core_ifc_facts import FZK

from pyagent.actions.delta import diff_states, element_changes, is_empty
from pyagent.actions.schema import def_validator
from pyagent.session import Session

VALIDATE = def_validator("engine_delta")


def _session() -> Session:
    return Session.open(FZK)


def _ids(ifc_class: str) -> list[str]:
    return sorted(e.GlobalId for e in ifcopenshell.open(str(FZK)).by_type(ifc_class))


def test_one_change_to_many_elements_is_one_group() -> None:
    s = _session()
    before = copy.deepcopy(s.state())
    assert s.do({"steps": [{"op": "hide", "target": {"class": ["IfcWall"]}}]}).ok
    delta = diff_states(before, s.state())
    VALIDATE.validate(delta)
    walls = _ids("IfcWall")  # with its subtypes
    assert len(walls) > 10
    assert delta["elements"] == [
        {"ids": sorted(walls), "hidden": True, "color": None, "transform": None, "deleted": False}
    ]


def test_mixed_changes_group_by_state_and_round_trip() -> None:
    s = _session()
    doors, windows = _ids("IfcDoor"), _ids("IfcWindow")
    before = copy.deepcopy(s.state())
    program = {"steps": [
        {"op": "hide", "target": {"class": ["IfcDoor"]}},
        {"op": "color", "target": {"class": ["IfcWindow"]}, "rgba": [1, 0, 0, 1]},
        {"op": "color", "target": {"ids": windows[:2]}, "rgba": [0, 0, 1, 1]},
        {"op": "delete", "target": {"ids": [doors[0]]}},
    ]}
    result = s.do(program)
    assert result.ok, result.answer
    after = s.state()
    delta = diff_states(before, after)
    VALIDATE.validate(delta)
    groups = delta["elements"]
    # Each id once; ids sorted within a group; groups in the order of their first id.
    every = [gid for g in groups for gid in g["ids"]]
    assert len(every) == len(set(every)) == len(doors) + len(windows)
    assert all(g["ids"] == sorted(g["ids"]) for g in groups)
    assert [g["ids"][0] for g in groups] == sorted(g["ids"][0] for g in groups)
    # Four states: hidden doors, the deleted door, red windows, blue windows.
    assert sorted((g["hidden"], g["deleted"], tuple(g["color"] or ())) for g in groups) == sorted([
        (True, False, ()), (False, True, ()),
        (False, False, (1.0, 0.0, 0.0, 1.0)), (False, False, (0.0, 0.0, 1.0, 1.0)),
    ])
    changes = element_changes(delta)
    assert changes[doors[0]]["deleted"] and changes[doors[-1]]["hidden"]
    assert changes[windows[0]]["color"] == [0.0, 0.0, 1.0, 1.0]
    assert changes[windows[-1]]["color"] == [1.0, 0.0, 0.0, 1.0]
    # Undo: the way back is grouped too, and every element returns to pristine.
    assert s.do({"steps": [{"op": "undo"}]}).ok
    back = diff_states(after, s.state())
    VALIDATE.validate(back)
    assert len(back["elements"]) == 1 and sorted(back["elements"][0]["ids"]) == sorted(every)
    assert not any(back["elements"][0][k] for k in ("hidden", "deleted", "color", "transform"))


def test_no_change_is_an_empty_delta() -> None:
    s = _session()
    state = s.state()
    delta = diff_states(state, copy.deepcopy(state))
    assert delta["elements"] == [] and is_empty(delta)
    VALIDATE.validate(delta)
