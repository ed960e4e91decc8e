"""Rooms named in other languages and ways: compounds ("Kellerraum" is a cellar), numbers with leading
zeros ("Office_07" is office 7), words spelt alike across languages ("bacteriology" lab for
"BACTERIOLOGIE"), two room words at once ("the caretaker's office"), the room over or under the user's
own among several of a kind, and a reason after a request ("so I can see in") that changes nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pyagent.language.lexicon import room_numbers, room_phrases
from pyagent.model import Pose
from pyagent.session import Session

BUILDINGS = Path(__file__).resolve().parent / "buildings"


def test_the_first_part_of_a_compound_names_the_room_and_the_last_part_does_not() -> None:
    assert "cellar" in room_phrases("1.0.1", "KELLERRAUM-1-1")
    assert "bedroom" in room_phrases("", "ZIMMER-4-2")
    assert "bedroom" not in room_phrases("", "Wohnzimmer")  # a living room is a Zimmer, not a bedroom
    assert "living room" in room_phrases("", "Wohnzimmer")


def test_room_numbers_with_leading_zeros_are_also_said_without() -> None:
    assert {"07", "7"} <= room_numbers("", "Office_07")
    assert "office 7" in room_phrases("", "Office_07")


@pytest.fixture(scope="module")
def lab() -> Session:
    return Session.open(BUILDINGS / "revit2017fra_rue-marc-antoine-petit.ifc")


def _room(s: Session, long_name: str) -> str:
    return next(sp.id for sp in s.building.spaces() if sp.long_name == long_name)


@pytest.mark.parametrize("said, long_name", [
    ("select the bacteriology lab", "BACTERIOLOGIE"),      # spelt alike in English and French
    ("select the chemistry lab", "CHIMIE"),                # the glossary: chemistry -> chimie
    ("select the caretaker's office", "LOCAL GARDIEN"),     # two room words: the rooms both name, else the first
    ("select the waiting area", "ATTENTE"),
])
def test_rooms_named_in_english_in_a_french_building(lab: Session, said: str, long_name: str) -> None:
    r = lab.say(said)
    assert r.ok, r.answer
    assert lab.state()["selected"] == [_room(lab, long_name)]


def test_an_unknown_room_word_is_still_refused(lab: Session) -> None:
    before = lab.state()
    r = lab.say("how many windows does the gymnasium have")
    assert not r.ok
    assert lab.state() == before


@pytest.fixture(scope="module")
def terrace() -> Session:
    return Session.open(BUILDINGS / "archicad11_smiley-west.ifc")


def test_the_kitchen_downstairs_is_the_one_under_the_users_room_in_a_terrace_of_houses(terrace: Session) -> None:
    b = terrace.building
    kitchens = [sp for sp in b.spaces() if sp.long_name.upper().startswith("WOHNEN / KOCHEN")]
    assert len(kitchens) == 5
    upper = next(st for st in b.storeys if st.name == "1.OG")
    for kitchen in (kitchens[0], kitchens[3]):
        # Stand upstairs in a room over this kitchen.
        lo, hi = np.asarray(kitchen.bbox_min[:2]), np.asarray(kitchen.bbox_max[:2])
        above = [sp for sp in b.spaces() if sp.storey == upper.id
                 and np.all(np.minimum(sp.bbox_max[:2], hi) - np.maximum(sp.bbox_min[:2], lo) > 1.0)]
        assert above
        centre = (np.asarray(above[0].bbox_min) + np.asarray(above[0].bbox_max)) / 2
        terrace.set_pose(Pose(np.array([centre[0], centre[1], upper.elevation + 1.6]), 0.0, 0.0))
        r = terrace.say("take me down to the kitchen")
        assert r.ok, r.answer
        p = terrace.pose.position.copy()
        p[2] = kitchen.bbox_min[2] + 0.5
        assert terrace.graph.room_at(p) == kitchen.id


def test_a_reason_after_the_request_changes_nothing_in_it(terrace: Session) -> None:
    r = terrace.say("hide the outside walls so I can see in")
    try:
        assert r.ok, r.answer
        outside = {g for g, e in terrace.building.elements.items() if e.ifc_class.startswith("IfcWall")
                   and e.properties.get("IsExternal") is True}
        assert outside and outside <= set(terrace.state()["hidden"])
    finally:
        terrace.say("reset")
