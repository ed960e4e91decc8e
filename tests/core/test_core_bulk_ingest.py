"""The bulk ingest gives what the per-element lookups gave: the relationship index (``Relations``)
against ``ifcopenshell.util.element`` for every product and type, the shared placements against
``util.placement``, the vectorised mesh facts against a per-element computation, and the building's
relation-derived fields against the same lookups made one element at a time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ifcopenshell
import ifcopenshell.util.element as uel
import ifcopenshell.util.placement as upl
import numpy as np
import pytest
from core_ifc_facts import DUPLEX, FZK, MINI, ROOT
from core_support import Loaded

from pyagent.ingest import _definitions, _placement_axes, _PropertyMemo, _psets, _spatial_parent
from pyagent.meshfacts import MeshFacts
from pyagent.placements import Placements
from pyagent.relations import Relations
from pyagent.tessellate import MeshSet

SHARED = next((f / "shared" / "ifc" / "real" for f in ROOT.parents if (f / "shared" / "ifc" / "real").is_dir()),
              ROOT.parent / "shared" / "ifc" / "real")
# Small public files of other schemas and authoring tools (IFC4, IFC4X3, Revit, Tekla), where present.
REAL = ("ifcopenshell_IfcOpenHouse_IFC4.ifc", "revit2021_tested_sample_project.ifc", "tekla_TOYO_INK_Legkezelo.ifc",
        "ifc4x3_linear-placement-of-signal.ifc", "bonsai_project0-openings.ifc", "ifcsverchok_Facades.ifc")
FILES = [FZK, DUPLEX, MINI] + [SHARED / n for n in REAL if (SHARED / n).is_file()]


def _ids(entities: Any) -> list[int]:
    return [e.id() for e in entities or ()]


def _id(entity: Any) -> int | None:
    return None if entity is None else entity.id()


@pytest.fixture(scope="module", params=FILES, ids=lambda p: p.name)
def model(request: pytest.FixtureRequest) -> ifcopenshell.file:
    return ifcopenshell.open(str(request.param))


def test_relations_match_util_element(model: ifcopenshell.file) -> None:
    rels = Relations.of(model)
    objects = model.by_type("IfcProduct") + model.by_type("IfcTypeObject")
    assert objects
    for obj in objects:
        what = f"{obj.is_a()} #{obj.id()}"
        if not obj.is_a("IfcTypeObject"):
            assert _id(rels.type_of(obj)) == _id(uel.get_type(obj)), what
            assert _id(rels.container(obj)) == _id(uel.get_container(obj)), what
            assert _id(rels.parent(obj)) == _id(uel.get_parent(obj)), what
        assert _id(rels.aggregate.get(obj.id())) == _id(uel.get_aggregate(obj)), what
        assert _id(rels.material_of(obj)) == _id(uel.get_material(obj, should_skip_usage=True)), what
        assert _ids(rels.materials(obj)) == _ids(uel.get_materials(obj)), what
        assert _ids(rels.fills.get(obj.id())) == _ids(r.RelatingOpeningElement for r in
                                                      getattr(obj, "FillsVoids", None) or ()), what
        assert _ids(rels.voids.get(obj.id())) == _ids(r.RelatingBuildingElement for r in
                                                      getattr(obj, "VoidsElements", None) or ()), what


def test_property_sets_match_util_element(model: ifcopenshell.file) -> None:
    rels = Relations.of(model)
    memo = _PropertyMemo()
    for product in model.by_type("IfcProduct"):
        got = _psets(_definitions(product, rels.type_of(product), rels), memo)
        want = uel.get_psets(product)
        # util.element keeps the sets' entity ids under "id" (the occurrence's over the type's)
        assert {k: {n: v for n, v in d.items() if n != "id"} for k, d in got.items()} == \
            {k: {n: v for n, v in d.items() if n != "id"} for k, d in want.items()}, product
        # order matters: the first set naming a property gives its bare name
        assert list(got) == list(want), product
        assert [list(d) for d in got.values()] == [list(d) for d in want.values()], product


def _old_spatial_parent(product: Any) -> Any | None:
    """The per-element lookup ``ingest`` made before the bulk index (the reference)."""
    current, seen = product, 0
    while current is not None and seen < 16:
        container = uel.get_container(current)
        if container is not None:
            return container
        whole = uel.get_aggregate(current)
        if whole is None:
            fills = getattr(current, "FillsVoids", None) or ()
            voids = getattr(current, "VoidsElements", None) or ()
            if fills:
                current = fills[0].RelatingOpeningElement
            elif voids:
                current = voids[0].RelatingBuildingElement
            else:
                return None
        else:
            if whole.is_a() in ("IfcSite", "IfcBuilding", "IfcBuildingStorey", "IfcSpace"):
                return whole
            current = whole
        seen += 1
    return None


def test_spatial_parents_and_placements_match(model: ifcopenshell.file) -> None:
    rels = Relations.of(model)
    memo = Placements()
    for product in model.by_type("IfcProduct"):
        assert _id(_spatial_parent(product, rels)) == _id(_old_spatial_parent(product)), product
        placement = getattr(product, "ObjectPlacement", None)
        if placement is not None and placement.is_a("IfcLocalPlacement"):
            # the same numbers to the last bit, not merely close ones
            assert np.array_equal(_placement_axes(product, memo), upl.get_local_placement(placement)), product


def _reference_facts(meshes: MeshSet, i: int) -> tuple[np.ndarray, np.ndarray, float, float, int]:
    v, f, fm = meshes.element(i)
    tris = v[f]
    a, b, c = tris[:, 0].astype(float), tris[:, 1].astype(float), tris[:, 2].astype(float)
    area = 0.5 * float(np.linalg.norm(np.cross(b - a, c - a), axis=1).sum())
    volume = abs(float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum()) / 6.0)
    uniq, counts = np.unique(fm, return_counts=True)
    return v.min(axis=0).astype(float), v.max(axis=0).astype(float), area, volume, int(uniq[counts.argmax()])


@pytest.mark.parametrize("name", ["fzk", "duplex", "mini"])
def test_mesh_facts_match_per_element(name: str, request: pytest.FixtureRequest,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: Loaded = request.getfixturevalue(name)
    meshes = loaded.loaded.meshes
    monkeypatch.setattr("pyagent.meshfacts.CHUNK_FACES", 1000)  # many chunks, elements across their edges
    facts = MeshFacts.of(meshes)
    assert len(facts.area) == len(meshes.ids) > 0
    for i in range(len(meshes.ids)):
        bmin, bmax, area, volume, colour = _reference_facts(meshes, i)
        assert np.array_equal(facts.bbox_min[i], bmin) and np.array_equal(facts.bbox_max[i], bmax)
        assert facts.area[i] == area and facts.volume[i] == volume  # exactly: same sums over the same slices
        assert facts.colour[i] == colour


@pytest.mark.parametrize("name", ["fzk", "duplex", "mini"])
def test_building_fields_match_per_element_lookups(name: str, request: pytest.FixtureRequest) -> None:
    loaded: Loaded = request.getfixturevalue(name)
    model, building = loaded.model, loaded.loaded.building
    checked = 0
    for product in model.by_type("IfcProduct"):
        el = building.elements.get(product.GlobalId)
        if el is None:
            continue
        type_obj = uel.get_type(product)
        assert el.type_name == ((type_obj.Name or "").strip() if type_obj is not None else ""), product
        want: dict[str, Any] = {}
        for pset, values in uel.get_psets(product).items():
            for key, value in values.items():
                if key != "id" and isinstance(value, (int, float, str, bool)):
                    want[f"{pset}.{key}"] = value
                    want.setdefault(key, value)
        assert {k: v for k, v in el.properties.items() if k != "PredefinedType"} == \
            {k: v for k, v in want.items() if k != "PredefinedType"}, product
        names: list[str] = []
        for m in uel.get_materials(product):
            n = (m.Name or "").strip()
            if n and n not in names:
                names.append(n)
        assert el.materials == names, product
        spatial = el.is_spatial or product.is_a("IfcSpatialStructureElement")
        parent = _old_spatial_parent(product) if not spatial else uel.get_aggregate(product)
        assert el.parent == (parent.GlobalId if parent is not None else None), product
        checked += 1
    assert checked == len(building.elements)


def test_files_listed_exist() -> None:
    assert all(Path(p).is_file() for p in FILES)
