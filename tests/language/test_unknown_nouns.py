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


SHARED = next((f / "shared" / "ifc" / "real" for f in Path(__file__).resolve().parents
               if (f / "shared" / "ifc" / "real").is_dir()), None)


@pytest.mark.skipif(SHARED is None, reason="the shared reference files are not beside the checkout")
def test_a_class_the_building_has_is_a_noun_by_its_own_name() -> None:
    """The building's classes are nouns by their names ('shading devices'), counted by the file."""
    import ifcopenshell

    assert SHARED is not None
    path = SHARED / "ifcsverchok_Facades.ifc"
    devices = len(ifcopenshell.open(str(path)).by_type("IfcShadingDevice"))
    s = Session.open(path)
    r = s.say("how many shading devices are there")
    assert r.ok and r.value == devices > 0
    r = s.say("hide the shading devices")
    assert r.ok and len(s.state()["hidden"]) == devices
