"""``isolate``: show only some elements."""

from __future__ import annotations

from ops_support import FZK, IN_KITCHEN, ROOT, Building, _load, refused, step


def test_only_the_walls_stay_visible(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    walls = fzk.gids("IfcWall") | fzk.gids("IfcWallStandardCase")
    r = step(s, "isolate", target={"class": ["IfcWall"]})
    assert r.ok and r.answer.startswith("Showing only")
    hidden = s.executor.state.hidden
    assert not hidden & walls
    assert fzk.gids("IfcDoor") <= hidden and fzk.gids("IfcSlab") <= hidden
    assert not hidden & fzk.gids("IfcSpace")  # rooms are not drawn, so never hidden


def test_isolating_nothing_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "isolate", target={"class": ["IfcRamp"]})


def test_a_house_of_a_terrace_by_the_number_its_rooms_carry() -> None:
    """The Smiley terrace's rooms are long-named "FLUR-3-1", "BAD / WC-3-2": house 3 is the dwelling whose rooms
    all carry 3; a number no dwelling carries, or a building of one dwelling, is refused and changes nothing."""
    terrace = _load(ROOT / "tests" / "language" / "buildings" / "archicad11_smiley-west.ifc")
    s = terrace.session()
    r = step(s, "isolate", target={"relations": [{"rel": "unit", "number": "3"}]})
    kept = {g for g in s.building.elements if g not in s.executor.state.hidden}
    rooms = {e.room for g, e in s.building.elements.items() if g in kept and e.room}
    assert r.ok and rooms and all("-3-" in s.building.elements[x].long_name for x in rooms), r.answer
    refused(terrace.session(), "isolate", target={"relations": [{"rel": "unit", "number": "9"}]})
    refused(_load(FZK).session(), "hide", target={"relations": [{"rel": "unit", "number": "1"}]})
