"""The building model: plain records produced by ingest and read by everything else.

Frame and units: IFC world frame after unit conversion, metres, Z up.
Identity: the IFC GlobalId, everywhere.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from pyagent.review.site import SiteLocation

SPATIAL_CLASSES = ("IfcSite", "IfcBuilding", "IfcBuildingStorey", "IfcSpace")
OUTSIDE = "outside"
# Shape representations that are not the element's visible body.
NON_BODY_IDENTIFIERS = ("Axis", "FootPrint", "Box", "Annotation", "Plan", "Profile", "Reference", "Clearance",
                        "Lighting", "Survey")


@dataclass
class Element:
    """One IFC product with a body, or one spatial element (site, building, storey, space)."""

    id: str
    ifc_class: str
    name: str
    long_name: str = ""
    object_type: str = ""
    type_name: str = ""
    storey: str | None = None  # GlobalId of the storey it belongs to
    room: str | None = None  # GlobalId of the IfcSpace it is in
    parent: str | None = None  # spatial container or aggregate whole
    bbox_min: np.ndarray = field(default_factory=lambda: np.zeros(3))
    bbox_max: np.ndarray = field(default_factory=lambda: np.zeros(3))
    has_geometry: bool = False
    dims: dict[str, float] = field(default_factory=dict)  # width, height, depth (metres)
    quantities: dict[str, float] = field(default_factory=dict)  # area, volume, ... (m², m³)
    properties: dict[str, Any] = field(default_factory=dict)  # "Pset.Name" and bare "Name"
    materials: list[str] = field(default_factory=list)
    color: tuple[float, float, float, float] | None = None
    external: bool | None = None
    host: str | None = None  # the wall (or slab/roof) whose opening this door or window fills
    sides: list[str] = field(default_factory=list)  # rooms on either side (doors, windows, walls); "outside"
    facing_deg: float | None = None  # outward direction in plan of an external door, window or wall (CCW from +X)
    hidden_in_file: bool = False  # its body is on presentation layers switched off (e.g. a saved review)
    # The class of the whole it is a part of, when that whole has no body of its own (the slabs of an
    # IfcRoof, the flights of an IfcStair): asking for the whole's class finds its parts.
    whole_class: str | None = None
    whole: str | None = None  # that whole's GlobalId (counting roofs counts wholes, not their slabs)
    # The more specific class its type says it is, where the file's schema has only a general one (IFC2x3: an
    # IfcFlowTerminal typed by an IfcSanitaryTerminalType is a sanitary terminal, as IFC4 writes it).
    type_class: str | None = None

    @property
    def centre(self) -> np.ndarray:
        return (self.bbox_min + self.bbox_max) / 2.0

    @property
    def is_spatial(self) -> bool:
        return self.ifc_class in SPATIAL_CLASSES

    def label(self) -> str:
        """A short human name: the LongName of spaces, else the Name, else the class."""
        if self.ifc_class == "IfcSpace" and self.long_name:
            return self.long_name
        return self.name or self.long_name or self.ifc_class.removeprefix("Ifc")


@dataclass
class Storey:
    id: str
    name: str
    elevation: float  # metres, world Z of the storey's reference level
    long_name: str = ""
    index: int = 0  # 0 = lowest
    top: float = math.inf  # world Z of the next storey up (or +inf)


@dataclass
class Building:
    """Everything ingest knows about one IFC file."""

    path: str
    schema: str
    file_hash: str
    elements: dict[str, Element]
    storeys: list[Storey]  # ordered by elevation, lowest first
    ground_storey: str | None  # the lowest storey at or above 0 m
    true_north_deg: float = 90.0  # direction of north, degrees CCW from +X in the XY plane
    project_name: str = ""
    warnings: list[str] = field(default_factory=list)
    site: SiteLocation | None = None  # IfcSite's latitude/longitude, when the file says where it stands
    # Where the agent's frame sits in the file's frame (metres): every position here is file position
    # minus this (see tessellate.local_origin); exports add it back.
    origin: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def compass_heading(self, side: str) -> float | None:
        """The way a compass side ("north", "west", ...) points, in degrees counter-clockwise from +X, by the file's
        true north; None for any other word."""
        turn = {"north": 0.0, "west": 90.0, "south": 180.0, "east": -90.0}.get(side)
        return None if turn is None else self.true_north_deg + turn

    def storey(self, gid: str | None) -> Storey | None:
        for s in self.storeys:
            if s.id == gid:
                return s
        return None

    def spaces(self) -> list[Element]:
        return [e for e in self.elements.values() if e.ifc_class == "IfcSpace"]

    def products(self) -> list[Element]:
        """Elements with a body (not spatial)."""
        return [e for e in self.elements.values() if not e.is_spatial]

    @cached_property
    def classes_marked_external(self) -> frozenset[str]:
        """Classes of which the file marks at least one element external (IsExternal true): where it marks
        none, its "not external" is the authoring tool's default rather than a fact."""
        return frozenset(e.ifc_class for e in self.elements.values() if e.external)

    @cached_property
    def classes_all_external(self) -> frozenset[str]:
        """Classes of which the file marks every element external, several of them (an example house's inner
        walls among them): there the flag is the authoring tool's default too, not a fact."""
        every = Counter(e.ifc_class for e in self.elements.values())
        marked = Counter(e.ifc_class for e in self.elements.values() if e.external is True)
        return frozenset(c for c, n in every.items() if n > 2 and marked[c] == n)


@dataclass
class Pose:
    """The user's eye position (IFC frame) and heading: yaw CCW from +X in degrees, pitch up."""

    position: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, 1.6]))
    yaw: float = 0.0
    pitch: float = 0.0

    def forward(self) -> np.ndarray:
        y, p = math.radians(self.yaw), math.radians(self.pitch)
        return np.array([math.cos(y) * math.cos(p), math.sin(y) * math.cos(p), math.sin(p)])

    def to_json(self) -> dict[str, Any]:
        return {"position": [float(v) for v in self.position], "yaw": float(self.yaw), "pitch": float(self.pitch)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pose:
        pos = np.asarray(data["position"], dtype=float)
        if pos.shape != (3,) or not np.all(np.isfinite(pos)):
            raise ValueError("pose position must be three finite numbers")
        yaw, pitch = float(data.get("yaw", 0.0)), float(data.get("pitch", 0.0))
        if not (math.isfinite(yaw) and math.isfinite(pitch)):
            raise ValueError("pose yaw and pitch must be finite numbers")
        return cls(position=pos, yaw=yaw, pitch=max(-90.0, min(90.0, pitch)))
