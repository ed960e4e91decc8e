"""The generated benchmark building: deterministic, the size it promises, and loadable like any IFC."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import ifcopenshell
import pytest
from core_ifc_facts import class_counts, space_of, storey_counts, storey_elevations
from core_support import pose

from pyagent.loader import load
from pyagent.model import OUTSIDE
from pyagent.session import Session
from pyagent.synth import ROOM, STOREY_H, SynthSpec, generate, synth_path

TINY = SynthSpec(storeys=2, nx=3, ny=2, furniture=2, seed=7)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Session]:
    cache = tmp_path_factory.mktemp("synth-cache")
    path = synth_path(TINY, cache=cache)
    return path, Session.open(path, cache=cache)


def test_same_seed_same_bytes_other_seed_other_file(tmp_path: Path) -> None:
    a, b = tmp_path / "a.ifc", tmp_path / "b.ifc"
    generate(TINY).write(str(a))
    generate(TINY).write(str(b))
    assert a.read_bytes() == b.read_bytes()
    c = tmp_path / "c.ifc"
    generate(SynthSpec(2, 3, 2, 2, seed=8)).write(str(c))
    assert c.read_bytes() != a.read_bytes()


def test_synth_path_is_cached(tmp_path: Path) -> None:
    p = synth_path(TINY, cache=tmp_path)
    assert p.parent == tmp_path / "synth" and p.is_file()
    stamp = p.stat().st_mtime_ns
    assert synth_path(TINY, cache=tmp_path) == p and p.stat().st_mtime_ns == stamp


def test_counts_from_ifcopenshell(tiny: tuple[Path, Session]) -> None:
    model = ifcopenshell.open(str(tiny[0]))
    assert model.schema == "IFC4"
    counts = class_counts(model)
    rooms = TINY.storeys * TINY.nx * TINY.ny
    spaces = len(model.by_type("IfcSpace"))
    assert spaces == counts["IfcSlab"] == rooms
    assert counts["IfcFurniture"] == rooms * TINY.furniture
    assert counts["IfcDoor"] == TINY.storeys * (TINY.nx * TINY.ny + TINY.nx - 1)
    assert counts["IfcWindow"] == TINY.storeys * (TINY.nx + 2 * TINY.ny)
    spatial = 2 + TINY.storeys  # site and building have no body; storeys neither
    assert sum(counts.values()) + spaces + spatial == TINY.element_count()
    elev = storey_elevations(model)
    assert sorted(elev.values()) == pytest.approx([k * STOREY_H for k in range(TINY.storeys)])
    per_storey = storey_counts(model)
    assert None not in per_storey and len(per_storey) == TINY.storeys


def test_default_spec_is_about_ten_thousand_elements() -> None:
    assert 9_000 <= SynthSpec().element_count() <= 11_000


def test_loads_through_the_loader(tiny: tuple[Path, Session]) -> None:
    path, s = tiny
    b = s.building
    model = ifcopenshell.open(str(path))
    assert len(b.elements) == TINY.element_count()
    assert Counter(e.ifc_class for e in b.products()) == class_counts(model)
    assert b.storey(b.ground_storey).name == "Level 0"
    for f in model.by_type("IfcFurniture"):
        assert b.elements[f.GlobalId].room == space_of(f)
    # Every inner door joins two rooms; the south row's doors open to the outside.
    for d in (e for e in b.products() if e.ifc_class == "IfcDoor"):
        assert len(d.sides) == 2, d.name
        if d.name.endswith("00") or d.name.endswith(f"{TINY.nx - 1:02d}00"):
            assert OUTSIDE in d.sides, d.name


def test_synth_queries_and_walks(tiny: tuple[Path, Session]) -> None:
    _, s = tiny
    # In room (1, 1) of level 0 facing south: its own door (x 4.4-5.3 at y 4) is straight ahead.
    s.set_pose(pose(1.5 * ROOM, 1.5 * ROOM, 1.6, -90))
    r = s.do({"steps": [{"op": "list", "target": {"class": ["IfcDoor"], "relations": [{"rel": "in_front"}],
                                                    "order": "nearest", "limit": 1}}]})
    assert r.ok and [s.building.elements[g].name for g in r.value] == ["Door 00101"]
    assert s.do({"steps": [{"op": "where_am_i"}]}).value.endswith("0101")
    r = s.do({"steps": [{"op": "route", "to": {"room": "00001"}}]})
    # From room (1,1) to room (0,1): south through its door, west through the south row, north again.
    assert r.ok and 2 * ROOM <= r.value <= 6 * ROOM, r.answer
    # Upstairs: the stair stands in room (0,0) of each storey but the top one.
    r = s.do({"steps": [{"op": "route", "to": {"room": "10201"}}]})
    assert r.ok and " 00000" in r.answer and " 10000" in r.answer, r.answer
    assert r.value > 2 * ROOM


def test_changed_file_is_not_a_stale_cache_hit(tmp_path: Path) -> None:
    spec = SynthSpec(storeys=1, nx=1, ny=1, furniture=1, seed=3)
    p = synth_path(spec, cache=tmp_path)
    assert load(p, cache=tmp_path).cached is False
    assert load(p, cache=tmp_path).cached is True
    p.write_bytes(p.read_bytes().replace(b"Synthetic grid 3", b"Synthetic grid 4"))
    lb = load(p, cache=tmp_path)
    assert lb.cached is False and lb.building.project_name == "Synthetic grid 4"
