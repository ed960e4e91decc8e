"""Structural checks on an IFC model before any geometry is computed from it.

The geometry kernel follows references recursively (placement chains, boolean operands, mapped items,
composite curves); a file where such references loop back (never valid IFC, but easy to write by hand
or by a hostile tool), or go thousands deep (valid, but no modelling tool writes it), makes it recurse
until the process dies. ``reference_problem`` finds both with an iterative search so that the file can
be refused with a clear message instead.
"""

from __future__ import annotations

import re
from typing import Any

import ifcopenshell
import numpy as np
from ifcopenshell import ifcopenshell_wrapper

# Entities the kernel follows: where a loop would be fatal.
DOMAIN = ("IfcObjectPlacement", "IfcRepresentationItem", "IfcRepresentationMap", "IfcRepresentation")
# Kinds that cannot lie on a loop by their attribute types (they only lead to kinds that never lead back),
# left out to keep the search fast: coordinates, polygons, faces and shells, styles.
CANNOT_LOOP = ("IfcCartesianPoint", "IfcDirection", "IfcCartesianPointList", "IfcPolyLoop", "IfcFace",
               "IfcFaceBound", "IfcConnectedFaceSet", "IfcPolyline", "IfcIndexedPolygonalFace", "IfcStyledItem")


def _concrete(schema: str, roots: tuple[str, ...], minus: frozenset[str]) -> list[str]:
    """The instantiable classes under ``roots`` in ``schema``, leaving out ``minus`` and what is under them."""
    out: list[str] = []
    stack: list[Any] = []
    for name in roots:
        try:
            stack.append(ifcopenshell_wrapper.schema_by_name(schema).declaration_by_name(name))
        except (RuntimeError, IndexError):  # the class is not in this schema
            continue
    while stack:
        decl = stack.pop()
        if decl.name() in minus:
            continue
        if not decl.is_abstract():
            out.append(decl.name())
        stack.extend(decl.subtypes())
    return out


def _domain(model: ifcopenshell.file) -> set[int]:
    """Ids of the instances in ``DOMAIN`` but not in ``CANNOT_LOOP``, found class by class without reading
    the coordinates, faces and loops (most of a file's instances)."""
    out: set[int] = set()
    for cls in _concrete(model.schema_identifier, DOMAIN, frozenset(CANNOT_LOOP)):
        try:
            out.update(e.id() for e in model.by_type(cls, include_subtypes=False))
        except RuntimeError:  # not in this schema
            continue
    return out


# a string value (quotes inside written twice) and a reference, in an instance's STEP text
_STRING = re.compile(r"'(?:[^']|'')*'")
_REF = re.compile(r"#(\d+)")


def _references(entity: Any) -> list[int]:
    """Ids of the instances ``entity``'s attributes point at (through lists and select wrappers), read from
    its STEP text (one call into the library instead of one per attribute); text in strings is not read."""
    text = str(entity)
    return [int(n) for n in _REF.findall(_STRING.sub("", text[text.index("=") + 1:]))]


#: The longest chain of references (placement relative to placement, boolean of boolean, ...) accepted. Real
#: models stay far below (a few dozen); the kernel recurses once per link, and a chain of thousands overflows
#: its stack and kills the process.
MAX_REFERENCE_DEPTH = 256


def _sound(model: ifcopenshell.file, max_depth: int) -> bool:
    """Whether the domain's references are free of loops and no chain is longer than ``max_depth``: the
    instances are peeled off level by level, those whose references all lead to peeled ones first (numpy
    over all references at once). Anything left unpeeled lies on or leads to a loop."""
    ids: list[int] = []
    texts: list[str] = []
    for cls in _concrete(model.schema_identifier, DOMAIN, frozenset(CANNOT_LOOP)):
        try:
            found = model.by_type(cls, include_subtypes=False)
        except RuntimeError:  # not in this schema
            continue
        for e in found:
            ids.append(e.id())
            texts.append(str(e))
    n = len(ids)
    if n == 0:
        return True
    refs = [_REF.findall(_STRING.sub("", body) if "'" in body else body)
            for body in (text[text.index("=") + 1:] for text in texts)]
    src = np.repeat(np.arange(n, dtype=np.int64), [len(r) for r in refs])
    joined = " ".join(" ".join(r) for r in refs if r)
    dst = np.array(joined.split(), np.int64) if joined else np.zeros(0, np.int64)
    sorted_ids = np.array(ids, np.int64)
    by_id = np.argsort(sorted_ids, kind="stable")
    sorted_ids = sorted_ids[by_id]
    to = dst
    at = np.clip(np.searchsorted(sorted_ids, to), 0, n - 1)
    inside = sorted_ids[at] == to  # references out of the domain lead nowhere that loops
    frm, to_k = src[inside], by_id[at[inside]]
    remaining = np.bincount(frm, minlength=n)  # references not yet peeled, per instance
    order = np.argsort(to_k, kind="stable")
    referrers = frm[order]
    starts = np.searchsorted(to_k[order], np.arange(n + 1))
    layer = np.flatnonzero(remaining == 0)
    peeled, depth = len(layer), 1
    while len(layer):
        if depth > max_depth:
            return False
        counts = starts[layer + 1] - starts[layer]
        total = int(counts.sum())
        if total == 0:
            break
        first = np.repeat(starts[layer], counts)
        offset = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        up = referrers[first + offset]
        np.subtract.at(remaining, up, 1)
        up = np.unique(up)
        layer = up[remaining[up] == 0]
        peeled += len(layer)
        depth += 1
    return peeled == n


def reference_problem(model: ifcopenshell.file, max_depth: int = MAX_REFERENCE_DEPTH) -> str | None:
    """A reference loop, or a chain deeper than ``max_depth``, among placements and geometry: a short
    description for a person, or None when the references are sound. Sound references are told by
    ``_sound``; only where they are not, one iterative depth-first search finds what to say."""
    if _sound(model, max_depth):
        return None
    domain = _domain(model)
    colour: dict[int, int] = {}  # 1: on the current path, 2: done
    depth: dict[int, int] = {}  # done nodes: the longest chain starting there
    def children(n: int) -> list[int]:
        return [r for r in _references(model.by_id(n)) if r in domain]

    for start in domain:
        if start in colour:
            continue
        first = children(start)
        path: list[tuple[int, list[int], list[int]]] = [(start, list(first), first)]
        colour[start] = 1
        while path:
            node, todo, kids = path[-1]
            if not todo:
                colour[node] = 2
                depth[node] = 1 + max((depth[r] for r in kids), default=0)
                if depth[node] > max_depth:
                    return f"its references are nested more than {max_depth} deep (#{node} {model.by_id(node).is_a()})"
                path.pop()
                continue
            nxt = todo.pop()
            state = colour.get(nxt)
            if state == 1:
                ring = [n for n, _, _ in path]
                loop = ring[ring.index(nxt):] + [nxt]
                names = " -> ".join(f"#{n} {model.by_id(n).is_a()}" for n in loop[:6])
                return "its references go round in a loop (" + names + (" -> ..." if len(loop) > 6 else "") + ")"
            if state is None:
                colour[nxt] = 1
                nk = children(nxt)
                path.append((nxt, list(nk), nk))
                if len(path) > max_depth:
                    return f"its references are nested more than {max_depth} deep (#{nxt} {model.by_id(nxt).is_a()})"
    return None


def reference_cycle(model: ifcopenshell.file) -> str | None:
    """A short description of a reference loop among placements and geometry, or None when there is none."""
    problem = reference_problem(model, max_depth=1 << 30)
    return problem[len("its references go round in a loop ("):-1] if problem else None
