"""A generated building for benchmarks: a multi-storey grid of rooms, about 10,000 elements by default.

Every storey is a grid of square rooms (an ``IfcSpace`` each) with a floor slab per room, walls on the
grid lines, a door in each room's south wall (the south row opens to the outside and its west walls get
doors too, so every room can be walked to), windows in the outer walls and furniture boxes in each room.
The same seed gives the same bytes, so the loader's content-hash cache works across regenerations.

The project skeleton (units, contexts, site, building, storeys) is written with ``ifcopenshell.api``;
the bulk of the elements is created with ``file.create_entity``, because the API's per-call overhead
(about 5 ms per wall with placement, body and containment) would make 10,000 elements take a minute.

``python -m pyagent.synth [--storeys N --nx N --ny N --furniture N --seed N]`` prints the file's path.
"""

from __future__ import annotations

import argparse
import random
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ifcopenshell
import ifcopenshell.api.aggregate
import ifcopenshell.api.context
import ifcopenshell.api.project
import ifcopenshell.api.root
import ifcopenshell.api.unit
import ifcopenshell.guid

from pyagent.paths import cache_dir

SYNTH_VERSION = 2
ROOM = 4.0  # grid spacing, metres
WALL_T = 0.2
STOREY_H = 3.0
SLAB_T = 0.2
DOOR_W, DOOR_H = 0.9, 2.1
WINDOW_W, WINDOW_H, SILL = 1.6, 1.2, 0.9
ROOM_USES = ("Office", "Meeting", "Kitchen", "Storage", "Lounge", "Studio", "Archive", "Print")
FURNITURE = (("Desk", 1.4, 0.7, 0.75), ("Table", 1.2, 0.8, 0.74), ("Cabinet", 0.8, 0.45, 1.9),
             ("Shelf", 1.0, 0.35, 2.0), ("Sofa", 1.8, 0.9, 0.8), ("Chair", 0.5, 0.5, 0.9),
             ("Bed", 1.6, 2.0, 0.5), ("Plant", 0.4, 0.4, 1.2))


@dataclass(frozen=True)
class SynthSpec:
    """Size of the generated building: about storeys × nx × ny × (5 + furniture) elements."""

    storeys: int = 4
    nx: int = 16
    ny: int = 12
    furniture: int = 8  # boxes per room, at most 9
    seed: int = 1

    def file_name(self) -> str:
        return (f"synth-v{SYNTH_VERSION}-s{self.storeys}-{self.nx}x{self.ny}-f{self.furniture}"
                f"-seed{self.seed}.ifc")

    def element_count(self) -> int:
        """Products with a body plus the spatial structure (site, building, storeys, spaces)."""
        per_storey = self.nx * self.ny * (5 + self.furniture) + 3 * self.nx + 3 * self.ny - 1
        return self.storeys * per_storey + (self.storeys - 1) + 2 + self.storeys


class _Writer:
    """Bulk entity creation with deterministic GlobalIds and shared geometry definitions."""

    def __init__(self, model: ifcopenshell.file, body: Any, rng: random.Random) -> None:
        self.m = model
        self.body = body
        self.rng = rng
        self.origin = model.createIfcCartesianPoint((0.0, 0.0, 0.0))
        self.z = model.createIfcDirection((0.0, 0.0, 1.0))
        self.x = model.createIfcDirection((1.0, 0.0, 0.0))
        self.y_dir = model.createIfcDirection((0.0, 1.0, 0.0))
        self.profile_origin = model.createIfcAxis2Placement2D(model.createIfcCartesianPoint((0.0, 0.0)))
        self._profiles: dict[tuple[float, float], Any] = {}

    def gid(self) -> str:
        return ifcopenshell.guid.compress(uuid.UUID(int=self.rng.getrandbits(128), version=4).hex)

    def placement(self, rel_to: Any, xyz: tuple[float, float, float], along_y: bool = False) -> Any:
        m = self.m
        axis = m.createIfcAxis2Placement3D(m.createIfcCartesianPoint(tuple(float(c) for c in xyz)), self.z,
                                           self.y_dir if along_y else self.x)
        return m.createIfcLocalPlacement(rel_to, axis)

    def box(self, sx: float, sy: float, sz: float, z0: float = 0.0) -> Any:
        """A product shape: a box sx × sy × sz centred on the placement in plan, from z0 up."""
        m = self.m
        key = (round(sx, 4), round(sy, 4))
        profile = self._profiles.get(key)
        if profile is None:
            profile = m.createIfcRectangleProfileDef("AREA", None, self.profile_origin, key[0], key[1])
            self._profiles[key] = profile
        position = m.createIfcAxis2Placement3D(m.createIfcCartesianPoint((0.0, 0.0, float(z0))), self.z, self.x)
        solid = m.createIfcExtrudedAreaSolid(profile, position, self.z, float(sz))
        rep = m.createIfcShapeRepresentation(self.body, "Body", "SweptSolid", [solid])
        return m.createIfcProductDefinitionShape(None, None, [rep])

    def product(self, cls: str, name: str, placement: Any, shape: Any, **attrs: Any) -> Any:
        return self.m.create_entity(cls, GlobalId=self.gid(), Name=name, ObjectPlacement=placement,
                                    Representation=shape, **attrs)

    def pset(self, product: Any, name: str, values: dict[str, Any]) -> None:
        m = self.m
        props = []
        for key, value in values.items():
            if isinstance(value, bool):
                nominal = m.createIfcBoolean(value)
            elif isinstance(value, float):
                nominal = m.createIfcReal(value)
            else:
                nominal = m.createIfcLabel(str(value))
            props.append(m.createIfcPropertySingleValue(key, None, nominal, None))
        pset = m.createIfcPropertySet(self.gid(), None, name, None, props)
        m.createIfcRelDefinesByProperties(self.gid(), None, None, None, [product], pset)

    def fill(self, wall: Any, wall_placement: Any, filler_cls: str, name: str, offset: float, width: float,
             height: float, sill: float, along_y: bool, **attrs: Any) -> Any:
        """An opening through a wall at ``offset`` along it, and a door or window filling it."""
        m = self.m
        # As in IFC, the filler's local X runs along the wall and its local Y through it.
        local = (0.0, offset, sill) if along_y else (offset, 0.0, sill)
        o_place = self.placement(wall_placement, local, along_y)
        opening = self.product("IfcOpeningElement", f"Opening {name}", o_place, self.box(width, WALL_T + 0.1, height))
        m.createIfcRelVoidsElement(self.gid(), None, None, None, wall, opening)
        f_place = self.placement(wall_placement, local, along_y)
        f_shape = self.box(width, 0.06, height)
        filler = self.product(filler_cls, name, f_place, f_shape, OverallHeight=height, OverallWidth=width, **attrs)
        m.createIfcRelFillsElement(self.gid(), None, None, None, opening, filler)
        return filler


def generate(spec: SynthSpec) -> ifcopenshell.file:
    """The building as an IFC4 model (deterministic for a given spec)."""
    if not (1 <= spec.storeys and 1 <= spec.nx and 1 <= spec.ny and 0 <= spec.furniture <= 9):
        raise ValueError(f"bad synth spec {spec}")
    rng = random.Random(spec.seed)
    m = ifcopenshell.api.project.create_file(version="IFC4")
    m.header.file_name.time_stamp = "2020-01-01T00:00:00"
    m.header.file_name.name = spec.file_name()
    project = ifcopenshell.api.root.create_entity(m, ifc_class="IfcProject", name=f"Synthetic grid {spec.seed}")
    ifcopenshell.api.unit.assign_unit(m, length={"is_metric": True, "raw": "METERS"})
    for assignment in m.by_type("IfcUnitAssignment"):  # the API collects units in a set: fix their order
        assignment.Units = tuple(sorted(assignment.Units, key=lambda u: u.id()))
    model_ctx = ifcopenshell.api.context.add_context(m, context_type="Model")
    body = ifcopenshell.api.context.add_context(m, context_type="Model", context_identifier="Body",
                                                target_view="MODEL_VIEW", parent=model_ctx)
    site = ifcopenshell.api.root.create_entity(m, ifc_class="IfcSite", name="Site")
    building = ifcopenshell.api.root.create_entity(m, ifc_class="IfcBuilding", name="Grid building")
    w = _Writer(m, body, rng)
    rels = [ifcopenshell.api.aggregate.assign_object(m, products=[site], relating_object=project),
            ifcopenshell.api.aggregate.assign_object(m, products=[building], relating_object=site)]
    for entity in (project, site, building, *rels):
        assert entity is not None
        entity.GlobalId = w.gid()  # the API draws random ones; the same seed must give the same file
    site.ObjectPlacement = w.placement(None, (0.0, 0.0, 0.0))
    building.ObjectPlacement = w.placement(site.ObjectPlacement, (0.0, 0.0, 0.0))

    storeys = []
    for k in range(spec.storeys):
        st = ifcopenshell.api.root.create_entity(m, ifc_class="IfcBuildingStorey", name=f"Level {k}")
        st.GlobalId = w.gid()
        st.Elevation = k * STOREY_H
        st.ObjectPlacement = w.placement(building.ObjectPlacement, (0.0, 0.0, k * STOREY_H))
        storeys.append(st)
    m.createIfcRelAggregates(w.gid(), None, None, None, building, storeys)  # the API's order varies run to run

    nx, ny, L = spec.nx, spec.ny, ROOM
    wall_h = STOREY_H - SLAB_T
    inner = L - WALL_T
    for k, st in enumerate(storeys):
        sp_ = st.ObjectPlacement
        in_storey: list[Any] = []
        spaces: list[Any] = []
        # Rooms: space, floor slab, furniture.
        for i in range(nx):
            for j in range(ny):
                cx, cy = (i + 0.5) * L, (j + 0.5) * L
                use = ROOM_USES[rng.randrange(len(ROOM_USES))]
                number = f"{k}{i:02d}{j:02d}"
                space = w.product("IfcSpace", number, w.placement(sp_, (cx, cy, 0.0)), w.box(inner, inner, wall_h),
                                  LongName=f"{use} {number}", CompositionType="ELEMENT")
                spaces.append(space)
                slab = w.product("IfcSlab", f"Floor {number}", w.placement(sp_, (cx, cy, -SLAB_T)),
                                 w.box(L, L, SLAB_T), PredefinedType="FLOOR")
                in_storey.append(slab)
                cells = rng.sample(range(9), spec.furniture)
                items = []
                for c in cells:
                    kind, fw, fd, fh = FURNITURE[rng.randrange(len(FURNITURE))]
                    scale = rng.uniform(0.8, 1.1)
                    fw, fd = min(fw * scale, 1.1), min(fd * scale, 1.1)
                    gx, gy = c % 3, c // 3
                    px = i * L + WALL_T / 2 + (gx + 0.5) * inner / 3
                    py = j * L + WALL_T / 2 + (gy + 0.5) * inner / 3
                    items.append(w.product("IfcFurniture", f"{kind} {number}-{c}", w.placement(sp_, (px, py, 0.0)),
                                           w.box(fw, fd, fh), ObjectType=kind))
                m.createIfcRelContainedInSpatialStructure(w.gid(), None, None, None, items, space)
        # Walls along X (grid lines y = j L) and along Y (x = i L).
        for j in range(ny + 1):
            for i in range(nx):
                outer = j in (0, ny)
                place = w.placement(sp_, ((i + 0.5) * L, j * L, 0.0))
                wall = w.product("IfcWall", f"Wall X{k}-{i}-{j}", place, w.box(L + WALL_T, WALL_T, wall_h),
                                 PredefinedType="SOLIDWALL")
                w.pset(wall, "Pset_WallCommon", {"IsExternal": outer, "LoadBearing": outer})
                in_storey.append(wall)
                if j < ny:  # the south wall of room (i, j) gets its door
                    in_storey.append(w.fill(wall, place, "IfcDoor", f"Door {k}{i:02d}{j:02d}", -0.8, DOOR_W,
                                            DOOR_H, 0.0, False, PredefinedType="DOOR"))
                if outer and j == ny:
                    in_storey.append(w.fill(wall, place, "IfcWindow", f"Window {k}-{i}-N", 0.6, WINDOW_W,
                                            WINDOW_H, SILL, False, PredefinedType="WINDOW"))
        for i in range(nx + 1):
            for j in range(ny):
                outer = i in (0, nx)
                place = w.placement(sp_, (i * L, (j + 0.5) * L, 0.0))
                wall = w.product("IfcWall", f"Wall Y{k}-{i}-{j}", place, w.box(WALL_T, L - WALL_T, wall_h),
                                 PredefinedType="SOLIDWALL")
                w.pset(wall, "Pset_WallCommon", {"IsExternal": outer, "LoadBearing": outer})
                in_storey.append(wall)
                if j == 0 and 0 < i < nx:
                    in_storey.append(w.fill(wall, place, "IfcDoor", f"Door {k}-{i}-W", 0.0, DOOR_W, DOOR_H, 0.0,
                                            True, PredefinedType="DOOR"))
                if outer:
                    in_storey.append(w.fill(wall, place, "IfcWindow", f"Window {k}-{i}-{j}", 0.0, WINDOW_W,
                                            WINDOW_H, SILL, True, PredefinedType="WINDOW"))
        if k + 1 < len(storeys):
            # A stair box in room (0, 0) reaching the next storey.
            stair = w.product("IfcStair", f"Stair {k}", w.placement(sp_, (0.5 * L + 1.0, 0.5 * L, 0.0)),
                              w.box(1.0, 2.8, STOREY_H), PredefinedType="STRAIGHT_RUN_STAIR")
            in_storey.append(stair)
        m.createIfcRelContainedInSpatialStructure(w.gid(), None, None, None, in_storey, st)
        m.createIfcRelAggregates(w.gid(), None, None, None, st, spaces)
    return m


def synth_path(spec: SynthSpec | None = None, cache: Path | None = None) -> Path:
    """The generated file for ``spec``, written under ``<cache>/synth/`` the first time it is asked for."""
    spec = spec or SynthSpec()
    folder = (cache or cache_dir()) / "synth"
    path = folder / spec.file_name()
    if path.is_file():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    model = generate(spec)
    tmp = path.with_suffix(".tmp")
    model.write(str(tmp))
    tmp.replace(path)
    return path


def main(argv: list[str] | None = None) -> int:
    d = SynthSpec()
    parser = argparse.ArgumentParser(prog="python -m pyagent.synth", description="write the generated building")
    parser.add_argument("--storeys", type=int, default=d.storeys)
    parser.add_argument("--nx", type=int, default=d.nx)
    parser.add_argument("--ny", type=int, default=d.ny)
    parser.add_argument("--furniture", type=int, default=d.furniture)
    parser.add_argument("--seed", type=int, default=d.seed)
    args = parser.parse_args(argv)
    spec = SynthSpec(args.storeys, args.nx, args.ny, args.furniture, args.seed)
    t = time.perf_counter()
    path = synth_path(spec)
    print(f"{path} ({spec.element_count()} elements, {time.perf_counter() - t:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
