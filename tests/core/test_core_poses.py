"""Pose-relative picks on hand-chosen poses, each expectation reasoned from the plan coordinates
(noted next to the pose) and, where it matters, re-checked against boxes computed by ifcopenshell.

FZK-Haus ground floor (metres): Küche x 0.3-4.7 y 0.3-4.0, Wohnen x 4.7-11.7 y 0.3-4.0 (open to the
Küche), Flur x 0.3-7.4 y 4.0-5.75 (open to both through the gap x 3.8-7.4 at y 4.0-4.25, the rest of
that line is wall Wand-Int-ERDG-5), Buero / Bad / Schlafzimmer north of the Flur. Doors: Haustuer in the
west wall at y 4.5-5.5, Innentuer-3 (Buero) x 1.6-2.5 and Innentuer-2 (Bad) x 5.2-6.1 in the wall
y 5.75, Innentuer-1 (Schlafzimmer) x 7.41-7.51 y 4.6-5.4, Terrassentuer in the south wall x 5-7.
"""

from __future__ import annotations

import copy
import json
import math

import ifcopenshell
import numpy as np
import pytest
from core_ifc_facts import space_of, world_bbox
from core_support import Loaded, pose

from pyagent.actions import places
from pyagent.language.evaluate import real_dir
from pyagent.model import Pose
from pyagent.script import handle_line
from pyagent.session import Session

DOOR = {"class": ["IfcDoor"]}
WINDOW = {"class": ["IfcWindow"]}
FZK_DOORS = ("Innentuer-1", "Innentuer-2", "Innentuer-3", "Haustuer", "Terrassentuer")

# Standing in the Flur facing north (+Y), 1.15 m south of Innentuer-3.
FLUR = pose(2.05, 4.6, 1.6, 90)
# In the Küche facing a little west of north: Innentuer-3 and the Haustuer lie ahead in plan, but
# behind the wall Wand-Int-ERDG-5 (y 4.0-4.25, x 0.3-3.8).
KUECHE = pose(1.5, 2.0, 1.6, 100)
# Upstairs in the Galerie (floor 2.7 m) facing west, right above the Haustuer.
GALERIE = pose(3.0, 5.0, 4.3, 180)
# In the Wohnen facing east towards EG-Fenster-9 (x 11.8, y 1.2-3.2).
WOHNEN = pose(8.2, 2.15, 1.6, 0)


def names(h: Loaded, value: object) -> list[str]:
    assert isinstance(value, list), value
    return [h.loaded.building.elements[g].name for g in value]


def run(s: Session, where: Pose, target: dict, op: str = "list") -> tuple[bool, object, str]:
    s.set_pose(where)
    r = s.do({"steps": [{"op": op, "target": target}]})
    return r.ok, r.value, r.answer


def bearing_and_distance(p: Pose, lo: np.ndarray, hi: np.ndarray) -> tuple[float, float]:
    """My own reading of the contract: bearing to the box's nearest point in plan, distance to the box."""
    eye = p.position
    near = np.clip(eye, lo, hi)
    ang = math.degrees(math.atan2(near[1] - eye[1], near[0] - eye[0])) - p.yaw
    return (ang + 180) % 360 - 180, float(np.linalg.norm(near - eye))


@pytest.fixture(scope="module")
def fzk_boxes(fzk: Loaded) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    return {n: world_bbox(fzk.model, fzk.gid(n, "IfcDoor")) for n in FZK_DOORS} | {
        w.Name: world_bbox(fzk.model, w.GlobalId) for w in fzk.model.by_type("IfcWindow")}


# ---- FZK: the door in front of me ------------------------------------------------------------------------
def test_geometry_behind_the_flur_expectations(fzk_boxes: dict) -> None:
    """The coordinates my expectations rest on, from ifcopenshell's own tessellation."""
    sector = {}
    for n in FZK_DOORS:
        b, d = bearing_and_distance(FLUR, *fzk_boxes[n])
        sector[n] = ("in_front" if abs(b) <= 45 else "behind" if abs(b) >= 135 else "left" if b > 0 else "right", d)
    assert sector["Innentuer-3"][0] == "in_front" and sector["Innentuer-3"][1] == pytest.approx(1.15, abs=0.02)
    assert sector["Haustuer"][0] == "left"
    assert sector["Innentuer-2"][0] == sector["Innentuer-1"][0] == "right"
    assert sector["Terrassentuer"][0] == "behind"  # ... but behind Wand-Int-ERDG-5, out of sight


def test_door_in_front_of_me(fzk: Loaded) -> None:
    ok, value, answer = run(fzk.session(), FLUR, DOOR | {"relations": [{"rel": "in_front"}], "order": "nearest",
                                                         "limit": 1})
    assert ok and names(fzk, value) == ["Innentuer-3"]
    assert "Innentuer-3" in answer


def test_door_in_front_through_the_script_contract(fzk: Loaded) -> None:
    s = fzk.session()
    assert handle_line(s, json.dumps({"pose": {"position": [2.05, 4.6, 1.6], "yaw": 90, "pitch": 0}})) == {"ok": True}
    out = handle_line(s, json.dumps({"do": {"steps": [{"op": "list", "target": {
        "class": ["IfcDoor"], "relations": [{"rel": "in_front"}], "order": "nearest", "limit": 1}}]}}))
    assert out["ok"] is True and out["error"] is None
    assert out["value"] == [fzk.gid("Innentuer-3", "IfcDoor")]
    assert set(out) == {"ok", "program", "answer", "value", "error"}


def test_sectors_left_right_behind(fzk: Loaded) -> None:
    s = fzk.session()
    rel = lambda r: DOOR | {"relations": [{"rel": r}], "order": "nearest"}  # noqa: E731
    assert names(fzk, run(s, FLUR, rel("left"))[1]) == ["Haustuer"]
    assert names(fzk, run(s, FLUR, rel("right"))[1]) == ["Innentuer-2", "Innentuer-1"]  # 3.4 m, then 5.4 m
    ok, value, answer = run(s, FLUR, rel("behind"))
    # The Terrassentuer is behind in plan, but in the Wohnen behind a wall: nothing the user could mean.
    assert ok and value == []
    assert "no door behind you" in answer and "nearest door is Innentuer-3" in answer


def test_turning_changes_the_sectors(fzk: Loaded) -> None:
    s = fzk.session()
    s.set_pose(FLUR)
    assert s.do({"steps": [{"op": "turn", "degrees": 90}]}).ok  # now facing west, towards the Haustuer
    assert s.pose.yaw == pytest.approx(180.0) or s.pose.yaw == pytest.approx(-180.0)
    r = s.do({"steps": [{"op": "list", "target": DOOR | {"relations": [{"rel": "in_front"}]}}]})
    assert names(fzk, r.value) == ["Haustuer"]


def test_nearest_and_furthest_follow_box_distances(fzk: Loaded, fzk_boxes: dict) -> None:
    dist = {n: bearing_and_distance(FLUR, *fzk_boxes[n])[1] for n in FZK_DOORS}
    by_distance = sorted(FZK_DOORS, key=dist.__getitem__)
    s = fzk.session()
    assert names(fzk, run(s, FLUR, DOOR | {"order": "nearest"})[1]) == by_distance
    assert names(fzk, run(s, FLUR, DOOR | {"order": "furthest"})[1]) == by_distance[::-1]
    assert names(fzk, run(s, FLUR, DOOR | {"order": "furthest", "limit": 1})[1]) == ["Innentuer-1"]


def test_within_n_metres(fzk: Loaded, fzk_boxes: dict) -> None:
    s = fzk.session()
    for limit in (1.0, 2.0, 4.0):
        expected = {n for n in FZK_DOORS if bearing_and_distance(FLUR, *fzk_boxes[n])[1] <= limit}
        ok, value, _ = run(s, FLUR, DOOR | {"relations": [{"rel": "within", "distance": limit}]})
        assert ok and set(names(fzk, value)) == expected, limit
    assert names(fzk, run(s, FLUR, DOOR | {"relations": [{"rel": "within", "distance": 2.0}]})[1]) != []


def test_doors_in_my_room(fzk: Loaded) -> None:
    ok, value, _ = run(fzk.session(), FLUR, DOOR | {"relations": [{"rel": "in"}]})
    assert ok and set(names(fzk, value)) == {"Innentuer-1", "Innentuer-2", "Innentuer-3", "Haustuer"}


def test_visible_doors_respect_the_field_of_view(fzk: Loaded) -> None:
    # The Haustuer is 90 degrees to the left and Innentuer-2 70 degrees right: outside a 110 degree view.
    ok, value, _ = run(fzk.session(), FLUR, DOOR | {"relations": [{"rel": "visible"}]})
    assert ok and names(fzk, value) == ["Innentuer-3"]


def test_visible_windows(fzk: Loaded) -> None:
    s = fzk.session()
    assert names(fzk, run(s, WOHNEN, WINDOW | {"relations": [{"rel": "visible"}]})[1]) == ["EG-Fenster-9"]
    # Turned 45 degrees right, the terrace-side window EG-Fenster-5 comes into view as well.
    assert set(names(fzk, run(s, pose(8.2, 2.15, 1.6, -45), WINDOW | {"relations": [{"rel": "visible"}]})[1])) == {
        "EG-Fenster-5", "EG-Fenster-9"}


def test_visibility_is_blocked_by_walls_and_hidden_walls_do_not_block(fzk: Loaded) -> None:
    s = fzk.session()
    ne = pose(8.2, 2.15, 1.6, 45)  # the Schlafzimmer windows are in view, behind Wand-Int-ERDG-4
    seen = set(names(fzk, run(s, ne, WINDOW | {"relations": [{"rel": "visible"}]})[1]))
    assert seen == {"EG-Fenster-9"}
    assert s.do({"steps": [{"op": "hide", "target": {"name": "Wand-Int-ERDG-4"}}]}).ok
    seen = set(names(fzk, run(s, ne, WINDOW | {"relations": [{"rel": "visible"}]})[1]))
    assert {"EG-Fenster-8", "EG-Fenster-3", "EG-Fenster-9"} <= seen


def test_no_door_in_front_through_a_wall(fzk: Loaded, fzk_boxes: dict) -> None:
    # Without the wall both would count: they are in the front sector.
    for n in ("Haustuer", "Innentuer-3"):
        assert abs(bearing_and_distance(KUECHE, *fzk_boxes[n])[0]) <= 45, n
    ok, value, answer = run(fzk.session(), KUECHE, DOOR | {"relations": [{"rel": "in_front"}], "order": "nearest",
                                                           "limit": 1})
    assert ok and value == []
    # The clarification names the nearest candidate: the Haustuer, 2.7 m away.
    assert "no door in front of you" in answer
    assert "nearest door is Haustuer, 2.7 m" in answer


def test_no_ground_floor_door_through_the_slab(fzk: Loaded, fzk_boxes: dict) -> None:
    s = fzk.session()
    # The Haustuer is straight ahead in plan, one storey down.
    assert abs(bearing_and_distance(GALERIE, *fzk_boxes["Haustuer"])[0]) <= 45
    ok, value, answer = run(s, GALERIE, DOOR | {"relations": [{"rel": "in_front"}], "order": "nearest", "limit": 1})
    assert ok and value == []
    assert "no door in front of you" in answer
    # Windows on the user's own floor are found as usual.
    assert names(fzk, run(s, GALERIE, WINDOW | {"relations": [{"rel": "in_front"}], "order": "nearest",
                                                "limit": 1})[1]) == ["OG-Fenster-2"]


def test_near_and_within_do_not_reach_through_the_slab(fzk: Loaded, fzk_boxes: dict) -> None:
    above = pose(2.05, 6.5, 4.3, 0)  # upstairs, 2.4 m above-and-beside Innentuer-3
    assert bearing_and_distance(above, *fzk_boxes["Innentuer-3"])[1] < 3.0
    s = fzk.session()
    for rel in ({"rel": "within", "distance": 3.0}, {"rel": "near"}):
        ok, value, _ = run(s, above, DOOR | {"relations": [rel]})
        assert ok and value == [], rel
    ok, value, _ = run(s, above, WINDOW | {"relations": [{"rel": "visible"}]})
    assert all(n.startswith("OG-") for n in names(fzk, value))


def test_next_to(fzk: Loaded, fzk_boxes: dict) -> None:
    lo, hi = fzk_boxes["Haustuer"]
    expected = set()
    for w in fzk.model.by_type("IfcWindow"):
        wlo, whi = fzk_boxes[w.Name]
        gap = np.maximum(0, np.maximum(wlo - hi, lo - whi))
        if np.linalg.norm(gap) <= 1.0:
            expected.add(w.Name)
    assert expected == {"EG-Fenster-6"}
    ok, value, _ = run(fzk.session(), WOHNEN, WINDOW | {"relations": [{"rel": "next_to", "of": {"name": "Haustuer"}}]})
    assert ok and set(names(fzk, value)) == expected


# ---- FZK: routes, teleport, undo -------------------------------------------------------------------------
def test_walk_from_schlafzimmer_to_kueche_goes_through_the_flur(fzk: Loaded) -> None:
    s = fzk.session()
    s.set_pose(pose(9.7, 7.0, 1.6, 0))  # in the Schlafzimmer
    r = s.do({"steps": [{"op": "route", "to": {"room": "Küche"}}]})
    assert r.ok and "Flur" in r.answer
    # The only way out of the Schlafzimmer is Innentuer-1 (x 7.41-7.51, y 4.56-5.44); from there to the
    # Küche centre (2.5, 2.2). Walking cannot be shorter than via the door, nor absurdly longer.
    via_door = math.dist((9.7, 7.0), (7.46, 5.0)) + math.dist((7.46, 5.0), (2.5, 2.155))
    assert via_door <= r.value <= 1.6 * via_door
    route = s.graph.route(np.array([9.7, 7.0, 0.0]), fzk.gid("Schlafzimmer", "IfcSpace"), fzk.gid("Küche", "IfcSpace"),
                          places.room_point(s.executor, fzk.gid("Küche", "IfcSpace")))
    assert route is not None
    assert route.doors[0] == fzk.gid("Innentuer-1", "IfcDoor")
    assert fzk.gid("Flur", "IfcSpace") in route.rooms


def test_teleport_lands_inside_the_room(fzk: Loaded) -> None:
    s = fzk.session()
    s.set_pose(FLUR)
    rev = s.revision
    r = s.do({"steps": [{"op": "teleport", "target": {"room": "Küche"}}]})
    assert r.ok and s.revision == rev + 1
    lo, hi = world_bbox(fzk.model, fzk.gid("Küche", "IfcSpace"))
    p = s.pose.position
    assert lo[0] < p[0] < hi[0] and lo[1] < p[1] < hi[1]
    assert p[2] == pytest.approx(lo[2] + 1.6, abs=0.05)
    assert s.do({"steps": [{"op": "where_am_i"}]}).value == "Küche"
    assert s.state()["pose"]["position"] == pytest.approx(list(p))
    assert s.do({"steps": [{"op": "undo"}]}).ok
    assert s.pose.to_json() == FLUR.to_json()


def test_undo_redo_restores_state_exactly(fzk: Loaded) -> None:
    s = fzk.session()
    s.set_pose(FLUR)
    states = [copy.deepcopy(s.state())]
    programs = [
        {"steps": [{"op": "hide", "target": DOOR | {"relations": [{"rel": "in_front"}], "limit": 1}}]},
        {"steps": [{"op": "color", "target": {"class": ["IfcWindow"], "storey": "ground"}, "rgba": [1, 0, 0, 1]}]},
        {"steps": [{"op": "move", "target": {"name": "Haustuer"}, "delta": [0.5, 0, 0]},
                   {"op": "rotate", "target": {"ref": "it"}, "degrees": 90}]},
        {"steps": [{"op": "teleport", "target": {"room": "Küche"}}]},
        {"steps": [{"op": "delete", "target": {"name": "EG-Fenster-7"}}]},
    ]
    for p in programs:
        r = s.do(p)
        assert r.ok, r.error
        states.append(copy.deepcopy(s.state()))
    assert all(a != b for a, b in zip(states, states[1:], strict=False))
    assert states[1]["hidden"] == [fzk.gid("Innentuer-3", "IfcDoor")]
    for k in range(len(programs), 0, -1):
        assert s.do({"steps": [{"op": "undo"}]}).ok
        assert s.state() == states[k - 1], k
    assert not s.do({"steps": [{"op": "undo"}]}).ok  # nothing left to undo
    assert s.state() == states[0]
    for k in range(1, len(programs) + 1):
        assert s.do({"steps": [{"op": "redo"}]}).ok
        assert s.state() == states[k], k
    assert s.do({"steps": [{"op": "undo", "count": 2}]}).ok
    assert s.state() == states[-3]


def test_a_failing_program_changes_nothing(fzk: Loaded) -> None:
    s = fzk.session()
    s.set_pose(FLUR)
    assert s.do({"steps": [{"op": "hide", "target": {"name": "Haustuer"}}]}).ok
    before, rev = copy.deepcopy(s.state()), s.revision
    r = s.do({"steps": [
        {"op": "hide", "target": DOOR},
        {"op": "color", "target": {"class": ["IfcWindow"]}, "rgba": [0, 1, 0, 1]},
        {"op": "teleport", "target": {"room": "Küche"}},
        {"op": "hide", "target": {"name": "no such element anywhere"}},
    ]})
    assert not r.ok and r.error and "step 3" in r.error
    assert s.state() == before and s.revision == rev
    # ... and the undo history is untouched: one undo brings back the Haustuer, as before.
    assert s.do({"steps": [{"op": "undo"}]}).ok
    assert s.state()["hidden"] == []


# ---- duplex ------------------------------------------------------------------------------------------
# Unit B, Level 1: Foyer B101 x 0.4-2.6 y -9.7..-0.4 (the stair room B105 in its south-west corner),
# Bathroom 1 door x 2.42-2.6 y -8.6..-7.7, entrance door x 0-0.44 y -2.3..-0.9. Level 2 (3.1 m):
# Bedroom 2 B203 y -6.7..-0.4 with its door to the Hallway at x 1.4-2.4 y -6.28..-6.1; the Hallway's
# door to Bathroom 2 (x 2.36-2.53, y -9.95..-8.93) lies straight beyond it.
DUP_FOYER = pose(1.5, -5.0, 1.6, -90)
DUP_BED2 = pose(2.0, -3.0, 4.7, -90)
DOOR_BATH_B = "1hOSvn6df7F8_7GcBWlS9F"
DOOR_ENTRY_B = "1hOSvn6df7F8_7GcBWlRH8"
DOOR_BED2_B = "1hOSvn6df7F8_7GcBWlSFK"
DOOR_BATH2_B = "2OBrcmyk58NupXoVOHUvR4"


def test_duplex_door_in_front_and_behind(duplex: Loaded) -> None:
    s = duplex.session()
    ok, value, _ = run(s, DUP_FOYER, DOOR | {"relations": [{"rel": "in_front"}], "order": "nearest", "limit": 1})
    assert ok and value == [DOOR_BATH_B]
    ok, value, _ = run(s, DUP_FOYER, DOOR | {"relations": [{"rel": "behind"}], "order": "nearest", "limit": 1})
    assert ok and value == [DOOR_ENTRY_B]
    lo, hi = world_bbox(duplex.model, DOOR_BATH_B)
    b, d = bearing_and_distance(DUP_FOYER, lo, hi)
    assert abs(b) <= 45 and d == pytest.approx(2.82, abs=0.05)


def test_duplex_door_beyond_a_door_is_not_in_front(duplex: Loaded) -> None:
    lo, hi = world_bbox(duplex.model, DOOR_BATH2_B)
    assert abs(bearing_and_distance(DUP_BED2, lo, hi)[0]) <= 45  # in the sector, but behind the first door
    ok, value, _ = run(duplex.session(), DUP_BED2, DOOR | {"relations": [{"rel": "in_front"}]})
    assert ok and value == [DOOR_BED2_B]


def test_duplex_only_walls_ahead_names_the_nearest_door(duplex: Loaded) -> None:
    s = duplex.session()
    ok, value, answer = run(s, pose(1.0, -3.0, 4.7, 0), DOOR | {"relations": [{"rel": "in_front"}], "limit": 1})
    assert ok and value == []
    label = duplex.loaded.building.elements[DOOR_BED2_B].label()
    assert f"nearest door is {label}, 3.1 m to your right" in answer


def test_duplex_upstairs_ignores_the_doors_below(duplex: Loaded) -> None:
    lo, hi = world_bbox(duplex.model, DOOR_BATH_B)
    upstairs = pose(1.5, -5.0, 4.7, -90)
    assert abs(bearing_and_distance(upstairs, lo, hi)[0]) <= 45
    ok, value, _ = run(duplex.session(), upstairs, DOOR | {"relations": [{"rel": "in_front"}], "order": "nearest"})
    assert ok and value == [DOOR_BED2_B]


def test_duplex_furniture_in_my_room(duplex: Loaded) -> None:
    kitchen_b = duplex.gid("B103", "IfcSpace")
    expected = {f.GlobalId for f in duplex.model.by_type("IfcFurnishingElement") if space_of(f) == kitchen_b}
    assert len(expected) == 15
    ok, value, _ = run(duplex.session(), pose(5.5, -6.3, 1.6, 0), {"class": ["IfcFurnishingElement"],
                                                                   "relations": [{"rel": "in"}]})
    assert ok and set(value) == expected


def test_duplex_where_am_i_and_walk_to_the_kitchen(duplex: Loaded) -> None:
    s = duplex.session()
    s.set_pose(DUP_FOYER)
    assert s.do({"steps": [{"op": "where_am_i"}]}).value == "Foyer"
    r = s.do({"steps": [{"op": "route", "to": {"ids": [duplex.gid("B103", "IfcSpace")]}}]})
    # Open plan: Foyer -> Kitchen without a door, a few metres.
    assert r.ok and 1.0 < r.value < 8.0


def test_duplex_take_me_to_the_kitchen_picks_the_nearest_one(duplex: Loaded) -> None:
    s = duplex.session()
    s.set_pose(DUP_FOYER)  # unit B; its kitchen B103 is next door, unit A's A103 is 6 m further south
    r = s.do({"steps": [{"op": "teleport", "target": {"room": "Kitchen"}}]})
    assert r.ok
    assert s.do({"steps": [{"op": "where_am_i"}]}).to_json()["value"] == "Kitchen"
    lo, hi = world_bbox(duplex.model, duplex.gid("B103", "IfcSpace"))
    p = s.pose.position
    assert lo[0] < p[0] < hi[0] and lo[1] < p[1] < hi[1]


def test_duplex_route_to_a_shared_room_name_takes_the_near_one(duplex: Loaded) -> None:
    s = duplex.session()
    s.set_pose(DUP_FOYER)
    # Both units have a "Bedroom 2" upstairs; unit B's is up its own stair (B105), about 10 m away,
    # unit A's only round the outside of the building (over 40 m).
    r = s.do({"steps": [{"op": "route", "to": {"room": "Bedroom 2"}}]})
    assert r.ok and r.value < 20.0 and "outside" not in r.answer, r.answer


def test_a_window_its_wall_was_not_cut_for_is_seen_in_front() -> None:
    """The Vectorworks house (no rooms) writes its window AW6 without a fills relation and its wall W1 without
    the opening cut (ifcopenshell: AW6 x 5.99-8.04, y 0.87-1.07, z 3.87-5.13, inside W1's box). Facing it
    across the open upper floor, it is the window in front of the user, 4.93 m to its face."""
    real = real_dir()
    path = real / "vectorworks2013_japanese_unicode.ifc" if real else None
    if path is None or not path.is_file():
        pytest.skip("the shared real files are not here")
    model = ifcopenshell.open(str(path))
    assert not model.by_type("IfcRelFillsElement")
    s = Session.open(path)
    ok, value, answer = run(s, pose(7.0, 6.0, 4.6, 270), WINDOW | {"relations": [{"rel": "in_front"}]})
    assert ok and names_in(s, value) == ["AW6"], answer
    ok, value, answer = run(s, pose(7.0, 6.0, 4.6, 90), WINDOW | {"relations": [{"rel": "in_front"}]})
    assert ok and value == [], answer  # facing away it is behind


def names_in(s: Session, value: object) -> list[str]:
    assert isinstance(value, list), value
    return [s.building.elements[g].name for g in value]


def test_the_south_side_of_a_roof_on_a_turned_house(fzk: Loaded) -> None:
    """The house is turned 40 degrees from true north (its context's TrueNorth): its two roof pitches, Dach-2
    at the -Y side and Dach-1 at the +Y side, face 50 degrees off south and north, so neither lies squarely
    south; the south side of the roof is the pitch nearest to south, and only that one."""
    ctx = next(c for c in fzk.model.by_type("IfcGeometricRepresentationContext") if c.TrueNorth is not None)
    x, y = ctx.TrueNorth.DirectionRatios[:2]
    assert math.degrees(math.atan2(y, x)) == pytest.approx(40.0, abs=0.1)  # north along (0.77, 0.64)
    assert world_bbox(fzk.model, fzk.gid("Dach-2", "IfcSlab"))[1][1] <= world_bbox(
        fzk.model, fzk.gid("Dach-1", "IfcSlab"))[0][1] + 1e-6  # Dach-2 lies on the -Y side
    roof = {"class": ["IfcRoof"]}
    for side, name in (("south", "Dach-2"), ("north", "Dach-1")):
        ok, value, answer = run(fzk.session(), WOHNEN, roof | {"relations": [{"rel": side}]})
        assert ok and names(fzk, value) == [name], (side, answer)
