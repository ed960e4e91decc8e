"""Answers read as plain sentences: names with their everyday meaning, counts that say where, no
catalogue numbers, no implementation detail."""

from __future__ import annotations

from pathlib import Path

from pyagent.language.wording import Glossary, change_words, glossed, meaning_of, plain_material
from pyagent.session import Session

HAUS = Path(__file__).resolve().parents[2] / "ifc" / "AC20-FZK-Haus.ifc"


def test_names_and_materials() -> None:
    assert glossed("Küche") == "Küche (kitchen)"
    assert glossed("Wohnen/Essen") == "Wohnen/Essen (living, dining)"
    assert glossed("Kitchen") == "Kitchen"  # already English: said once
    assert glossed("EG-Fenster-9") == "EG-Fenster-9"  # not made of known words: as it is
    assert meaning_of("Meeting 00001") is None
    assert plain_material("Leichtbeton 102890359") == "Leichtbeton"
    assert glossed("Leichtbeton 102890359", material=True) == "Leichtbeton (lightweight concrete)"
    assert glossed("Room 10201") == "Room 10201"  # room numbers stay


def test_change_words() -> None:
    assert change_words("color") == "painting"
    assert change_words("color, select, hide") == "painting, the selection and hiding"


def test_first_mention_is_glossed_once() -> None:
    g = Glossary((("Erdgeschoss", "Erdgeschoss (ground floor)"),))
    assert g.explain("2 on Erdgeschoss, 3 more on Erdgeschoss.") == (
        "2 on Erdgeschoss (ground floor), 3 more on Erdgeschoss.")
    assert g.explain("Erdgeschoss-Plan") == "Erdgeschoss-Plan"  # part of another name


def test_answers_on_the_house() -> None:
    s = Session.open(HAUS)
    r = s.say("how many windows are there")
    assert r.ok and r.answer == (
        "There are 11 windows: 9 on Erdgeschoss (ground floor), 2 on Dachgeschoss (attic floor)."), r.answer
    r = s.say("how many windows are upstairs")
    assert r.ok and r.answer == "There are 2 windows on Dachgeschoss (attic floor).", r.answer
    r = s.say("take me to the kitchen")
    assert r.ok and "Küche (kitchen)" in r.answer, r.answer
    walls = sorted(g for g, e in s.building.elements.items() if e.ifc_class == "IfcWallStandardCase")
    r = s.do({"steps": [{"op": "describe", "target": {"ids": walls[:1]}}]})
    assert r.ok and "made of" in r.answer, r.answer
    assert not any(ch.isdigit() for ch in r.answer.split("made of", 1)[1]), r.answer  # no catalogue numbers
    r = s.do({"steps": [{"op": "hide", "target": {"ids": ["no-such-id"]}}]})
    assert not r.ok and not r.answer.startswith("step "), r.answer  # the step detail is the error's
    s.say("paint the doors blue")
    r = s.say("undo")
    assert r.ok and r.answer == "Undid 1 change (painting).", r.answer
