"""World placements of IFC products, each placement worked out once per model (shared by the tessellation's
shape sharing and the ingest)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import ifcopenshell.util.placement as upl
import numpy as np


def axis_rotation(axis: Any, ref: Any, memo: dict[tuple, np.ndarray]) -> np.ndarray:
    """``ifcopenshell.util.placement.a2p`` without its location, computed once per pair of directions
    (a file has few distinct ones): a 4x4 whose first three columns are the unit X, Y and Z axes."""
    z = tuple(axis.DirectionRatios) if axis else (0, 0, 1)
    x = tuple(ref.DirectionRatios) if ref else (1, 0, 0)
    got = memo.get((z, x))
    if got is None:
        got = memo[(z, x)] = upl.a2p(np.zeros(3), np.array(z), np.array(x))
    return got


def axis2placement(placement: Any, memo: dict[tuple, np.ndarray]) -> np.ndarray:
    """``ifcopenshell.util.placement.get_axis2placement``, the same numbers, with the directions' part
    shared (see ``axis_rotation``)."""
    if placement.is_a() == "IfcAxis2Placement3D":
        coordinates = getattr(placement.Location, "Coordinates", None)
        if coordinates:
            m = axis_rotation(placement.Axis, placement.RefDirection, memo).copy()
            m[:3, 3] = coordinates
            return m
    return np.asarray(upl.get_axis2placement(placement), dtype=float)


class Placements:
    """World placements by entity id, each computed once: the storeys' and buildings' placements are
    shared by thousands of elements, and their directions by nearly all."""

    def __init__(self) -> None:
        self.world: dict[int, np.ndarray] = {}
        self.axes: dict[tuple, np.ndarray] = {}

    def of(self, placement: Any) -> np.ndarray:
        """``ifcopenshell.util.placement.get_local_placement`` of an IfcLocalPlacement."""
        key = placement.id()
        got = self.world.get(key)
        if got is None:
            rel_to = placement.PlacementRelTo
            parent = np.eye(4) if rel_to is None else self.of(rel_to)
            got = self.world[key] = parent @ axis2placement(placement.RelativePlacement, self.axes)
        return got

    def work_out(self, products: Iterable[Any]) -> None:
        """Work out the world placement of every product placed by a chain of local placements (where one
        cannot be, ``of`` raises again when it is asked for)."""
        for product in products:
            placement = getattr(product, "ObjectPlacement", None)
            if placement is None or not placement.is_a("IfcLocalPlacement"):
                continue
            try:
                self.of(placement)
            except (RuntimeError, TypeError, AttributeError, ValueError):
                continue

    def packed(self) -> tuple[np.ndarray, np.ndarray]:
        """The placements worked out so far as two arrays (ids, 4x4 matrices): one pickle of two arrays is
        many times faster to send than thousands of small ones."""
        ids = np.fromiter(self.world, np.int64, len(self.world))
        return ids, np.array(list(self.world.values()), np.float64).reshape(-1, 4, 4)

    def add_packed(self, packed: tuple[np.ndarray, np.ndarray]) -> None:
        """Take in placements worked out elsewhere for the same model (``packed``); those known here stay."""
        ids, matrices = packed
        for key, m in zip(ids.tolist(), matrices, strict=True):
            self.world.setdefault(key, m)
