"""``count``: the number of elements a selector means, and where they are."""

from __future__ import annotations

from ops_support import IN_KITCHEN, ROOT, Building, _load, step


def test_counts_the_doors_of_the_house_and_says_on_which_storeys(fzk: Building) -> None:
    doors = fzk.gids("IfcDoor")
    r = step(fzk.session(IN_KITCHEN), "count", target={"class": ["IfcDoor"]})
    assert r.ok and r.value == len(doors) == 5
    assert r.answer.startswith(f"There are {len(doors)} doors")
    assert "Erdgeschoss" in r.answer


def test_counts_windows_per_storey(fzk: Building) -> None:
    upper = [w for w in fzk.model.by_type("IfcWindow")
             if w.ContainedInStructure and w.ContainedInStructure[0].RelatingStructure.Name == "Dachgeschoss"]
    r = step(fzk.session(IN_KITCHEN), "count", target={"class": ["IfcWindow"], "storey": "Dachgeschoss"})
    assert r.ok and r.value == len(upper)


def test_nothing_matched_is_zero_not_an_error(fzk: Building) -> None:
    r = step(fzk.session(IN_KITCHEN), "count", target={"class": ["IfcRamp"]})
    assert r.ok and r.value == 0


def test_stairs_made_of_flights_count_as_stairs(duplex: Building) -> None:
    """The duplex's IfcStairs have no body of their own, only their flights and landings do: "how many
    stairs" counts the stairs, and hiding them hides their parts."""
    stairs = duplex.model.by_type("IfcStair")
    parts = {p.GlobalId for st in stairs for rel in st.IsDecomposedBy for p in rel.RelatedObjects}
    assert len(stairs) == 2 and parts
    s = duplex.session()
    r = step(s, "count", target={"class": ["IfcStair"]})
    assert r.ok and r.value == len(stairs), r.answer
    assert step(s, "hide", target={"class": ["IfcStair"]}).ok
    assert parts & set(s.building.elements) <= s.executor.state.hidden


def test_a_building_of_one_storey_names_no_storey() -> None:
    """MiniProject has one storey, named "Undefined": a count says nothing of it."""
    mini = _load(ROOT / "ifc" / "MiniProject.ifc")
    assert len(mini.model.by_type("IfcBuildingStorey")) == 1
    r = step(mini.session(), "count", target={"class": ["IfcColumn"]})
    assert r.ok and r.answer == f"There are {len(mini.model.by_type('IfcColumn'))} columns."


def test_a_count_on_a_storey_named_says_no_other_storey() -> None:
    """The office's columns stand on the ground floor and run up through the floors above: "how many columns
    on level 3" counts those that reach it and does not answer "on Ground Floor"."""
    office = _load(ROOT / "tests" / "language" / "buildings" / "archicad19_office-cv2.ifc")
    r = step(office.session(), "count", target={"class": ["IfcColumn"], "storey": "Level 3"})
    on_ground = step(office.session(), "count", target={"class": ["IfcColumn"], "storey": "Ground Floor"})
    assert r.ok and 0 < r.value < on_ground.value
    assert r.answer == f"There are {r.value} columns on Level 3."
