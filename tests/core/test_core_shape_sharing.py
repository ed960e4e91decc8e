"""Repeated shapes tessellated once (``pyagent.shapekeys``): the meshes with sharing are the same element set,
with the same boxes (within 1e-6 m), triangle counts, colours and areas, as tessellating every product on
its own; products alike in everything but their placement are grouped, and a change to a copy's geometry
or style takes it out of its group. The glb writer takes the repeats of a first view as known."""

from __future__ import annotations

from pathlib import Path

import ifcopenshell
import ifcopenshell.guid
import ifcopenshell.util.element
import numpy as np
import pytest
from core_ifc_facts import DUPLEX, FZK, MINI

from pyagent.glb import _shapes
from pyagent.ifcfile import open_ifc
from pyagent.instancing import find_repeats
from pyagent.language.evaluate import real_dir
from pyagent.loader import _glb_parts, load
from pyagent.meshfacts import MeshFacts
from pyagent.shapekeys import group_by_shape
from pyagent.tessellate import MeshSet, _products, tessellate

REAL = real_dir()
TOYO = REAL / "tekla_TOYO_INK_Legkezelo.ifc" if REAL else None
#: Revit writes a material list of its own for each piece of furniture, naming the same materials.
REVIT = REAL / "revit2021_tested_sample_project.ifc" if REAL else None


def assert_same_meshes(old: MeshSet, new: MeshSet) -> None:
    assert sorted(old.ids) == sorted(new.ids)
    assert np.array_equal(old.origin, new.origin)
    # the same colours (the table's order follows which element came first, which a split pass changes)
    assert sorted(map(tuple, old.materials.tolist())) == sorted(map(tuple, new.materials.tolist()))
    fo, fn = MeshFacts.of(old), MeshFacts.of(new)
    io, inew = old.index(), new.index()
    a = np.array([io[g] for g in old.ids])
    b = np.array([inew[g] for g in old.ids])
    assert np.abs(fo.bbox_min[a] - fn.bbox_min[b]).max() <= 1e-6
    assert np.abs(fo.bbox_max[a] - fn.bbox_max[b]).max() <= 1e-6
    assert np.allclose(fo.area[a], fn.area[b], rtol=1e-5, atol=1e-9)
    for i, j in zip(a.tolist(), b.tolist(), strict=True):
        _, f_old, m_old = old.element(i)
        _, f_new, m_new = new.element(j)
        assert len(f_old) == len(f_new)
        colours_old = sorted(map(tuple, old.materials[m_old].tolist()))
        assert colours_old == sorted(map(tuple, new.materials[m_new].tolist()))


@pytest.mark.parametrize("path", [MINI, TOYO, REVIT], ids=["MiniProject", "TOYO", "Revit"])
def test_sharing_makes_the_same_meshes_as_tessellating_each(path: Path | None) -> None:
    if path is None or not path.is_file():
        pytest.skip("the shared real files are not here")
    model = open_ifc(path)
    copies = group_by_shape(model, _products(model))
    assert copies.placed > len(copies.first)  # most of these files' products are repeats
    old, old_warnings = tessellate(model, share=False)
    new, new_warnings = tessellate(model, share=True)
    assert old_warnings == new_warnings
    assert_same_meshes(old, new)


def _a_copy(model: ifcopenshell.file) -> tuple[ifcopenshell.entity_instance, ifcopenshell.entity_instance]:
    copies = group_by_shape(model, _products(model))
    first, placed = max(copies.copies.items(), key=lambda kv: len(kv[1]))
    return model.by_guid(first), model.by_guid(placed[0][0])


def _copy_shape(model: ifcopenshell.file, shape: ifcopenshell.entity_instance) -> ifcopenshell.entity_instance:
    """A copy of a product's representation, equal in value, styles included."""
    copied = ifcopenshell.util.element.copy_deep(model, shape)
    for rep, rep_copy in zip(shape.Representations, copied.Representations, strict=True):
        for item, item_copy in zip(rep.Items, rep_copy.Items, strict=True):
            for styled in item.StyledByItem:
                model.createIfcStyledItem(item_copy, styled.Styles, styled.Name)
    return copied


def _own_body(model: ifcopenshell.file, product: ifcopenshell.entity_instance) -> ifcopenshell.entity_instance:
    """Give ``product`` a representation of its own, equal in value to the one it shared."""
    product.Representation = _copy_shape(model, product.Representation)
    return product.Representation.Representations[0].Items[0]


def _group_of(model: ifcopenshell.file, product: ifcopenshell.entity_instance) -> str:
    copies = group_by_shape(model, _products(model))
    for first, placed in copies.copies.items():
        if product.GlobalId == first or product.GlobalId in {g for g, _ in placed}:
            return first
    return product.GlobalId


def test_equal_values_group_and_a_changed_copy_leaves_its_group() -> None:
    model = ifcopenshell.open(str(MINI))
    first, copy = _a_copy(model)
    item = _own_body(model, copy)
    assert item.is_a("IfcExtrudedAreaSolid")
    assert _group_of(model, copy) == first.GlobalId  # another entity, the same numbers: still a copy
    item.Depth = item.Depth + 0.5
    assert _group_of(model, copy) == copy.GlobalId


def test_a_styled_copy_leaves_its_group() -> None:
    model = ifcopenshell.open(str(MINI))
    first, copy = _a_copy(model)
    item = _own_body(model, copy)
    assert _group_of(model, copy) == first.GlobalId
    styles = next(s.Styles for s in model.by_type("IfcStyledItem"))
    model.createIfcStyledItem(item, styles, None)
    assert _group_of(model, copy) == copy.GlobalId


def test_material_lists_alike_group_until_one_names_another_material() -> None:
    if REVIT is None or not REVIT.is_file():
        pytest.skip("the shared real files are not here")
    model = ifcopenshell.open(str(REVIT))
    chairs = [p for p in model.by_type("IfcFurnishingElement") if "Chair-Breuer" in (p.Name or "")]
    own = [ifcopenshell.util.element.get_material(c, should_inherit=False) for c in chairs[:2]]
    assert own[0].is_a("IfcMaterialList") and own[0].id() != own[1].id()  # one list per chair
    assert _group_of(model, chairs[1]) == _group_of(model, chairs[0])
    own[1].Materials = (model.createIfcMaterial("Oak"), *own[1].Materials[1:])
    assert _group_of(model, chairs[1]) == chairs[1].GlobalId


def test_an_element_and_its_copy_group_until_the_copy_s_opening_moves() -> None:
    model = ifcopenshell.open(str(FZK))
    rel = next(r for r in model.by_type("IfcRelVoidsElement") if r.RelatingBuildingElement.is_a("IfcWall"))
    wall, opening = rel.RelatingBuildingElement, rel.RelatedOpeningElement
    # another wall with a representation and placement of its own, equal to the wall's; the same material
    # and type
    twin = ifcopenshell.util.element.copy_deep(model, wall, exclude=["IfcProductDefinitionShape"])
    twin.Representation = _copy_shape(model, wall.Representation)
    for r in [*model.by_type("IfcRelAssociatesMaterial"), *model.by_type("IfcRelDefinesByType")]:
        if wall in r.RelatedObjects:
            r.RelatedObjects = (*r.RelatedObjects, twin)
    twin_opening = ifcopenshell.util.element.copy_deep(model, opening)
    model.createIfcRelVoidsElement(ifcopenshell.guid.new(), rel.OwnerHistory, None, None, twin, twin_opening)
    assert _group_of(model, twin) == wall.GlobalId
    location = twin_opening.ObjectPlacement.RelativePlacement.Location
    location.Coordinates = (location.Coordinates[0] + 0.3, *location.Coordinates[1:])
    assert _group_of(model, twin) == twin.GlobalId


@pytest.mark.parametrize("path", [FZK, DUPLEX], ids=["FZK", "duplex"])
def test_known_repeats_of_a_first_part_are_the_ones_found(path: Path, tmp_path: Path) -> None:
    lb = load(path, cache=tmp_path)
    parts = _glb_parts(lb.building, lb.meshes)
    whole, _ = _shapes(parts, True)
    expected = find_repeats(whole)
    assert not expected.written().all()
    for k in (0, len(parts) // 3, len(parts)):
        first, _ = _shapes(parts[:k], True)
        got = find_repeats(whole, known=find_repeats(first))
        assert np.array_equal(got.source, expected.source)
        assert [t is None for t in got.turns] == [t is None for t in expected.turns]
