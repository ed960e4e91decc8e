"""A noun the building does not have is never read as 'everything': "hide all the gizmos" changes
nothing and says it did not understand, while "hide all" and "everything upstairs" still mean all."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyagent.session import Session

FZK = Path(__file__).resolve().parents[2] / "ifc" / "AC20-FZK-Haus.ifc"


@pytest.fixture(scope="module")
def house() -> Session:
    return Session.open(FZK)


@pytest.mark.parametrize("text", ["hide all the gizmos", "delete all the widgets please", "hide every sprocket"])
def test_all_the_unknown_things_changes_nothing(house: Session, text: str) -> None:
    before = house.state()
    r = house.say(text)
    assert not r.ok and r.answer
    assert house.state() == before


@pytest.mark.parametrize("text", ["hide all", "hide everything", "hide all of it", "hide all the things"])
def test_all_still_means_everything(house: Session, text: str) -> None:
    r = house.say(text)
    try:
        assert r.ok, r.answer
        shown = [g for g, e in house.building.elements.items() if e.has_geometry and not e.is_spatial]
        assert set(shown) <= set(house.state()["hidden"])
    finally:
        house.say("reset")
