"""Selecting and clearing the selection by voice."""

from __future__ import annotations

from pathlib import Path

from pyagent.session import Session

HAUS = Path(__file__).resolve().parents[2] / "ifc" / "AC20-FZK-Haus.ifc"


def test_select_then_clear_by_voice() -> None:
    s = Session.open(HAUS)
    doors = sorted(g for g, e in s.building.elements.items() if e.ifc_class == "IfcDoor")
    assert s.say("select all doors").ok
    assert sorted(s.state()["selected"]) == doors
    for words in ("deselect", "select nothing", "clear the selection"):
        assert s.say("select all doors").ok
        r = s.say(words)
        assert r.ok, (words, r.error)
        assert s.state()["selected"] == [], words


def test_an_empty_selector_selects_everything_not_nothing() -> None:
    s = Session.open(HAUS)
    r = s.do({"steps": [{"op": "select", "target": {"class": ["IfcWindow"]}}]})
    assert r.ok and len(s.state()["selected"]) == 11
    assert s.do({"steps": [{"op": "select", "target": {"ids": []}}]}).ok
    assert s.state()["selected"] == []
