"""``route``: the walk to a room through doors, with the rooms on the way."""

from __future__ import annotations

from ops_support import IN_KITCHEN, ROOT, Building, _load, refused, step


def test_from_the_kitchen_to_the_bathroom_goes_through_the_hall(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    r = step(s, "route", to={"room": "Bad"})
    assert r.ok and 3.0 < r.value < 20.0
    assert "Flur" in r.answer and "on foot" in r.answer


def test_from_outside_the_distance_as_the_crow_flies(fzk: Building) -> None:
    """Outside any room there is no walk to plan: the answer says so and gives the straight distance to the room
    (the same as the distance op's), not its contents."""
    s = fzk.session((-20.0, -20.0, 1.6))
    r = step(s, "route", to={"room": "Bad"})
    bad = step(s, "list", target={"class": ["IfcSpace"], "name": "Bad"}).value
    assert r.ok and "not inside a room" in r.answer and "Bad" in r.answer, r.answer
    assert r.value == step(s, "distance", to={"ids": bad}).value > 10.0
    refused(s, "route", **{"from": {"class": ["IfcSite"]}, "to": {"room": "Bad"}})


def test_walking_words_anywhere_in_a_how_far_question(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    expected = step(s, "route", to={"room": "Bad"}).value
    for said in ("how far is it on foot from here to the Bad?", "how far is it to the Bad on foot",
                 "how far is the Bad walking?"):
        r = s.say(said)
        assert r.ok and r.value == expected, (said, r.answer)


def test_a_stair_passing_storeys_is_named_once() -> None:
    """The four-storey office: from Level 3 down to the exit, the route passes one staircase room per storey, all
    called "Staircase"; the answer names it once."""
    office = _load(ROOT / "tests" / "language" / "buildings" / "archicad19_office-cv2.ifc")
    exit_door = next(d.GlobalId for d in office.model.by_type("IfcDoor") if d.Name == "D006")
    r = step(office.session((8.0, 15.0, 11.2)), "route", to={"ids": [exit_door]})
    assert r.ok and r.answer.count("Staircase") == 1, r.answer
    assert r.answer.endswith("through Corridor, Staircase.")
