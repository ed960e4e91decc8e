"""Ingest against facts computed straight from ifcopenshell: counts, storeys, rooms, dimensions, true
north, the glb's nodes, the frame conversion and the cache."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import ifcopenshell
import numpy as np
import pytest
from core_ifc_facts import (
    DUPLEX,
    FZK,
    class_counts,
    drawn_products,
    glb_element_nodes,
    space_boundary_rooms,
    space_of,
    storey_counts,
    storey_elevations,
    storey_of,
    true_north_deg,
    unit_scale,
    world_bbox,
)
from core_support import Loaded
from hypothesis import given
from hypothesis import strategies as st

from pyagent.frames import godot_to_ifc, ifc_to_godot
from pyagent.glb import node_names
from pyagent.loader import load
from pyagent.model import OUTSIDE

SPATIAL = ("IfcSite", "IfcBuilding", "IfcBuildingStorey", "IfcSpace")


@pytest.fixture(params=["fzk", "duplex"])
def house(request: pytest.FixtureRequest) -> Loaded:
    return request.getfixturevalue(request.param)


def _products(h: Loaded) -> list:
    return [p for p in drawn_products(h.model) if p.is_a() not in SPATIAL]


# ---- counts ---------------------------------------------------------------------------------------
def test_counts_by_class(house: Loaded) -> None:
    expected = class_counts(house.model)
    for cls in SPATIAL:
        expected.pop(cls, None)
    got = Counter(e.ifc_class for e in house.loaded.building.products())
    assert got == expected


def test_known_counts() -> None:
    """A few absolute numbers, so a change in both the file and the helper cannot go unnoticed."""
    fzk = class_counts(ifcopenshell.open(str(FZK)))
    assert (fzk["IfcDoor"], fzk["IfcWindow"], fzk["IfcWallStandardCase"], fzk["IfcMember"]) == (5, 11, 13, 42)
    dup = class_counts(ifcopenshell.open(str(DUPLEX)))
    assert (dup["IfcDoor"], dup["IfcWindow"], dup["IfcFurnishingElement"]) == (14, 24, 61)


def test_counts_by_storey(house: Loaded) -> None:
    b = house.loaded.building
    expected = Counter(storey_of(p) for p in _products(house))
    got = Counter(e.storey for e in b.products())
    assert got == expected
    assert None not in got


def test_every_element_storey_matches_relations(house: Loaded) -> None:
    els = house.loaded.building.elements
    wrong = [(p.is_a(), p.Name) for p in _products(house) if els[p.GlobalId].storey != storey_of(p)]
    assert wrong == []


def test_storey_totals_fzk(fzk: Loaded) -> None:
    counts = storey_counts(fzk.model)
    eg, dg = fzk.gid("Erdgeschoss", "IfcBuildingStorey"), fzk.gid("Dachgeschoss", "IfcBuildingStorey")
    # FZK: 26 elements on the ground floor, 56 upstairs (42 roof members among them), the site in none.
    assert (counts[eg], counts[dg]) == (26, 56)
    b = fzk.loaded.building
    assert sum(1 for e in b.products() if e.storey == eg) == 26
    assert sum(1 for e in b.products() if e.storey == dg) == 56


# ---- storeys, ground floor, true north --------------------------------------------------------------
def test_storey_order_and_elevations(house: Loaded) -> None:
    b = house.loaded.building
    elev = storey_elevations(house.model)
    assert [s.id for s in b.storeys] == sorted(elev, key=elev.__getitem__)
    for s in b.storeys:
        assert s.elevation == pytest.approx(elev[s.id], abs=1e-6)
    assert [s.index for s in b.storeys] == list(range(len(b.storeys)))


def test_ground_floor(house: Loaded) -> None:
    elev = storey_elevations(house.model)
    lowest_at_or_above_zero = min((z, g) for g, z in elev.items() if z >= -1e-6)[1]
    assert house.loaded.building.ground_storey == lowest_at_or_above_zero


def test_duplex_ground_is_level_1_not_foundation(duplex: Loaded) -> None:
    b = duplex.loaded.building
    assert [s.name for s in b.storeys] == ["T/FDN", "Level 1", "Level 2", "Roof"]
    assert b.storeys[0].elevation == pytest.approx(-1.25)
    assert b.storey(b.ground_storey).name == "Level 1"


def test_true_north(fzk: Loaded, duplex: Loaded) -> None:
    assert true_north_deg(fzk.model) == pytest.approx(40.0, abs=1e-6)
    assert fzk.loaded.building.true_north_deg == pytest.approx(40.0, abs=1e-6)
    assert duplex.loaded.building.true_north_deg == pytest.approx(true_north_deg(duplex.model))


# ---- rooms -------------------------------------------------------------------------------------------
def test_duplex_furniture_in_its_space(duplex: Loaded) -> None:
    els = duplex.loaded.building.elements
    furniture = duplex.model.by_type("IfcFurnishingElement")
    assert len(furniture) == 61
    for f in furniture:
        assert space_of(f) is not None
        assert els[f.GlobalId].room == space_of(f), f.Name


def test_duplex_kitchen_furniture_count(duplex: Loaded) -> None:
    b = duplex.loaded.building
    kitchens = [s for s in b.spaces() if s.long_name == "Kitchen"]
    assert len(kitchens) == 2
    for k in kitchens:
        expected = sum(1 for f in duplex.model.by_type("IfcFurnishingElement") if space_of(f) == k.id)
        assert expected == 15
        assert sum(1 for e in b.products() if e.room == k.id and e.ifc_class == "IfcFurnishingElement") == 15


def test_doors_and_windows_match_space_boundaries(house: Loaded) -> None:
    """Every room pyagent puts on either side of a door or window is one IfcRelSpaceBoundary names."""
    els = house.loaded.building.elements
    bounds = space_boundary_rooms(house.model)
    checked = 0
    for gid, rooms in bounds.items():
        el = els.get(gid)
        if el is None or el.ifc_class not in ("IfcDoor", "IfcWindow"):
            continue
        sides = set(el.sides)
        assert sides <= rooms, (el.name, sides, rooms)
        assert len(sides) == min(2, len(rooms)), (el.name, sides, rooms)
        if "outside" in rooms:
            assert OUTSIDE in sides
        checked += 1
    assert checked >= 16


def test_fzk_doors_connect_named_rooms(fzk: Loaded) -> None:
    room = {n: fzk.gid(n, "IfcSpace") for n in ("Flur", "Schlafzimmer", "Bad", "Buero", "Wohnen")}
    expected = {
        "Innentuer-1": {room["Flur"], room["Schlafzimmer"]},
        "Innentuer-2": {room["Flur"], room["Bad"]},
        "Innentuer-3": {room["Flur"], room["Buero"]},
        "Haustuer": {room["Flur"], OUTSIDE},
        "Terrassentuer": {room["Wohnen"], OUTSIDE},
    }
    bounds = space_boundary_rooms(fzk.model)
    for name, rooms in expected.items():
        gid = fzk.gid(name, "IfcDoor")
        assert bounds[gid] == rooms  # the file says so ...
        assert set(fzk.loaded.building.elements[gid].sides) == rooms  # ... and so does pyagent
        assert set(fzk.graph.rooms_connected_by(gid)) == rooms


def test_fzk_doors_geometry_between_their_rooms(fzk: Loaded) -> None:
    """Independently of the boundaries: each inner door's box touches both rooms' boxes in plan."""
    for door, a, b in (("Innentuer-1", "Flur", "Schlafzimmer"), ("Innentuer-2", "Flur", "Bad"),
                       ("Innentuer-3", "Flur", "Buero")):
        dlo, dhi = world_bbox(fzk.model, fzk.gid(door, "IfcDoor"))
        for room in (a, b):
            rlo, rhi = world_bbox(fzk.model, fzk.gid(room, "IfcSpace"))
            gap = np.maximum(0, np.maximum(rlo[:2] - dhi[:2], dlo[:2] - rhi[:2]))
            assert np.linalg.norm(gap) < 0.3, (door, room)


# ---- dimensions ----------------------------------------------------------------------------------------
def test_door_window_overall_dimensions(house: Loaded) -> None:
    els = house.loaded.building.elements
    scale = unit_scale(house.model)
    n = 0
    for cls in ("IfcDoor", "IfcWindow"):
        for p in house.model.by_type(cls):
            if p.GlobalId not in els:
                continue
            if p.OverallHeight:
                assert els[p.GlobalId].dims["height"] == pytest.approx(p.OverallHeight * scale, abs=1e-6)
            if p.OverallWidth:
                assert els[p.GlobalId].dims["width"] == pytest.approx(p.OverallWidth * scale, abs=1e-6)
            n += 1
    assert n >= 16


def test_fzk_door_dimensions_by_name(fzk: Loaded) -> None:
    els = fzk.loaded.building.elements
    haus = els[fzk.gid("Haustuer", "IfcDoor")]
    terr = els[fzk.gid("Terrassentuer", "IfcDoor")]
    assert (haus.dims["height"], haus.dims["width"]) == pytest.approx((2.01, 1.01))
    assert (terr.dims["height"], terr.dims["width"]) == pytest.approx((2.375, 2.01))


def test_element_boxes_match_ifcopenshell_geometry(fzk: Loaded) -> None:
    els = fzk.loaded.building.elements
    for name, cls in (("Innentuer-1", "IfcDoor"), ("EG-Fenster-9", "IfcWindow"), ("Küche", "IfcSpace"),
                      ("Wand-Int-ERDG-5", "IfcWallStandardCase")):
        gid = fzk.gid(name, cls)
        lo, hi = world_bbox(fzk.model, gid)
        assert np.allclose(els[gid].bbox_min, lo, atol=0.01), name
        assert np.allclose(els[gid].bbox_max, hi, atol=0.01), name


# ---- glb --------------------------------------------------------------------------------------------------
def test_glb_nodes_are_the_products_with_geometry(house: Loaded) -> None:
    names = node_names(house.loaded.glb_path)
    assert len(names) == len(set(names))
    assert set(names) == {p.GlobalId for p in drawn_products(house.model)}


def test_glb_read_by_hand_agrees_with_node_names(fzk: Loaded) -> None:
    assert list(glb_element_nodes(fzk.loaded.glb_path)) == node_names(fzk.loaded.glb_path)


def test_glb_node_positions_are_godot_frame(fzk: Loaded) -> None:
    """A node sits at its element's box centre, converted to Godot's Y-up frame."""
    nodes = glb_element_nodes(fzk.loaded.glb_path)
    for name, cls in (("Haustuer", "IfcDoor"), ("OG-Fenster-1", "IfcWindow"), ("Wendeltreppe", "IfcStair")):
        gid = fzk.gid(name, cls)
        lo, hi = world_bbox(fzk.model, gid)
        centre_ifc = (lo + hi) / 2
        t = np.array(nodes[gid])
        assert np.allclose(t, [centre_ifc[0], centre_ifc[2], -centre_ifc[1]], atol=0.01), name
        assert np.allclose(godot_to_ifc(t), centre_ifc, atol=0.01), name


# ---- frames ---------------------------------------------------------------------------------------------
def test_frames_known_values() -> None:
    assert ifc_to_godot(np.array([1.0, 2.0, 3.0])).tolist() == [1.0, 3.0, -2.0]
    assert godot_to_ifc(np.array([1.0, 3.0, -2.0])).tolist() == [1.0, 2.0, 3.0]
    # IFC up (+Z) is Godot up (+Y); IFC +Y (yaw 90) is Godot's forward (-Z).
    assert ifc_to_godot(np.array([0.0, 0.0, 1.0])).tolist() == [0.0, 1.0, 0.0]
    assert ifc_to_godot(np.array([0.0, 1.0, 0.0])).tolist() == [0.0, 0.0, -1.0]
    batch = np.arange(24, dtype=float).reshape(2, 4, 3)
    assert ifc_to_godot(batch).shape == (2, 4, 3)
    assert np.array_equal(ifc_to_godot(batch)[1, 2], [batch[1, 2, 0], batch[1, 2, 2], -batch[1, 2, 1]])


def test_frames_are_a_proper_rotation() -> None:
    """The conversion is a rotation (det +1): handedness is kept, so meshes are not mirrored."""
    m = ifc_to_godot(np.eye(3)).T
    assert np.linalg.det(m) == pytest.approx(1.0)


finite = st.floats(min_value=-1e5, max_value=1e5, allow_nan=False)


@given(st.lists(st.tuples(finite, finite, finite), min_size=1, max_size=20))
def test_frames_round_trip(points: list[tuple[float, float, float]]) -> None:
    p = np.array(points)
    assert np.array_equal(godot_to_ifc(ifc_to_godot(p)), p)
    assert np.array_equal(ifc_to_godot(godot_to_ifc(p)), p)


# ---- cache ------------------------------------------------------------------------------------------------
def _records(lb) -> list:  # noqa: ANN001
    out = []
    for e in lb.building.elements.values():
        d = dict(vars(e))
        d["bbox_min"] = [round(float(v), 9) for v in e.bbox_min]
        d["bbox_max"] = [round(float(v), 9) for v in e.bbox_max]
        out.append(d)
    return out


def test_second_load_is_cached_and_equal(tmp_path) -> None:  # noqa: ANN001
    cold = load(DUPLEX, cache=tmp_path, use_cache=False)
    assert cold.cached is False
    warm = load(DUPLEX, cache=tmp_path)
    assert warm.cached is True
    assert warm.glb_path == cold.glb_path and warm.glb_path.is_file()
    assert _records(warm) == _records(cold)
    b1, b2 = cold.building, warm.building
    assert [vars(s) for s in b1.storeys] == [vars(s) for s in b2.storeys]
    assert (b1.ground_storey, b1.true_north_deg, b1.schema) == (b2.ground_storey, b2.true_north_deg, b2.schema)
    assert warm.meshes.ids == cold.meshes.ids
    assert np.array_equal(warm.meshes.verts, cold.meshes.verts)
    assert np.array_equal(warm.meshes.faces, cold.meshes.faces)


# ---- MiniProject (few tests: its first load is slow) ---------------------------------------------------
def test_mini_counts_storey_and_glb(mini: Loaded) -> None:
    b = mini.loaded.building
    expected = class_counts(mini.model)
    got = Counter(e.ifc_class for e in b.products())
    assert got == expected
    assert sum(expected.values()) == 2636
    (storey,) = b.storeys
    assert {e.storey for e in b.products()} == {storey.id}
    assert b.ground_storey == storey.id
    assert b.spaces() == []
    assert any("no spaces" in w for w in b.warnings)
    # (read by hand: pygltflib, under pyagent.glb.node_names, takes ~15 s on this 15 MB file)
    assert set(glb_element_nodes(mini.loaded.glb_path)) == {p.GlobalId for p in drawn_products(mini.model)}


def test_quantities_in_a_millimetre_file_keep_the_declared_area_and_volume_units(mini: Loaded) -> None:
    """MiniProject measures lengths in mm but declares m² and m³: its quantity sets are read as declared."""
    import ifcopenshell.util.element as uel

    checked = 0
    for product in mini.model.by_type("IfcElement")[:400]:
        qtos = uel.get_psets(product, qtos_only=True)
        volume = next((v["NetVolume"] for v in qtos.values() if isinstance(v.get("NetVolume"), float)), None)
        el = mini.loaded.building.elements.get(product.GlobalId)
        if volume is None or volume <= 0 or el is None:
            continue
        assert el.quantities["volume"] == pytest.approx(volume, rel=1e-6), product.GlobalId
        checked += 1
    assert checked >= 20


def test_a_room_without_a_stored_area_has_its_plan_area(tmp_path: Path) -> None:
    """ifcengine's example stores no room areas: each room's area is its profile's (an L-shaped room's is its
    L, not its box), read here from the extruded profile's points by the shoelace formula."""
    path = Path(__file__).resolve().parents[1] / "language" / "buildings" / "ifcengine_example.ifc"
    model = ifcopenshell.open(str(path))
    scale = unit_scale(model)
    building = load(path, cache=tmp_path).building
    boxy = 0
    for space in model.by_type("IfcSpace"):
        solid = next(i for r in space.Representation.Representations for i in r.Items)
        pts = np.array([p.Coordinates[:2] for p in solid.SweptArea.OuterCurve.Points], dtype=float) * scale
        x, y = pts[:, 0], pts[:, 1]
        plan = abs(float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))) / 2.0
        el = building.elements[space.GlobalId]
        assert el.quantities["area"] == pytest.approx(plan, rel=0.01), space.Name
        box = (el.bbox_max[0] - el.bbox_min[0]) * (el.bbox_max[1] - el.bbox_min[1])
        boxy += box > plan * 1.1
    assert boxy >= 1  # some room is no rectangle (its box would give a wrong area)


def test_a_door_flush_with_the_outer_face_of_a_thick_wall_opens_into_its_room(tmp_path: Path) -> None:
    """The Renga house's garage door is 5 cm thick and set at the outer face of a wall some 0.4 m thick
    (ifcopenshell: the door's box y -7.05..-7.00, the garage space 'Гараж' from y -6.60): the rooms on its two
    sides are the garage and the outside, found beyond its wall's faces, not its own."""
    from pyagent.language.evaluate import BUILDINGS_DIR

    path = BUILDINGS_DIR / "renga_house.ifc"
    model = ifcopenshell.open(str(path))
    garage = next(s for s in model.by_type("IfcSpace") if s.LongName == "Гараж")
    door = model.by_guid("1rU5_ytFj2w9rOKxGO8Gln")
    assert door.is_a("IfcDoor") and door.OverallWidth == pytest.approx(3000.0)
    lb = load(path, cache=tmp_path)
    assert set(lb.building.elements[door.GlobalId].sides) == {garage.GlobalId, OUTSIDE}
