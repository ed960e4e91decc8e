"""Facts about the shipped IFC files computed straight from ifcopenshell, independently of pyagent.

Nothing here imports pyagent: these are the reference answers the core tests compare against.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import ifcopenshell
import ifcopenshell.geom
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
FZK = ROOT / "ifc" / "AC20-FZK-Haus.ifc"
DUPLEX = ROOT / "ifc" / "duplex.ifc"
MINI = ROOT / "ifc" / "MiniProject.ifc"

# Classes that are never part of the 3D scene (voids, annotation, helpers) and spaces (not drawn).
NOT_DRAWN = ("IfcOpeningElement", "IfcAnnotation", "IfcVirtualElement", "IfcGrid", "IfcPort", "IfcSpace")
BODY_IDS = ("Body", "Facetation", "Mesh")


def has_body(product: ifcopenshell.entity_instance) -> bool:
    rep = product.Representation
    if rep is None:
        return False
    return any(r.RepresentationIdentifier in BODY_IDS for r in rep.Representations)


def drawn_products(model: ifcopenshell.file) -> list[ifcopenshell.entity_instance]:
    """Products with a body that a viewer would draw."""
    return [p for p in model.by_type("IfcProduct") if not any(p.is_a(c) for c in NOT_DRAWN) and has_body(p)]


def class_counts(model: ifcopenshell.file) -> Counter[str]:
    return Counter(p.is_a() for p in drawn_products(model))


def _up(entity: ifcopenshell.entity_instance) -> ifcopenshell.entity_instance | None:
    """One step up the spatial/aggregation tree, read from the inverse relations directly."""
    for rel in getattr(entity, "ContainedInStructure", None) or ():
        return rel.RelatingStructure
    for rel in getattr(entity, "Decomposes", None) or ():
        if rel.is_a("IfcRelAggregates"):
            return rel.RelatingObject
    for rel in getattr(entity, "FillsVoids", None) or ():
        opening = rel.RelatingOpeningElement
        for vrel in opening.VoidsElements or ():
            return vrel.RelatingBuildingElement
    for rel in getattr(entity, "VoidsElements", None) or ():
        return rel.RelatingBuildingElement
    return None


def storey_of(entity: ifcopenshell.entity_instance) -> str | None:
    """GlobalId of the storey an element belongs to through containment and aggregation."""
    current = entity
    for _ in range(32):
        current = _up(current)
        if current is None:
            return None
        if current.is_a("IfcBuildingStorey"):
            return current.GlobalId
    return None


def space_of(entity: ifcopenshell.entity_instance) -> str | None:
    """GlobalId of the IfcSpace that contains an element (IfcRelContainedInSpatialStructure)."""
    for rel in getattr(entity, "ContainedInStructure", None) or ():
        if rel.RelatingStructure.is_a("IfcSpace"):
            return rel.RelatingStructure.GlobalId
    return None


def storey_counts(model: ifcopenshell.file) -> Counter[str | None]:
    return Counter(storey_of(p) for p in drawn_products(model))


def unit_scale(model: ifcopenshell.file) -> float:
    """Metres per file length unit, from IfcUnitAssignment (SI prefix only; the shipped files use SI)."""
    prefixes = {None: 1.0, "MILLI": 1e-3, "CENTI": 1e-2, "DECI": 1e-1, "KILO": 1e3}
    for unit in model.by_type("IfcUnitAssignment")[0].Units:
        if unit.is_a("IfcSIUnit") and unit.UnitType == "LENGTHUNIT":
            return prefixes[unit.Prefix]
    raise AssertionError("no SI length unit")


def storey_elevations(model: ifcopenshell.file) -> dict[str, float]:
    """Storey GlobalId -> world elevation in metres from the placement chain (translations only)."""
    scale = unit_scale(model)
    out: dict[str, float] = {}
    for s in model.by_type("IfcBuildingStorey"):
        z = 0.0
        placement = s.ObjectPlacement
        while placement is not None:
            z += float(placement.RelativePlacement.Location.Coordinates[2])
            placement = placement.PlacementRelTo
        out[s.GlobalId] = z * scale
    return out


def true_north_deg(model: ifcopenshell.file) -> float:
    """Direction of true north, degrees CCW from +X, from the model context (90 when not given)."""
    for ctx in model.by_type("IfcGeometricRepresentationContext", include_subtypes=False):
        if ctx.ContextType == "Model" and ctx.TrueNorth is not None:
            x, y = ctx.TrueNorth.DirectionRatios[:2]
            return math.degrees(math.atan2(y, x)) % 360.0
    return 90.0


def space_boundary_rooms(model: ifcopenshell.file) -> dict[str, set[str]]:
    """Element GlobalId -> the spaces it bounds (IfcRelSpaceBoundary), plus "outside" for external ones."""
    out: dict[str, set[str]] = {}
    for rel in model.by_type("IfcRelSpaceBoundary"):
        el = rel.RelatedBuildingElement
        if el is None:
            continue
        rooms = out.setdefault(el.GlobalId, set())
        rooms.add(rel.RelatingSpace.GlobalId)
        if rel.InternalOrExternalBoundary == "EXTERNAL":
            rooms.add("outside")
    return out


def world_bbox(model: ifcopenshell.file, gid: str) -> tuple[np.ndarray, np.ndarray]:
    """Axis-aligned box of one product's tessellated body in world coordinates (metres)."""
    settings = ifcopenshell.geom.settings()
    settings.set("use-world-coords", True)
    shape = ifcopenshell.geom.create_shape(settings, model.by_guid(gid))
    v = np.asarray(shape.geometry.verts, dtype=float).reshape(-1, 3)
    return v.min(axis=0), v.max(axis=0)


def by_name(model: ifcopenshell.file, ifc_class: str, name: str) -> ifcopenshell.entity_instance:
    found = [e for e in model.by_type(ifc_class) if e.Name == name or getattr(e, "LongName", None) == name]
    assert len(found) == 1, f"{ifc_class} {name!r}: {len(found)} matches"
    return found[0]


def glb_json(path: Path) -> dict:
    """The JSON chunk of a binary glTF file, read by hand (header, then the first chunk)."""
    import json
    import struct

    data = path.read_bytes()
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    assert magic == b"glTF" and version == 2 and length == len(data)
    chunk_len, chunk_type = struct.unpack_from("<I4s", data, 12)
    assert chunk_type == b"JSON"
    return json.loads(data[20:20 + chunk_len])


def glb_element_nodes(path: Path) -> dict[str, list[float]]:
    """Element node name -> translation (Godot frame), for the children of the scene's root node."""
    doc = glb_json(path)
    root = doc["nodes"][doc["scenes"][doc.get("scene", 0)]["nodes"][0]]
    return {doc["nodes"][i]["name"]: doc["nodes"][i].get("translation", [0.0, 0.0, 0.0])
            for i in root.get("children", [])}
