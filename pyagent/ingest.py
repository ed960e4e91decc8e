"""IFC ingest: an ifcopenshell model plus its meshes become a ``Building`` of plain records."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import ifcopenshell
import ifcopenshell.util.element as uel
import ifcopenshell.util.placement as upl
import ifcopenshell.util.unit as uunit
import numpy as np

from pyagent.meshfacts import MeshFacts, plan_extents
from pyagent.model import NON_BODY_IDENTIFIERS, OUTSIDE, SPATIAL_CLASSES, Building, Element, Storey
from pyagent.placements import Placements
from pyagent.relations import Relations
from pyagent.review.site import site_location
from pyagent.roomfinder import RoomFinder
from pyagent.tessellate import SKIPPED_CLASSES, MeshSet
from pyagent.vocabulary import class_ancestors, covering_class_named

# Quantity names (from quantity sets and common vendor property sets) mapped onto canonical keys.
QUANTITY_KEYS: dict[str, tuple[str, ...]] = {
    "area": ("NetFloorArea", "GrossFloorArea", "NetFootprintArea", "GrossFootprintArea", "NetSideArea",
             "GrossSideArea", "NetArea", "GrossArea",
             "Area", "NetSurfaceArea", "GrossSurfaceArea", "OuterSurfaceArea"),
    "volume": ("NetVolume", "GrossVolume", "Volume"),
    "length": ("Length",),
    "perimeter": ("GrossPerimeter", "NetPerimeter", "Perimeter"),
}


_OPENINGS = ("IfcWindow", "IfcDoor")
#: Classes whose area, where the file records none, is one face of them (a slab's top, a wall's side).
_ONE_FACE = ("IfcWall", "IfcSlab", "IfcCovering", "IfcRoof", "IfcPlate")


def quantity_scales(model: ifcopenshell.file, length_scale: float) -> dict[str, float]:
    """Factors from the project's units to metres, m² and m³ for the canonical quantity keys. An area or
    volume unit the project declares is used as declared; otherwise it follows the length unit."""
    declared: set[str] = set()
    projects = model.by_type("IfcProject")
    units = projects[0].UnitsInContext if projects else None
    for unit in (units.Units if units is not None else ()):
        declared.add(str(getattr(unit, "UnitType", "")))
    area = float(uunit.calculate_unit_scale(model, "AREAUNIT")) if "AREAUNIT" in declared else length_scale ** 2
    volume = float(uunit.calculate_unit_scale(model, "VOLUMEUNIT")) if "VOLUMEUNIT" in declared \
        else length_scale ** 3
    return {"area": area, "volume": volume, "length": length_scale, "perimeter": length_scale}


def _whole_classes(model: ifcopenshell.file, elements: dict[str, Element]) -> None:
    """Parts of a whole that has no body of its own (an IfcRoof made of slabs, an IfcStair of flights,
    an IfcCurtainWall of plates) take the whole's class as ``whole_class``, so that "hide the roof" finds
    them. Spatial wholes (storeys, buildings) do not count."""
    for rel in model.by_type("IfcRelAggregates"):
        whole = rel.RelatingObject
        if whole is None or not whole.is_a("IfcElement") or whole.GlobalId in elements:
            continue
        for part in rel.RelatedObjects or ():
            el = elements.get(part.GlobalId)
            if el is not None and el.whole_class is None:
                el.whole_class, el.whole = whole.is_a(), whole.GlobalId


def _placement_axes(product: Any, memo: Placements | None = None) -> np.ndarray:
    """The product's world placement as a 4x4 matrix (identity when it has none); ``memo`` keeps the
    placements already computed."""
    placement = getattr(product, "ObjectPlacement", None)
    if placement is None:
        return np.eye(4)
    try:
        if memo is not None and placement.is_a("IfcLocalPlacement"):
            return memo.of(placement).copy()
        return np.asarray(upl.get_local_placement(placement), dtype=float)
    except (RuntimeError, TypeError, AttributeError, ValueError):
        return np.eye(4)


def _spatial_parent(product: Any, rels: Relations) -> Any | None:
    """The spatial element that holds a product: its container, or its whole's container."""
    seen = 0
    current = product
    while current is not None and seen < 16:
        container = rels.container(current)
        if container is not None:
            return container
        whole = rels.aggregate.get(current.id())
        if whole is None:
            # openings and fillings: a door fills an opening that voids a wall
            filled = rels.fills.get(current.id()) or rels.voids.get(current.id())
            if not filled:
                return None
            current = filled[0]
        else:
            if whole.is_a() in SPATIAL_CLASSES:
                return whole
            current = whole
        seen += 1
    return None


def _definition(definition: Any, memo: dict[int, tuple[str, dict[str, Any]]]) -> tuple[str, dict[str, Any]]:
    """The name and properties of one property set or quantity set, read once however many elements
    share it."""
    key = definition.id()
    got = memo.get(key)
    if got is None:
        got = memo[key] = (definition.Name, uel.get_property_definition(definition))
    return got


@dataclass
class _PropertyMemo:
    """What reading properties found already: each set by entity id, and the flat properties of each
    combination of a type's sets and an occurrence's (many elements share both)."""

    sets: dict[int, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    flat: dict[tuple[int, ...], dict[str, Any]] = field(default_factory=dict)


def _psets(definitions: Iterable[Any], memo: _PropertyMemo) -> dict[str, dict[str, Any]]:
    """``ifcopenshell.util.element.get_psets`` of these sets in turn (a type's, then the occurrence's over
    them), with every set read once."""
    psets: dict[str, dict[str, Any]] = {}
    for definition in definitions:
        name, values = _definition(definition, memo.sets)
        psets.setdefault(name, {}).update(values)
    return psets


def _definitions(product: Any, type_obj: Any | None, rels: Relations) -> list[Any]:
    """The property and quantity sets of an element: its type's, then its own."""
    return [*((getattr(type_obj, "HasPropertySets", None) or ()) if type_obj is not None else ()),
            *rels.definitions.get(product.id(), ())]


def _flat_properties(product: Any, type_obj: Any | None, rels: Relations, memo: _PropertyMemo) -> dict[str, Any]:
    """Every property of the element as "Set.Name" and, the first of that name, as "Name" (a new dict)."""
    try:
        definitions = _definitions(product, type_obj, rels)
        key = tuple(d.id() for d in definitions)
        got = memo.flat.get(key)
        if got is None:
            got = memo.flat[key] = _flatten(_psets(definitions, memo))
    except (RuntimeError, AttributeError, TypeError):
        return {}
    return dict(got)


def _flatten(psets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for pset, values in psets.items():
        for key, value in values.items():
            if key == "id" or value is None:
                continue
            if isinstance(value, (int, float, str, bool)):
                props[f"{pset}.{key}"] = value
                props.setdefault(key, value)
    return props


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _materials(product: Any, rels: Relations, memo: dict[int, list[str]]) -> list[str]:
    """Names of the product's materials (its own or its type's), each material set's read once."""
    material = rels.material_of(product)
    if material is None:
        return []
    got = memo.get(material.id())
    if got is None:
        try:
            mats = rels.materials(product)
        except (RuntimeError, AttributeError, TypeError):
            mats = []
        got = []
        for m in mats:
            name = _text(getattr(m, "Name", None))
            if name and name not in got:
                got.append(name)
        memo[material.id()] = got
    return list(got)


def _true_north(model: ifcopenshell.file) -> float:
    for ctx in model.by_type("IfcGeometricRepresentationContext"):
        if ctx.is_a("IfcGeometricRepresentationSubContext"):
            continue
        tn = getattr(ctx, "TrueNorth", None)
        if tn is not None and tn.DirectionRatios and len(tn.DirectionRatios) >= 2:
            x, y = float(tn.DirectionRatios[0]), float(tn.DirectionRatios[1])
            if abs(x) + abs(y) > 1e-9:
                return math.degrees(math.atan2(y, x)) % 360.0
    return 90.0


def _switched_off(model: ifcopenshell.file) -> set[int]:
    """Ids of the representations and items assigned to a presentation layer that is switched off."""
    off: set[int] = set()
    for layer in model.by_type("IfcPresentationLayerWithStyle"):
        if layer.LayerOn is False:
            off.update(x.id() for x in layer.AssignedItems or ())
    return off


def _hidden_in_file(product: Any, off: set[int]) -> bool:
    """Whether every body representation of ``product`` (or every item of it) is on a layer switched off."""
    if not off:  # most files switch no layer off
        return False
    shape = getattr(product, "Representation", None)
    if shape is None:
        return False
    reps = [r for r in shape.Representations or ()
            if r.is_a("IfcShapeRepresentation") and (r.RepresentationIdentifier or "Body") not in NON_BODY_IDENTIFIERS]
    return bool(reps) and all(r.id() in off or (r.Items and all(i.id() in off for i in r.Items)) for r in reps)


FOUNDATIONS = ("IfcFooting", "IfcPile", "IfcDeepFoundation", "IfcEarthworks")
LEVEL_TOLERANCE_M = 0.5  # a storey without a level keeps 0 m unless its contents are clearly elsewhere


def _storeys(model: ifcopenshell.file, scale: float) -> tuple[list[Storey], set[str]]:
    """The storeys, lowest first, and the ids of those whose file gives no level (no placement height and
    no Elevation): their level is derived from their contents later."""
    found: list[Storey] = []
    unknown: set[str] = set()
    named: set[str] = set()
    for s in model.by_type("IfcBuildingStorey"):
        m = _placement_axes(s)
        z = float(m[2, 3]) * scale  # placements are in the file's length unit
        if abs(z) < 1e-9:
            if s.Elevation is not None:
                z = float(s.Elevation) * scale
            else:
                unknown.add(s.GlobalId)
        found.append(Storey(id=s.GlobalId, name=_text(s.Name), elevation=z,
                            long_name=_text(getattr(s, "LongName", None))))
    _order(found, named)
    return found, unknown


# A storey below the reference level counts this much further from it than one above: a floor a few
# centimetres below zero (a finished floor under the structural level) is the ground floor, but a
# half-sunk basement loses to a raised ground floor at a similar distance above.
BELOW_ZERO_WEIGHT = 2.0


def ground_storey(storeys: list[Storey]) -> str | None:
    """The storey a person calls the ground floor: the one whose level is nearest the building's
    reference level (0 m), those below it counting double. A building whose storeys all lie far above
    or below (levels given above sea level) gets its storey nearest that reference, i.e. its lowest or
    highest one; ``None`` without storeys."""
    if not storeys:
        return None
    return min(storeys, key=lambda st: st.elevation if st.elevation >= 0 else -st.elevation * BELOW_ZERO_WEIGHT).id


def _order(storeys: list[Storey], derived: set[str]) -> None:
    """Sort by level, number them, set each one's top, and name the unnamed by their level (``derived``:
    the names given so, renamed when the level changes)."""
    storeys.sort(key=lambda st: st.elevation)
    for i, st in enumerate(storeys):
        st.index = i
        st.top = storeys[i + 1].elevation if i + 1 < len(storeys) else math.inf
        if not st.name or st.name in derived:
            st.name = st.long_name or f"level {st.elevation:.2f} m"
            derived.add(st.name)


def _levels_from_contents(storeys: list[Storey], unknown: set[str], elements: dict[str, Element]) -> None:
    """Storeys without a level in the file get the lowest point of what they contain, foundations left
    out (a house's footing reaches 2 m into the ground; its floor is where its walls start) unless
    that is all they contain."""
    if not unknown:
        return
    lowest: dict[str, float] = {}
    deepest: dict[str, float] = {}
    for el in elements.values():
        if el.storey in unknown and el.has_geometry and not el.is_spatial:
            into = deepest if el.ifc_class.startswith(FOUNDATIONS) else lowest
            into[el.storey] = min(into.get(el.storey, math.inf), float(el.bbox_min[2]))
    lowest = deepest | lowest
    changed = False
    for st in storeys:
        if st.id in lowest and abs(lowest[st.id] - st.elevation) > LEVEL_TOLERANCE_M:
            st.elevation = round(lowest[st.id], 6)
            changed = True
    if changed:
        _order(storeys, {st.name for st in storeys if st.name.startswith("level ")})


def _plan_x(axes: np.ndarray) -> tuple[float, float]:
    """The placement's X axis in plan, as a unit vector (X itself where the axis is vertical)."""
    x, y = float(axes[0, 0]), float(axes[1, 0])
    n = float(np.hypot(x, y))
    return (x / n, y / n) if n > 1e-9 else (1.0, 0.0)


def _dims_of_meshes(meshes: MeshSet, facts: MeshFacts, placed: list[tuple[Element, int, np.ndarray]]) -> None:
    """Each element's dims from its mesh (``placed``: element, mesh index, placement), all at once: width along
    the placement's X axis, depth along Y (both in plan), height along world Z; ``OverallHeight`` /
    ``OverallWidth`` already in its dims win."""
    x_axes = np.tile([1.0, 0.0], (len(meshes.ids), 1))
    for _el, mi, axes in placed:
        x_axes[mi] = _plan_x(axes)
    extents = plan_extents(meshes, x_axes).tolist()
    heights = (facts.bbox_max[:, 2] - facts.bbox_min[:, 2]).tolist()
    for el, mi, _axes in placed:
        width, depth = extents[mi]
        el.dims = {"width": width, "depth": depth, "height": heights[mi]} | el.dims


def _plan_axes(el: Element, axes: np.ndarray, meshes: MeshSet, mesh_index: dict[str, int]) -> np.ndarray:
    """Unit vector in plan through the element (across a wall or through a door)."""
    if el.ifc_class.startswith(("IfcDoor", "IfcWindow")):
        y = axes[:3, 1].copy()
        y[2] = 0.0
        if np.linalg.norm(y) > 1e-6:
            return y / np.linalg.norm(y)
    v = meshes.element(mesh_index[el.id])[0][:, :2].astype(float)
    cov = np.cov((v - v.mean(axis=0)).T) if len(v) > 2 else np.eye(2)
    w, vecs = np.linalg.eigh(cov)
    thin = vecs[:, 0]  # smallest spread: across the wall
    return np.array([thin[0], thin[1], 0.0])


@dataclass
class _SideProbes:
    """Points just beyond both faces of a door, window or wall (``_side_probes``): the first half beyond
    the face its plan axis points to, the second beyond the other."""

    element: Element
    across: np.ndarray
    points: np.ndarray  # (2 * n, 3)


def _side_probes(el: Element, axes: np.ndarray, meshes: MeshSet, mesh_index: dict[str, int]) -> _SideProbes:
    across = _plan_axes(el, axes, meshes, mesh_index)
    along = np.array([-across[1], across[0], 0.0])
    v = meshes.element(mesh_index[el.id])[0].astype(float)
    c = el.centre
    half_t = 0.5 * float(np.ptp(v @ across)) if len(v) else 0.1
    half_l = 0.5 * float(np.ptp(v @ along)) if len(v) else 0.5
    reach = {1.0: half_t, -1.0: half_t}  # from the centre to each face
    if el.host is not None and el.host in mesh_index:  # a door set flush with one face of a thick wall: its wall's
        wall = meshes.element(mesh_index[el.host])[0].astype(float) - c  # faces, not its own
        near = (wall @ across)[np.abs(wall @ along) <= half_l + 0.5]
        if len(near):
            reach = {1.0: max(half_t, float(near.max())), -1.0: max(half_t, -float(near.min()))}
    z = float(el.bbox_min[2]) + min(1.0, 0.5 * float(el.bbox_max[2] - el.bbox_min[2]))
    is_wall = el.ifc_class.startswith(("IfcWall", "IfcCurtainWall"))
    fractions = (-0.4, -0.2, 0.0, 0.2, 0.4) if is_wall else (0.0,)
    points = np.array([c + along * (2 * f * half_l) + across * sign * (reach[sign] + 0.25)
                       for sign in (1.0, -1.0) for f in fractions], float).reshape(-1, 3)
    points[:, 2] = z
    return _SideProbes(el, across, points)


def _sides(probes: _SideProbes, rooms: list[str | None]) -> tuple[list[str], float | None]:
    """Rooms found just beyond both faces (``rooms``: the room at each of the probes' points; OUTSIDE
    where a face has none), and the outward direction in plan when exactly one face is outside."""
    found: list[str] = []
    outward: list[float] = []
    half = len(rooms) // 2
    for sign, seen in ((1.0, rooms[:half]), (-1.0, rooms[half:])):
        hit_side = False
        for room in seen:
            if room is not None:
                hit_side = True
                if room not in found:
                    found.append(room)
        if not hit_side:
            outward.append(sign)
            if OUTSIDE not in found:
                found.append(OUTSIDE)
    facing = None
    if len(outward) == 1:
        d = probes.across * outward[0]
        facing = float(np.degrees(np.arctan2(d[1], d[0])) % 360.0)
    return found, facing


@dataclass
class Record:
    """What the file says about one product, read before its mesh is made (``element_records``)."""

    product: Any
    element: Element  # no geometry yet: no box, colour, dims or measured quantities
    axes: np.ndarray | None  # world placement (file units); None: left for ``build_building`` to look up
    spatial: bool
    overall: dict[str, float]  # OverallHeight / OverallWidth (metres): they win over the mesh's


@dataclass
class Records:
    """``element_records``: the products in the file's order (first of each GlobalId) and what was odd."""

    by_id: dict[str, Record]
    warnings: list[str]
    rels: Relations  # the file's relations, read once


# A quantity set's volume this many times its element's box is a unit written wrong (litres said as cubic
# metres): the mesh's volume is used instead.
_VOLUME_OVER_BOX = 5.0


def _volume_checked(el: Element, mesh_volume: float) -> None:
    """The element's volume: its quantity set's, unless that is many times its box (an exporter's unit mistake:
    a room of 130 m³ written as 129,987 m³); else, or without one, its mesh's."""
    said = el.quantities.get("volume")
    box = float(np.prod(np.maximum(el.bbox_max - el.bbox_min, 0.0)))
    if said is None or box > 0.0 and said > _VOLUME_OVER_BOX * box:
        el.quantities["volume"] = mesh_volume


def _type_class(schema: str, cls: str, type_cls: str) -> str | None:
    """The class a product's type names ("IfcSanitaryTerminal" of an "IfcSanitaryTerminalType") where it is
    more specific than the product's own (an IFC2x3 IfcFlowTerminal), else None."""
    named = type_cls.removesuffix("Type")
    if named == type_cls or named in class_ancestors(schema, cls) or named.startswith(("IfcDistribution", "IfcFlow")):
        return None
    return named


def element_records(model: ifcopenshell.file, placements: Placements | None = None, axes: bool = True) -> Records:
    """Every product that may be part of the scene, with its names, type, properties, materials, quantity
    sets and spatial parent: everything of ``build_building`` that needs no mesh, so that it can be read
    while the meshes are being made (``pyagent.tessellate``'s ``meanwhile``). Without ``axes`` the world
    placements are left out (``build_building`` looks them up in its ``placements``: the tessellation's forked
    child works them out while this is read)."""
    scale = float(uunit.calculate_unit_scale(model))
    quantity_scale = quantity_scales(model, scale)
    schema = model.schema
    placements = placements if placements is not None else Placements()
    psets_memo = _PropertyMemo()
    materials_memo: dict[int, list[str]] = {}
    rels = Relations.of(model)
    kinds: dict[str, tuple[bool, bool, frozenset[str]]] = {}  # class -> (skipped, spatial, attribute names)
    out: dict[str, Record] = {}
    warnings: list[str] = []
    for product in model.by_type("IfcProduct"):
        cls = product.is_a()
        kind = kinds.get(cls)
        if kind is None:
            kind = kinds[cls] = (
                any(product.is_a(c) for c in SKIPPED_CLASSES) or product.is_a("IfcSpatialZone"),
                cls in SPATIAL_CLASSES or product.is_a("IfcSpatialStructureElement"),
                frozenset(product.get_attribute_names()))
        skipped, spatial, attrs = kind
        if skipped:
            continue
        gid = product.GlobalId
        if gid in out:
            warnings.append(f"duplicate GlobalId {gid}: the second {cls} was ignored")
            continue
        el = Element(
            id=gid, ifc_class=cls, name=_text(product.Name),
            long_name=_text(product.LongName if "LongName" in attrs else None),
            object_type=_text(product.ObjectType if "ObjectType" in attrs else None),
        )
        type_obj = rels.type_of(product)
        if type_obj is not None:
            el.type_name = _text(type_obj.Name)
            el.type_class = _type_class(schema, cls, type_obj.is_a())
        el.properties = _flat_properties(product, type_obj, rels, psets_memo)
        predefined = product.PredefinedType if "PredefinedType" in attrs else None
        if isinstance(predefined, str) and predefined not in ("NOTDEFINED", "USERDEFINED"):
            el.properties["PredefinedType"] = predefined
        elif cls == "IfcCovering" and el.type_class is None:
            # a covering of no stated type that its names call a floor or a ceiling ("living-floor/3") is one
            el.type_class = covering_class_named(el.name, el.type_name, el.object_type)
        el.materials = _materials(product, rels, materials_memo)
        ext = el.properties.get("IsExternal")
        el.external = bool(ext) if isinstance(ext, bool) else None
        # Quantities from quantity sets and vendor property sets win over geometry; they are in the
        # project's units for lengths, areas and volumes (a file in millimetres often gives m² and m³).
        for key, names in QUANTITY_KEYS.items():
            for name in names:
                value = el.properties.get(name)
                if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
                    el.quantities[key] = float(value) * quantity_scale[key]
                    break
        overall: dict[str, float] = {}
        for attr, key in (("OverallHeight", "height"), ("OverallWidth", "width")):
            value = getattr(product, attr) if attr in attrs else None
            if isinstance(value, (int, float)) and value > 0:
                overall[key] = float(value) * scale
        # Spatial structure.
        parent = _spatial_parent(product, rels) if not spatial else rels.aggregate.get(product.id())
        if parent is not None:
            el.parent = parent.GlobalId
        out[gid] = Record(product, el, _placement_axes(product, placements) if axes else None, spatial, overall)
    return Records(out, warnings, rels)


def build_building(model: ifcopenshell.file, meshes: MeshSet, path: str, file_hash: str,
                   warnings: list[str], pending: Collection[str] = (), placements: Placements | None = None,
                   records: Records | None = None) -> Building:
    """Records for every product with a body and every spatial element; products in ``pending`` (a
    first view's elements whose body is still being made) get a record without geometry. ``placements``:
    the world placements already worked out for this model (by the tessellation's shape sharing);
    ``records``: ``element_records`` of this model, read already (each build copies what it changes)."""
    scale = float(uunit.calculate_unit_scale(model))
    storeys, unknown_levels = _storeys(model, scale)
    storey_ids = {s.id for s in storeys}
    mesh_index = meshes.index()
    elements: dict[str, Element] = {}
    axes_by_id: dict[str, np.ndarray] = {}
    off = _switched_off(model)
    facts = MeshFacts.of(meshes)
    records = records if records is not None else element_records(model, placements)
    warnings.extend(records.warnings)
    rels = records.rels

    placed: list[tuple[Element, int, np.ndarray]] = []
    for gid, rec in records.by_id.items():
        mi = mesh_index.get(gid)
        if mi is None and not rec.spatial and gid not in pending:
            continue  # no body: not part of the scene (its parts answer to its class: _whole_classes)
        el = replace(rec.element, quantities=dict(rec.element.quantities))
        axes = axes_by_id[gid] = rec.axes if rec.axes is not None else _placement_axes(rec.product, placements)
        if mi is not None:
            el.bbox_min = facts.bbox_min[mi].copy()
            el.bbox_max = facts.bbox_max[mi].copy()
            el.has_geometry = True
            el.dims = dict(rec.overall)  # the mesh's added below, for all elements at once
            placed.append((el, mi, axes))
            el.color = tuple(float(c) for c in meshes.materials[facts.colour[mi]])  # type: ignore[assignment]
            el.hidden_in_file = _hidden_in_file(rec.product, off)
            el.quantities["surface_area"] = float(facts.area[mi])
            if facts.volume[mi] > 1e-9:
                _volume_checked(el, float(facts.volume[mi]))
        else:
            el.bbox_min = el.bbox_max = axes[:3, 3] * scale - meshes.origin
            el.dims = dict(rec.overall)
        if el.ifc_class == "IfcSpace" and "area" not in el.quantities and mi is not None:
            el.quantities["area"] = float(facts.footprint[mi])  # its plan, not its box (an L-shaped room)
        if "area" not in el.quantities and mi is not None and not el.ifc_class.startswith(_OPENINGS):
            # a slab's or a wall's area is one face of it (its top, one side), not its edges too
            el.quantities["area"] = float(facts.face_area[mi]) if el.ifc_class.startswith(_ONE_FACE) \
                else el.quantities["surface_area"]
        elements[gid] = el

    _dims_of_meshes(meshes, facts, placed)
    for el, _mi, _axes in placed:
        if el.ifc_class.startswith(_OPENINGS) and "area" not in el.quantities:
            # a window's or a door's area is its opening (width by height), not all the faces of its body
            w, h = el.dims.get("width"), el.dims.get("height")
            if w and h:
                el.quantities["area"] = float(w) * float(h)

    # Storey and room from relations.
    for gid, el in elements.items():
        chain = el.parent
        hops = 0
        while chain is not None and hops < 16:
            if chain in storey_ids:
                el.storey = chain
                break
            parent_el = elements.get(chain)
            if parent_el is None:
                break
            if parent_el.ifc_class == "IfcSpace" and el.room is None and el.ifc_class != "IfcSpace":
                el.room = parent_el.id
            chain = parent_el.parent
            hops += 1
        if el.ifc_class == "IfcBuildingStorey":
            el.storey = gid
    _levels_from_contents(storeys, unknown_levels, elements)

    # Storey from geometry where relations are silent (elements in no storey).
    for el in elements.values():
        if el.storey is None and storeys and el.ifc_class not in ("IfcSite", "IfcBuilding"):
            z = float(el.bbox_min[2]) + 0.05
            below = [s for s in storeys if s.elevation <= z + 0.3]
            el.storey = (below[-1] if below else storeys[0]).id

    # Room from geometry where relations are silent.
    finder = RoomFinder.from_meshes([e for e in elements.values() if e.ifc_class == "IfcSpace"], meshes)
    if finder.rooms:
        roomless = [el for el in elements.values() if el.room is None and not el.is_spatial and el.has_geometry]
        points = np.array([el.centre for el in roomless], float).reshape(-1, 3)
        if len(roomless):
            lows = np.array([el.bbox_min[2] for el in roomless], float)
            highs = np.array([el.bbox_max[2] for el in roomless], float)
            points[:, 2] = lows + np.minimum(0.3, 0.5 * (highs - lows))
        for el, room in zip(roomless, finder.rooms_at(points), strict=True):
            el.room = room

    # Doors and windows: the wall they sit in; doors, windows and walls: the rooms on either side.
    for product in model.by_type("IfcElement"):
        found = elements.get(product.GlobalId)
        openings = rels.fills.get(product.id()) if found is not None else None
        for opening in openings or ():
            for host in rels.voids.get(opening.id(), ()):
                if host.GlobalId in elements:
                    found.host = host.GlobalId  # type: ignore[union-attr]
    if finder.rooms:  # every probe point of every door, window and wall looked up at once
        probes = [_side_probes(el, axes_by_id.get(el.id, np.eye(4)), meshes, mesh_index) for el in elements.values()
                  if el.has_geometry and el.ifc_class.startswith(("IfcDoor", "IfcWindow", "IfcWall", "IfcCurtainWall"))]
        rooms = finder.rooms_at(np.concatenate([p.points for p in probes])) if probes else []
        at = 0
        for p in probes:
            p.element.sides, p.element.facing_deg = _sides(p, rooms[at:at + len(p.points)])
            at += len(p.points)

    if not storeys:
        warnings.append("the file has no storeys: floor-based questions cannot be answered")
    if not finder.rooms:
        warnings.append("the file has no spaces (rooms): room-based questions cannot be answered")
    _whole_classes(model, elements)
    for st in storeys:  # unnamed storeys answer to the name they were given
        if st.id in elements and not elements[st.id].name:
            elements[st.id].name = st.name
    ground = ground_storey(storeys)
    project = model.by_type("IfcProject")[0]
    return Building(
        path=path, schema=model.schema, file_hash=file_hash, elements=elements, storeys=storeys,
        ground_storey=ground, true_north_deg=_true_north(model), project_name=_text(project.Name),
        warnings=warnings, site=site_location(model, scale),
        origin=(float(meshes.origin[0]), float(meshes.origin[1]), float(meshes.origin[2])),
    )
