"""The file's relationships read once, in bulk: for every object its type, property sets, container,
whole, materials and openings, as ``ifcopenshell.util.element`` finds them one element at a time.

Each ``util.element`` lookup walks an inverse attribute of one element (``IsDefinedBy``,
``ContainedInStructure``, ``Decomposes``, ...) and takes the first relationship of the kind it wants.
Here every relationship entity is visited once instead, in ascending entity id (the order the inverse
attributes list them in), and the first one per related object is kept. ``tests/core`` checks the
answers against ``util.element`` on real files.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import ifcopenshell

Entity = ifcopenshell.entity_instance
MAX_HOPS = 64  # a container chain longer than this is a cycle in the file


def _by_type(model: ifcopenshell.file, cls: str) -> list[Entity]:
    """Instances of ``cls`` (subtypes included) in ascending id; none when the schema lacks the class."""
    try:
        found = model.by_type(cls)
    except RuntimeError:
        return []
    return sorted(found, key=lambda e: e.id())


def _first(into: dict[int, Any], objects: Iterable[Entity] | None, value: Any) -> None:
    for obj in objects or ():
        if obj is not None:
            into.setdefault(obj.id(), value)


@dataclass
class Relations:
    """First relationship of each kind per entity id (see the module docstring)."""

    types: dict[int, Entity] = field(default_factory=dict)  # IsTypedBy / IfcRelDefinesByType
    definitions: dict[int, list[Entity]] = field(default_factory=dict)  # IsDefinedBy's property sets, in order
    contained_in: dict[int, Entity] = field(default_factory=dict)  # ContainedInStructure[0].RelatingStructure
    aggregate: dict[int, Entity] = field(default_factory=dict)  # Decomposes[0] when an IfcRelAggregates
    nest: dict[int, Entity] = field(default_factory=dict)
    fills: dict[int, list[Entity]] = field(default_factory=dict)  # FillsVoids: the openings, in order
    voids: dict[int, list[Entity]] = field(default_factory=dict)  # VoidsElements: the voided, in order
    adheres: dict[int, Entity] = field(default_factory=dict)
    material: dict[int, Entity] = field(default_factory=dict)  # first IfcRelAssociatesMaterial's material
    _containers: dict[int, Entity | None] = field(default_factory=dict)

    @classmethod
    def of(cls, model: ifcopenshell.file) -> Relations:
        r = cls()
        for rel in _by_type(model, "IfcRelDefinesByType"):
            _first(r.types, rel.RelatedObjects, rel.RelatingType)
        for rel in _by_type(model, "IfcRelDefinesByProperties"):
            relating = rel.RelatingPropertyDefinition
            if relating is None:
                continue
            defs = relating.wrappedValue if relating.is_a("IfcPropertySetDefinitionSet") else (relating,)
            for obj in rel.RelatedObjects or ():
                r.definitions.setdefault(obj.id(), []).extend(defs)
        for rel in _by_type(model, "IfcRelContainedInSpatialStructure"):
            _first(r.contained_in, rel.RelatedElements, rel.RelatingStructure)
        if model.schema == "IFC2X3":
            # Decomposes lists aggregates and nests together; util.element looks at the first only
            first: dict[int, Entity] = {}
            for rel in _by_type(model, "IfcRelDecomposes"):
                _first(first, rel.RelatedObjects, rel)
            for oid, rel in first.items():
                if rel.is_a("IfcRelAggregates"):
                    r.aggregate[oid] = rel.RelatingObject
                elif rel.is_a("IfcRelNests"):
                    r.nest[oid] = rel.RelatingObject
        else:
            for rel in _by_type(model, "IfcRelAggregates"):
                _first(r.aggregate, rel.RelatedObjects, rel.RelatingObject)
            for rel in _by_type(model, "IfcRelNests"):
                _first(r.nest, rel.RelatedObjects, rel.RelatingObject)
        for rel in _by_type(model, "IfcRelFillsElement"):
            if rel.RelatedBuildingElement is not None and rel.RelatingOpeningElement is not None:
                r.fills.setdefault(rel.RelatedBuildingElement.id(), []).append(rel.RelatingOpeningElement)
        for rel in _by_type(model, "IfcRelVoidsElement"):
            if rel.RelatedOpeningElement is not None and rel.RelatingBuildingElement is not None:
                r.voids.setdefault(rel.RelatedOpeningElement.id(), []).append(rel.RelatingBuildingElement)
        for rel in _by_type(model, "IfcRelAdheresToElement"):
            _first(r.adheres, rel.RelatedSurfaceFeatures, rel.RelatingElement)
        for rel in _by_type(model, "IfcRelAssociatesMaterial"):
            _first(r.material, rel.RelatedObjects, rel.RelatingMaterial)
        return r

    def type_of(self, obj: Entity) -> Entity | None:
        """``util.element.get_type`` of an occurrence."""
        return self.types.get(obj.id())

    def parent(self, obj: Entity) -> Entity | None:
        """``util.element.get_parent``: container, whole, nest host, filled opening, voided element or
        adhered element, the first there is."""
        oid = obj.id()
        for got in (self.contained_in.get(oid), self.aggregate.get(oid), self.nest.get(oid)):
            if got is not None:
                return got
        for lists in (self.fills, self.voids):
            found = lists.get(oid)
            if found:
                return found[0]
        return self.adheres.get(oid)

    def container(self, obj: Entity) -> Entity | None:
        """``util.element.get_container``: the spatial container of the object or of its nearest parent
        that has one."""
        chain: list[int] = []
        current: Entity | None = obj
        found: Entity | None = None
        while current is not None and len(chain) < MAX_HOPS:
            cid = current.id()
            if cid in self._containers:
                found = self._containers[cid]
                break
            chain.append(cid)
            found = self.contained_in.get(cid)
            if found is not None:
                break
            current = self.parent(current)
        for cid in chain:
            self._containers[cid] = found
        return found

    def material_of(self, obj: Entity) -> Entity | None:
        """``util.element.get_material(obj, should_skip_usage=True)``: its own, else its type's."""
        got = self.material.get(obj.id())
        if got is None:
            type_obj = self.type_of(obj)
            got = self.material.get(type_obj.id()) if type_obj is not None else None
        if got is not None:
            if got.is_a("IfcMaterialLayerSetUsage"):
                return got.ForLayerSet
            if got.is_a("IfcMaterialProfileSetUsage"):
                return got.ForProfileSet
        return got

    def materials(self, obj: Entity) -> list[Entity]:
        """``util.element.get_materials``: the materials of its material or material set."""
        material = self.material_of(obj)
        if not material:
            return []
        if material.is_a("IfcMaterial"):
            return [material]
        if material.is_a("IfcMaterialLayerSet"):
            return [m.Material for m in material.MaterialLayers]
        if material.is_a("IfcMaterialProfileSet"):
            return [p.Material for p in material.MaterialProfiles]
        if material.is_a("IfcMaterialConstituentSet"):
            return [c.Material for c in material.MaterialConstituents]
        if material.is_a("IfcMaterialList"):
            return list(material.Materials)
        return []
