"""Structural checks on an IFC model before any geometry is computed from it.

The geometry kernel follows references recursively (placement chains, boolean operands, mapped items,
composite curves); a file where such references loop back (never valid IFC, but easy to write by hand
or by a hostile tool) makes it recurse until the process dies. ``reference_cycle`` finds such loops
with an iterative search so that the file can be refused with a clear message instead.
"""

from __future__ import annotations

from typing import Any

import ifcopenshell

# Entities the kernel follows: where a loop would be fatal.
DOMAIN = ("IfcObjectPlacement", "IfcRepresentationItem", "IfcRepresentationMap", "IfcRepresentation")
# Kinds that cannot lie on a loop by their attribute types (they only lead to kinds that never lead back),
# left out to keep the search fast: coordinates, polygons, faces and shells, styles.
CANNOT_LOOP = ("IfcCartesianPoint", "IfcDirection", "IfcCartesianPointList", "IfcPolyLoop", "IfcFace",
               "IfcFaceBound", "IfcConnectedFaceSet", "IfcPolyline", "IfcIndexedPolygonalFace", "IfcStyledItem")


def _ids(model: ifcopenshell.file, classes: tuple[str, ...]) -> set[int]:
    out: set[int] = set()
    for cls in classes:
        try:
            out.update(e.id() for e in model.by_type(cls))
        except RuntimeError:  # the class is not in this schema
            continue
    return out


def _references(entity: Any) -> list[int]:
    """Ids of the instances ``entity``'s attributes point at (through lists and select wrappers)."""
    out: list[int] = []
    stack = list(entity)
    while stack:
        value = stack.pop()
        if isinstance(value, ifcopenshell.entity_instance):
            if value.id():
                out.append(value.id())
            else:
                stack.extend(value)  # a typed value wrapping further references
        elif isinstance(value, tuple):
            stack.extend(value)
    return out


def reference_cycle(model: ifcopenshell.file) -> str | None:
    """A short description of a reference loop among placements and geometry, or None when there is none."""
    domain = _ids(model, DOMAIN) - _ids(model, CANNOT_LOOP)
    colour: dict[int, int] = {}  # 1: on the current path, 2: done
    for start in domain:
        if start in colour:
            continue
        path: list[tuple[int, list[int]]] = [(start, [r for r in _references(model.by_id(start)) if r in domain])]
        colour[start] = 1
        while path:
            node, todo = path[-1]
            if not todo:
                colour[node] = 2
                path.pop()
                continue
            nxt = todo.pop()
            state = colour.get(nxt)
            if state == 1:
                loop = [n for n, _ in path][[n for n, _ in path].index(nxt):] + [nxt]
                names = " -> ".join(f"#{n} {model.by_id(n).is_a()}" for n in loop[:6])
                return names + (" -> ..." if len(loop) > 6 else "")
            if state is None:
                colour[nxt] = 1
                path.append((nxt, [r for r in _references(model.by_id(nxt)) if r in domain]))
    return None
