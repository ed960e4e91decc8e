"""Products that draw the same shape, found from the IFC before any tessellation.

Two products get the same key when everything the geometry kernel reads to make their meshes, apart
from where each product is placed, is the same: their representations (every item, cut, profile,
mapped item and context, compared by value, so a beam written twice with the same numbers is the same
beam; explicit meshes by identity, see ``_BY_IDENTITY``), the styles and styled layers on those items,
the product's material (and its type's: a list of materials or a layer set's usage by value, which
exporters write one per product, a material itself by identity), and each opening's shape and placement
relative to the product. A product's world mesh is then its placement times the same local mesh, so it is the mesh of
the first product with its key moved by ``placement(copy) @ inverse(placement(first))``: tessellated
once, placed many times.

Products the kernel may treat otherwise are given no key (tessellated on their own): those whose
placement (or an opening's) is not a chain of local placements or lies absurdly far out, those with
projections, and parts of an element with openings.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import ifcopenshell
import ifcopenshell.util.unit
import numpy as np

from pyagent.placements import Placements

# Relative opening placements are compared rounded to this many decimals (file units): float64 noise
# in composing placements of a few kilometres in millimetres is some 1e-12.
_DECIMALS = 9
_REF = re.compile(rb"#(\d+)")
# Placements this far out (file units) are left to the kernel, which refuses what it cannot represent.
_FAR = 1e12
# Explicit meshes are compared by identity, not value: a file repeats one through a representation map
# (the same entity), and reading every point of every mesh would take longer than tessellating them.
_BY_IDENTITY = frozenset({
    "IfcFacetedBrep", "IfcFacetedBrepWithVoids", "IfcAdvancedBrep", "IfcAdvancedBrepWithVoids",
    "IfcTriangulatedFaceSet", "IfcPolygonalFaceSet", "IfcShellBasedSurfaceModel", "IfcFaceBasedSurfaceModel",
    "IfcTriangulatedIrregularNetwork", "IfcClosedShell", "IfcOpenShell", "IfcConnectedFaceSet",
    "IfcCartesianPointList3D"})


@dataclass
class Copies:
    """Products grouped by shape: ``first[i]`` is tessellated; ``copies[first gid]`` lists the products
    drawn from its mesh, each with the 4x4 matrix (metres, float64) that moves the first's world mesh
    onto it."""

    first: list[Any] = field(default_factory=list)
    copies: dict[str, list[tuple[str, np.ndarray]]] = field(default_factory=dict)

    @property
    def placed(self) -> int:
        return sum(len(c) for c in self.copies.values())


class _Digests:
    """Value digests of entities: an entity's STEP text with every reference replaced by the referenced
    entity's digest (so equal numbers in different entities compare equal), plus the styles on it."""

    def __init__(self, model: ifcopenshell.file) -> None:
        self._model = model
        self._memo: dict[int, bytes] = {}
        # styles and styled layers reach a mesh through inverse relations; their own attributes lead
        # back to the item, so only the styles are compared (a styled layer by identity)
        self._extra: dict[int, list[bytes]] = {}
        for styled in model.by_type("IfcStyledItem"):
            if styled.Item is not None:
                self._extra.setdefault(styled.Item.id(), []).append(self._text(styled.Styles))
        for layer in model.by_type("IfcPresentationLayerWithStyle"):
            for item in layer.AssignedItems or ():
                self._extra.setdefault(item.id(), []).append(b"layer %d" % layer.id())

    def _text(self, value: Any) -> bytes:
        return _REF.sub(self._ref, str(value).encode())

    def _ref(self, m: re.Match[bytes]) -> bytes:
        return self.of(self._model.by_id(int(m.group(1)))).hex().encode()

    def of(self, e: ifcopenshell.entity_instance) -> bytes:
        key = e.id()
        got = self._memo.get(key)
        if got is not None:
            return got
        if e.is_a() in _BY_IDENTITY:
            digest = self._memo[key] = b"#%d" % key
            return digest
        text = str(e).encode()
        text = _REF.sub(self._ref, text[text.index(b"=") + 1:] if text.startswith(b"#") else text)
        extra = self._extra.get(key)
        if extra:
            text += b"|" + b"|".join(sorted(extra))
        digest = hashlib.blake2b(text, digest_size=16).digest()
        self._memo[key] = digest
        return digest


def _placement(p: Any, memo: Any) -> np.ndarray | None:
    """The 4x4 placement (file units) of an IfcLocalPlacement chain, or None for any other placement."""
    if p is None or not p.is_a("IfcLocalPlacement"):
        return None
    try:
        return memo.of(p)
    except (AttributeError, RuntimeError, TypeError, ValueError):  # a grid placement up the chain
        return None


def _by_type(model: ifcopenshell.file, name: str) -> list[Any]:
    try:
        return list(model.by_type(name))
    except RuntimeError:  # not in this schema
        return []


class _Relations:
    """What the kernel reads about a product besides its representation, by product id, read once."""

    def __init__(self, model: ifcopenshell.file) -> None:
        self.openings: dict[int, list[Any]] = {}
        for rel in _by_type(model, "IfcRelVoidsElement"):
            self.openings.setdefault(rel.RelatingBuildingElement.id(), []).append(rel.RelatedOpeningElement)
        self.projected = {rel.RelatingElement.id() for rel in _by_type(model, "IfcRelProjectsElement")}
        self.parts_of_cut = {o.id() for rel in _by_type(model, "IfcRelAggregates")
                             if rel.RelatingObject.id() in self.openings for o in rel.RelatedObjects}
        own: dict[int, list[bytes]] = {}
        said: dict[int, bytes] = {}
        for rel in _by_type(model, "IfcRelAssociatesMaterial"):
            material = rel.RelatingMaterial
            text = said.get(material.id())
            if text is None:
                text = said[material.id()] = _material_text(material)
            for o in rel.RelatedObjects:
                own.setdefault(o.id(), []).append(text)
        typed: dict[int, int] = {}
        for rel in _by_type(model, "IfcRelDefinesByType"):
            for o in rel.RelatedObjects:
                typed[o.id()] = rel.RelatingType.id()
        self.materials: dict[int, tuple[bytes, ...]] = {k: tuple(v) for k, v in own.items()}
        for obj, typ in typed.items():
            self.materials[obj] = (*self.materials.get(obj, ()), b"type", *own.get(typ, ()))


def _material_text(material: ifcopenshell.entity_instance) -> bytes:
    """What the kernel reads of a product's material, to compare products by: a material by identity (its
    colour comes from styles that point at it), anything else (a list of materials, a layer set's usage: an
    exporter writes one per product) by its own STEP text, which names what it refers to by identity."""
    if material.is_a("IfcMaterial"):
        return b"#%d" % material.id()
    text = str(material).encode()
    return text[text.index(b"=") + 1:] if text.startswith(b"#") else text


def group_by_shape(model: ifcopenshell.file, products: Iterable[Any], places: Placements | None = None) -> Copies:
    """Group ``products`` (each with a representation) by the shape they draw (see the module's doc);
    ``places``: world placements worked out so far (filled in here for the ingest to use)."""
    products = list(products)
    rels = _Relations(model)
    # only products that may have a twin are compared by value: a representation's entity count
    # (found without leaving the library) and the number of openings sift out most others
    sizes = [(p.is_a(), len(rels.openings.get(p.id(), ()))) for p in products]
    twins = {k for k, n in Counter(sizes).items() if n > 1}
    scale = float(ifcopenshell.util.unit.calculate_unit_scale(model))
    digests = _Digests(model)
    places = places if places is not None else Placements()
    out = Copies()
    first_of: dict[bytes, tuple[str, np.ndarray]] = {}
    for p, size in zip(products, sizes, strict=True):
        key = place = None
        pid = p.id()
        if size in twins and pid not in rels.projected and pid not in rels.parts_of_cut:
            place = _placement(p.ObjectPlacement, places)
            if place is not None and float(np.abs(place).max()) < _FAR:
                key = _key(p, place, digests, places, rels)
        if key is None or place is None:
            out.first.append(p)
            continue
        place_m = place.copy()
        place_m[:3, 3] *= scale
        if key not in first_of:
            first_of[key] = (p.GlobalId, place_m)
            out.first.append(p)
            continue
        gid, first_place = first_of[key]
        out.copies.setdefault(gid, []).append((p.GlobalId, place_m @ np.linalg.inv(first_place)))
    return out


def _key(p: Any, place: np.ndarray, digests: _Digests, places: Any, rels: _Relations) -> bytes | None:
    parts: list[Any] = [p.is_a(), digests.of(p.Representation), rels.materials.get(p.id(), ()),
                        bool(np.linalg.det(place[:3, :3]) > 0)]
    inv = None
    for opening in rels.openings.get(p.id(), ()):
        o_place = _placement(opening.ObjectPlacement, places)
        if o_place is None or float(np.abs(o_place).max()) >= _FAR:
            return None
        inv = np.linalg.inv(place) if inv is None else inv
        rel_place = np.round(inv @ o_place, _DECIMALS) + 0.0  # no -0.0
        rep = digests.of(opening.Representation) if opening.Representation is not None else b""
        parts.append((rep, rel_place.tobytes()))
    # openings are subtracted together: their order does not matter
    head, openings = parts[:4], sorted(parts[4:])
    return hashlib.blake2b(repr([*head, *openings]).encode(), digest_size=16).digest()
