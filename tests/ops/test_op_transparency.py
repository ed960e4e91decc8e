"""``transparency``: see-through or opaque, keeping the colour."""

from __future__ import annotations

from ops_support import IN_KITCHEN, ROOT, Building, _load, refused, step


def test_see_through_keeps_a_painted_colour(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    assert step(s, "color", target={"class": ["IfcDoor"]}, rgba=[0, 1, 0, 1]).ok
    r = step(s, "transparency", target={"class": ["IfcDoor"]}, alpha=0.3)
    assert r.ok and r.answer.startswith("See-through:")
    assert all(c == [0.0, 1.0, 0.0, 0.3] for c in s.executor.state.colors.values())
    r = step(s, "transparency", target={"class": ["IfcDoor"]}, alpha=1.0)
    assert r.ok and r.answer.startswith("Opaque:")


def test_an_alpha_out_of_range_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "transparency", target={"class": ["IfcDoor"]}, alpha=1.5)


def test_a_thing_over_one_of_two_things_of_that_name_needs_no_choosing() -> None:
    """The FreeCAD house has a "Slab Terrace" and, under it, a "Footing Terrace": the brise-soleil over "the
    terrace" is over both, so which one was meant does not matter; the door next to one bedroom of two does."""
    house = _load(ROOT / "tests" / "language" / "buildings" / "freecad_testhouse.ifc")
    s = house.session()
    over = {"name": "Brises", "relations": [{"rel": "above", "of": {"name": "terrace", "limit": 1}}], "limit": 1}
    r = step(s, "transparency", target=over, alpha=0.5)
    brises = [g for g, e in s.building.elements.items() if e.name == "Brises"]
    assert r.ok and set(s.executor.state.colors) == set(brises), r.answer
    nowhere = {"name": "Brises", "relations": [{"rel": "below", "of": {"name": "terrace", "limit": 1}}], "limit": 1}
    assert "Which" in refused(house.session(), "hide", target=nowhere).answer
