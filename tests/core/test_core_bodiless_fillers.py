"""A door or window (any element filling an opening) with no body of its own gets the body of the opening
it fills (pyagent/tessellate.py): it is drawn, counted, has a box, a storey, a host and sides. On the real
Allplan file (IFC2X, its 40 windows have no representation; skipped where the shared folder of public
buildings is absent), on the shipped duplex with fillers' bodies taken away, and the files whose fillers
all have bodies are left as they were."""

from __future__ import annotations

from pathlib import Path

import ifcopenshell
import ifcopenshell.util.element as uel
import numpy as np
import pytest
from core_ifc_facts import DUPLEX, FZK, ROOT

from pyagent import tessellate as tess
from pyagent.glb import read_glb
from pyagent.ifcfile import open_ifc
from pyagent.loader import LoadedBuilding, load
from pyagent.meshfacts import MeshFacts
from pyagent.spatial import SpatialIndex
from pyagent.tessellate import STAND_IN_RGBA, MeshSet, tessellate

SHARED = next((f / "shared" / "ifc" / "real" for f in ROOT.parents if (f / "shared" / "ifc" / "real").is_dir()),
              ROOT.parent / "shared" / "ifc" / "real")
SMILEY = SHARED / "allplan_Smiley-West_IFC2X.ifc"
needs_smiley = pytest.mark.skipif(not SMILEY.is_file(), reason="the shared folder of real buildings is absent")
TOL = 1e-3


def glb_names(path: Path) -> set[str]:
    doc, _ = read_glb(path)
    root = doc["nodes"][doc["scenes"][doc.get("scene", 0)]["nodes"][0]]
    return {doc["nodes"][i]["name"] for i in root["children"]}


def opening_and_host(filler: ifcopenshell.entity_instance) -> tuple[ifcopenshell.entity_instance, str]:
    (fill,) = filler.FillsVoids
    opening = fill.RelatingOpeningElement
    (void,) = opening.VoidsElements
    return opening, void.RelatingBuildingElement.GlobalId


@pytest.fixture(scope="module")
def smiley(tmp_path_factory: pytest.TempPathFactory) -> tuple[ifcopenshell.file, LoadedBuilding]:
    if not SMILEY.is_file():
        pytest.skip("the shared folder of real buildings is absent")
    return open_ifc(SMILEY, []), load(SMILEY, cache=tmp_path_factory.mktemp("cache"))


@needs_smiley
def test_allplan_windows_are_their_openings(smiley: tuple[ifcopenshell.file, LoadedBuilding]) -> None:
    model, lb = smiley
    b = lb.building
    windows = model.by_type("IfcWindow")
    assert len(windows) == 40 and all(w.Representation is None for w in windows)  # the premise: no bodies
    drawn = glb_names(lb.glb_path)
    index = lb.meshes.index()
    for w in windows:
        el = b.elements.get(w.GlobalId)
        assert el is not None and el.has_geometry and w.GlobalId in index and w.GlobalId in drawn, w.GlobalId
        size = el.bbox_max - el.bbox_min
        assert (size > 0.1).sum() >= 2 and size[2] > 0.3, (w.GlobalId, size)
        opening, host_id = opening_and_host(w)
        assert el.host == host_id
        host = b.elements[host_id]
        # within the wall its opening cuts: its box overlaps the wall's and lies inside it, give or take 5 cm
        assert np.all(el.bbox_min < host.bbox_max) and np.all(el.bbox_max > host.bbox_min), w.GlobalId
        assert np.all(el.bbox_min >= host.bbox_min - 0.05) and np.all(el.bbox_max <= host.bbox_max + 0.05)
        assert el.storey == uel.get_container(w).GlobalId
        assert el.sides and len(el.sides) == 2, (w.GlobalId, el.sides)
        assert tuple(round(c, 2) for c in el.color) == tuple(round(c, 2) for c in STAND_IN_RGBA["IfcWindow"])
    spatial = SpatialIndex.build(b, lb.meshes)
    assert int(spatial.class_mask(frozenset({"IfcWindow"})).sum()) == 40
    assert any("40 IfcWindow" in w and "openings they fill" in w for w in b.warnings)
    # the doors, which have bodies of their own, keep them
    doors = model.by_type("IfcDoor")
    assert doors and all(b.elements[d.GlobalId].color != b.elements[windows[0].GlobalId].color for d in doors)


@needs_smiley
def test_allplan_window_body_is_the_opening(smiley: tuple[ifcopenshell.file, LoadedBuilding]) -> None:
    """The window's mesh is the opening's mesh as the same kernel makes it."""
    model, lb = smiley
    w = model.by_type("IfcWindow")[0]
    opening, _ = opening_and_host(w)
    shape = ifcopenshell.geom.create_shape(tess._settings(), opening)
    ov = np.asarray(shape.geometry.verts, float).reshape(-1, 3) - lb.meshes.origin
    wv = lb.meshes.element(lb.meshes.index()[w.GlobalId])[0].astype(float)
    assert np.allclose(ov.min(axis=0), wv.min(axis=0), atol=TOL)
    assert np.allclose(ov.max(axis=0), wv.max(axis=0), atol=TOL)


def boxes(meshes: MeshSet) -> dict[str, tuple[tuple[float, ...], tuple[float, ...]]]:
    facts = MeshFacts.of(meshes)
    return {gid: (tuple(facts.bbox_min[i]), tuple(facts.bbox_max[i])) for i, gid in enumerate(meshes.ids)}


@pytest.mark.parametrize("path", [FZK, DUPLEX], ids=lambda p: p.name)
def test_files_whose_fillers_have_bodies_are_unchanged(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = ifcopenshell.open(str(path))
    fills = model.by_type("IfcRelFillsElement")
    assert fills and all(r.RelatedBuildingElement.Representation is not None for r in fills)
    meshes, warnings = tessellate(model, threads=1)
    monkeypatch.setattr(tess, "_fills", lambda _model: [])
    without, _ = tessellate(model, threads=1)
    assert sorted(meshes.ids) == sorted(without.ids) and len(set(meshes.ids)) == len(meshes.ids)
    assert boxes(meshes) == boxes(without)
    assert not any("openings they fill" in w for w in warnings)


def test_fillers_without_a_body_take_their_openings(tmp_path: Path) -> None:
    """Duplex with two windows' bodies taken away: one loses its representation (made in the first pass
    from its opening), the other keeps a representation with nothing to draw (made after both kernels fail),
    and a third filler of the first's opening shares it; each is drawn once, as its opening."""
    model = ifcopenshell.open(str(DUPLEX))
    fills = [r for r in model.by_type("IfcRelFillsElement") if r.RelatedBuildingElement.is_a("IfcWindow")]
    a, b = fills[0].RelatedBuildingElement, fills[1].RelatedBuildingElement
    a.Representation = None
    axis_only = model.createIfcShapeRepresentation(
        b.Representation.Representations[0].ContextOfItems, "Axis", "Curve2D",
        [model.createIfcPolyline([model.createIfcCartesianPoint((0.0, 0.0)),
                                  model.createIfcCartesianPoint((1.0, 0.0))])])
    b.Representation = model.createIfcProductDefinitionShape(None, None, [axis_only])
    door = next(r.RelatedBuildingElement for r in model.by_type("IfcRelFillsElement")
                if r.RelatedBuildingElement.is_a("IfcDoor"))
    door.Representation = None
    model.createIfcRelFillsElement(ifcopenshell.guid.new(), None, None, None, fills[0].RelatingOpeningElement, door)
    path = tmp_path / "bodiless.ifc"
    model.write(str(path))
    lb = load(path, cache=tmp_path / "cache")
    index = lb.meshes.index()
    assert len(index) == len(lb.meshes.ids)  # each element once
    for filler, rel in ((a, fills[0]), (b, fills[1])):
        el = lb.building.elements[filler.GlobalId]
        _, host = opening_and_host(filler)
        assert el.has_geometry and el.host == host
        shape = ifcopenshell.geom.create_shape(tess._settings(), rel.RelatingOpeningElement)
        ov = np.asarray(shape.geometry.verts, float).reshape(-1, 3) - lb.meshes.origin
        assert np.allclose(el.bbox_min, ov.min(axis=0), atol=TOL) and np.allclose(el.bbox_max, ov.max(axis=0), atol=TOL)
    # the door filling two openings (its own first) is drawn as its own opening only
    door_el = lb.building.elements[door.GlobalId]
    assert door_el.has_geometry and door_el.color != lb.building.elements[a.GlobalId].color
    assert any("2 IfcWindow" in w and "1 IfcDoor" in w for w in lb.building.warnings), lb.building.warnings
    assert not any("could not be tessellated" in w for w in lb.building.warnings)
