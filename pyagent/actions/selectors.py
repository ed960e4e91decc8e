"""Selector resolution: which elements a selector means, given the scene, the pose and memory."""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pyagent.actions.state import SceneState
from pyagent.language.building_words import GLOSSARY
from pyagent.model import OUTSIDE, Building, Element, Pose, Storey
from pyagent.review.sections import cut_away
from pyagent.scenegraph import SceneGraph
from pyagent.spatial import EYE_HEIGHT, NEAR_M, NEXT_TO_M, SpatialIndex
from pyagent.vocabulary import (
    BROADER_KINDS,
    KIND_CLASSES,
    KIND_WORDS,
    KINDS_FOUND_BY_SHAPE,
    MEMBERS_BY_HEIGHT,
    class_matches,
    class_noun,
    names_kind,
    plural,
    singular_noun,
)

DIRECTIONAL = ("in_front", "behind", "left", "right")
#: Classes never looked for by name where the file has none (rooms and storeys are the building's own lists).
_NOT_BY_NAME = frozenset({"IfcSpace", "IfcBuildingStorey", "IfcBuilding", "IfcSite", "IfcProject"})
#: A wall this much higher than the topmost slab stands on it (the slab is a floor, not the roof); slabs whose
#: bottoms are this close to the topmost one are on its level.
_STOREY_HIGH_M = 1.2
_SAME_LEVEL_M = 0.3
#: A column or wall filed on a lower storey is also on a storey it rises this far into (through both floors).
RISES_INTO_M = 1.5
_RISING_CLASSES = ("IfcColumn", "IfcWall", "IfcCurtainWall")
#: A storey at least this far above another is the next one up (not a second level of the same floor); a column or
#: wall whose foot is within ``STANDS_ON_M`` of that level, or over it, stands on it.
NEXT_STOREY_M = 1.5
STANDS_ON_M = 0.05
#: Where nothing lies within 45 degrees of a compass direction, what lies this close to the nearest way to it.
COMPASS_SLACK_DEG = 10.0
#: Over or under a thing thinner than this in plan (a door, a window, a wall) is also what starts within
#: ``OVER_THIN_SLACK_M`` of it (a canopy over a door begins at the wall's outer face).
THIN_IN_PLAN_M = 0.6
OVER_THIN_SLACK_M = 0.3
# How much wider in plan than a thing what is under it may be and still fit under it (a heater under a window).
UNDER_FITS_SLACK_M = 1.0
SIDE_WORDS = {"in_front": "in front of you", "behind": "behind you", "left": "to your left", "right": "to your right"}
# Classes never picked unless asked for by class: the spatial structure.
STRUCTURE = ("IfcSite", "IfcBuilding", "IfcBuildingStorey", "IfcSpace")
# How far inside the outline an element may stand and still be on the outside (a door in an outer wall).
ON_OUTLINE_M = 0.4
# Words after which an element name goes on about something else ("Table w Chairs" is a table).
NAME_TAIL = re.compile(r"(?:\s(?:w/?|with|mit|con|avec|and|und|y|et|\+|&)\s|[_\-](?:w|with|mit|avec|con)[_\-]).*$")


def _plan_share(bmin: np.ndarray, bmax: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """For each box (rows of ``bmin``/``bmax``, in plan), how much of the smaller of it and the box ``lo``-``hi``
    the two share (1 where either has no area in plan)."""
    inter = np.prod(np.clip(np.minimum(bmax, hi) - np.maximum(bmin, lo), 0.0, None), axis=1)
    smaller = np.minimum(np.prod(bmax - bmin, axis=1), float(np.prod(hi - lo)))
    return np.where(smaller > 1e-9, inter / np.maximum(smaller, 1e-9), 1.0)


class SelectionError(Exception):
    """The selector cannot be resolved; the message is for the user."""


def storey_at_pose(building: Building, graph: SceneGraph, spatial: SpatialIndex, pose: Pose) -> Storey | None:
    """The storey the user stands on: the highest floor level at or below their feet, unless the room at their
    feet belongs to a storey below that one (a file whose roof storey sits 10 cm under the upper rooms'
    floors: the user in an upper room is on the upper floor, not on the roof)."""
    storey = spatial.storey_of_point(float(pose.position[2]))
    if storey is None:
        return None
    feet = pose.position.copy()
    feet[2] -= EYE_HEIGHT - 0.5
    room = graph.room_at(feet)
    el = building.elements.get(room) if room is not None else None
    own = building.storey(el.storey) if el is not None else None
    # (only where the room's own floor is up at that level: not a double-height room of the floor below)
    if own is not None and el is not None and own.id != storey.id and own.elevation < storey.elevation \
            and float(el.bbox_min[2]) >= storey.elevation - 0.3:
        return own
    return storey


@dataclass
class Context:
    building: Building
    graph: SceneGraph
    spatial: SpatialIndex
    state: SceneState
    last_ids: list[str] = field(default_factory=list)
    step_values: list[Any] = field(default_factory=list)
    # Side effects outside the scene state (saving a file, recording a note), run only once every
    # step has succeeded: (index of the answer to fill in, callable giving the answer text).
    pending: list[tuple[int, Any]] = field(default_factory=list)

    @property
    def pose(self) -> Pose:
        return self.state.pose

    def user_storey(self) -> Storey | None:
        return storey_at_pose(self.building, self.graph, self.spatial, self.pose)

    def user_room(self) -> str | None:
        """The room the user stands in: the one at their feet (a gallery or a second level within one storey),
        else the one of their storey under them."""
        p = self.pose.position.copy()
        p[2] -= EYE_HEIGHT - 0.5
        room = self.graph.room_at(p)
        if room is not None:
            return room
        storey = self.user_storey()
        if storey is None:
            return None
        p[2] = storey.elevation + 0.5
        return self.graph.room_at(p)


def noun_for(sel: dict[str, Any], n: int = 1, b: Building | None = None) -> str:
    """A short noun phrase for what a selector asks for ("door", "windows", "sofas")."""
    name = f"'{sel['name']}' " if sel.get("name") and (sel.get("kind") or sel.get("class")) else ""
    if sel.get("kind"):
        return name + plural(sel["kind"], n)
    classes = sel.get("class") or []
    if classes:
        # "doors and windows"; but "walls" for walls with their curtain walls (a kind of the first)
        nouns: list[str] = []
        for c in classes:
            noun = class_noun(c)
            if noun not in nouns and not any(noun.endswith(f" {k}") for k in nouns):
                nouns.append(noun)
        return name + (" and " if n != 1 else " or ").join(plural(noun, n) for noun in nouns[:3])
    if sel.get("name"):
        return f"'{sel['name']}'"
    return plural("element", n)


def resolve_storey(b: Building, ctx: Context, spec: str) -> Storey:
    s = spec.strip().lower()
    storeys = b.storeys
    if not storeys:
        raise SelectionError("this building has no storeys")
    ground = b.storey(b.ground_storey) or storeys[0]
    mine = ctx.user_storey() or ground
    if s in ("mine", "current", "this", "my"):
        return mine
    if s in ("ground", "ground floor", "first"):
        return ground
    if s in ("upper", "above", "up", "upstairs", "next"):
        higher = [st for st in storeys if st.index > mine.index]
        if s == "upper" and mine.index < ground.index + 1:
            higher = [st for st in storeys if st.index > ground.index]
        if not higher:
            raise SelectionError(f"there is no storey above {mine.name}")
        return higher[0]
    if s in ("below", "down", "downstairs", "lower"):
        lower = [st for st in storeys if st.index < mine.index]
        if not lower:
            raise SelectionError(f"there is no storey below {mine.name}")
        return lower[-1]
    if s in ("top", "highest", "last"):
        return storeys[-1]
    if s in ("lowest", "bottom", "basement"):
        return storeys[0]
    for st in storeys:
        if s in (st.id.lower(), st.name.lower(), st.long_name.lower()):
            return st
    for st in storeys:
        if s in st.name.lower() or (st.long_name and s in st.long_name.lower()):
            return st
    names = ", ".join(st.name for st in storeys)
    raise SelectionError(f"there is no storey called '{spec}' (storeys: {names})")


def resolve_room(b: Building, ctx: Context, spec: str) -> list[str]:
    s = spec.strip().lower()
    if s in ("mine", "here", "this", "current", "my"):
        room = ctx.user_room()
        if room is None:
            raise SelectionError("you are not inside a room")
        return [room]
    spaces = b.spaces()
    exact = [sp.id for sp in spaces if s in (sp.id.lower(), sp.name.lower(), sp.long_name.lower())]
    if not exact:
        exact = [sp.id for sp in spaces if s in sp.name.lower() or s in sp.long_name.lower()]
    if not exact:
        names = ", ".join(sorted({sp.label() for sp in spaces})) or "none"
        raise SelectionError(f"there is no room called '{spec}' (rooms: {names})")
    if len(exact) > 1:
        # Same name in several places (duplex units): the user's own room, else the nearest on the
        # user's storey; different names ("Bedroom 1", "Bedroom 2") stay several.
        here = ctx.user_room()
        if here in exact:
            return [here]
        mine = ctx.user_storey()
        local = [r for r in exact if mine and b.elements[r].storey == mine.id] or exact
        labels = {b.elements[r].label() for r in local}
        if len(labels) == 1:
            eye = ctx.pose.position
            return [min(local, key=lambda r: float(np.linalg.norm(b.elements[r].centre[:2] - eye[:2])))]
        return local
    return exact


def _matches_kind(el: Element, kind: str) -> bool:
    """The kind is what the element's names say it is, not what they mention after 'with': a word of the kind
    as a part of a compound, at its start or end ("Waschbecken", "Dachfenster"), not inside another word
    (the "loo" of "Subflooring")."""
    words = KIND_WORDS.get(kind.lower(), (kind.lower(),))
    text = " ".join(NAME_TAIL.sub("", t.lower()) for t in (el.name, el.object_type, el.type_name, el.long_name))
    return names_kind(words, text)


def _matches_name(el: Element, name: str) -> bool:
    n = name.lower()
    return n == el.id.lower() or any(n in t.lower() for t in (el.name, el.long_name, el.object_type, el.type_name))


_NAME_WORD = re.compile(r"[^\W_]+")


def _name_texts(el: Element) -> tuple[str, ...]:
    return (el.name, el.long_name, el.object_type, el.type_name)


def _whole_words(words: tuple[str, ...], plurals: bool) -> re.Pattern[str]:
    """Any of ``words`` as whole words ("Room I" is not in "Room II"; a bed is not a bedside table),
    with ``plurals`` also "beds"."""
    alternatives = "|".join(re.escape(w) for w in words)
    return re.compile(rf"(?<![^\W_])(?:{alternatives}){'(?:s|es)?' if plurals else ''}(?![^\W_])")


def _word_set(text: str) -> set[str]:
    """The words of a name, singular, without what follows "with" ("Table_Dining_w-Chairs" is a table)."""
    return {singular_noun(w) for w in _NAME_WORD.findall(NAME_TAIL.sub("", text.lower()))}


@dataclass
class _Verdicts:
    """What each test of a name or kind said of each row so far (-1 not asked yet), for one list of ids."""

    els: dict[str, Element]
    ids: list[str]
    said: list[np.ndarray]


#: Verdicts kept per (list of ids, test family, word): names do not change, so a word is matched against a
#: row's names once, not on every request ("the door in front of me" in a file of 2,600 unnamed beams).
_VERDICTS: OrderedDict[tuple[int, int, str, str], _Verdicts] = OrderedDict()
_VERDICTS_KEPT = 256


def _verdicts(els: dict[str, Element], ids: list[str], family: str, word: str, n_tests: int) -> list[np.ndarray]:
    key = (id(els), id(ids), family, word)
    got = _VERDICTS.get(key)
    if got is None or got.els is not els or got.ids is not ids:
        got = _Verdicts(els, ids, [np.full(len(ids), -1, np.int8) for _ in range(n_tests)])
        _VERDICTS[key] = got
        if len(_VERDICTS) > _VERDICTS_KEPT:
            _VERDICTS.popitem(last=False)
    else:
        _VERDICTS.move_to_end(key)
        if len(got.said[0]) < len(ids):  # the list grew: the new rows are not asked yet
            got.said = [np.concatenate([s, np.full(len(ids) - len(s), -1, np.int8)]) for s in got.said]
    return got.said


def _graded(rows: np.ndarray, tests: list[Callable[[int], bool]],
            said: list[np.ndarray] | None = None) -> np.ndarray:
    """The rows the first test that keeps any keeps (the strictest reading that means something); with
    ``said``, each test's verdicts on rows already asked are reused and the new ones kept."""
    hit = rows
    for i, test in enumerate(tests):
        if not len(rows):
            return rows
        if said is None:
            hit = rows[[test(r) for r in rows]]
        else:
            verdict = said[i]
            todo = rows[verdict[rows] < 0]
            if len(todo):
                verdict[todo] = [test(r) for r in todo]
            hit = rows[verdict[rows] == 1]
        if len(hit):
            return hit
    return hit


#: How far under a storey's level a joist's top may be (metres: the floor's finish and boards).
JOIST_DEPTH_M = 0.6
#: Bracing found by its slant: both its rise and its run at least ``BRACE_MIN_M``, the smaller at least
#: ``BRACE_SLANT`` of the larger (about 17 degrees off level or plumb), and thin across (at most ``BRACE_THIN`` of it).
BRACE_MIN_M = 0.5
BRACE_SLANT = 0.3
BRACE_THIN = 0.2
#: How far over the top storey's level a roof member's bottom is at least (metres: above a storey's rooms).
ROOF_ABOVE_M = 2.0

#: Classes whose things are a window, a door, a room or furniture whatever else their names say: never taken
#: for another class the file has none of by a word of their names.
_NAMED_OTHERWISE = frozenset({"IfcWindow", "IfcDoor", "IfcSpace", "IfcFurnishingElement", "IfcFurniture",
                              "IfcOpeningElement"})


def kind_rows(els: dict[str, Element], ids: list[str], rows: np.ndarray, kind: str,
              remember: bool = False) -> np.ndarray:
    """Rows of that kind: by whole words where any are, else by the words inside names (compounds); with
    ``remember``, the verdicts are kept for the next call with the same ``ids`` list (a spatial index's)."""
    whole = _whole_words(KIND_WORDS.get(kind.lower(), (kind.lower(),)), plurals=True)

    def by_whole_words(r: int) -> bool:
        el = els[ids[r]]
        return bool(whole.search(" ".join(NAME_TAIL.sub("", t.lower()) for t in
                                          (el.name, el.object_type, el.type_name, el.long_name))))

    hit = _graded(rows, [by_whole_words, lambda r: _matches_kind(els[ids[r]], kind)],
                  _verdicts(els, ids, "kind", kind.lower(), 2) if remember else None)
    broader = BROADER_KINDS.get(kind.lower())
    if not len(hit) and broader is not None:
        return kind_rows(els, ids, rows, broader, remember)
    return hit


def name_rows(els: dict[str, Element], ids: list[str], rows: np.ndarray, name: str,
              remember: bool = False) -> np.ndarray:
    """Rows whose element the name means: whole-word matches where there are any, else the name inside
    a name (prefixes, compounds), else all its words in any order ("dining chairs" for "Chair - Dining");
    ``remember`` as in ``kind_rows``."""
    lowered = name.lower()
    whole = _whole_words((lowered,), plurals=False)
    wanted = _word_set(lowered)

    def by_whole_words(r: int) -> bool:
        el = els[ids[r]]
        return lowered == el.id.lower() or any(whole.search(t.lower()) for t in _name_texts(el))

    def by_all_words(r: int) -> bool:
        return bool(wanted) and any(wanted <= _word_set(t) for t in _name_texts(els[ids[r]]))

    return _graded(rows, [by_whole_words, lambda r: _matches_name(els[ids[r]], name), by_all_words],
                   _verdicts(els, ids, "name", lowered, 3) if remember else None)


def element_value(el: Element, key: str) -> Any:
    """A property, quantity or dimension of an element by an everyday key; None when it has none."""
    k = key.strip().lower().replace(" ", "_")
    aliases = {"heavy": "weight", "mass": "weight",
               "tall": "height", "high": "height", "wide": "width", "deep": "depth", "thick": "thickness",
               "long": "width", "length": "width", "size": "area", "floor_area": "area"}
    k = aliases.get(k, k)
    if k in ("height", "width", "depth"):
        return el.dims.get(k)
    if k == "thickness":  # the thinnest way through: a wall's depth, a slab's height, a door leaf's depth
        sizes = [el.dims[d] for d in ("width", "depth", "height") if el.dims.get(d)]
        return min(sizes) if sizes else None
    if k in ("area", "volume", "perimeter", "surface_area"):
        return el.quantities.get(k)
    if k == "elevation":
        return float(el.bbox_min[2])
    if k in ("top", "top_elevation"):
        return float(el.bbox_max[2])
    if k == "name":
        return el.label()
    if k in ("class", "type"):
        return el.type_name or el.ifc_class
    if k == "material":
        return ", ".join(el.materials) or None
    if k in ("color", "colour"):
        return list(el.color) if el.color else None
    if k == "external":
        return el.external
    names = [key.lower(), k] + (["mass", "weight"] if k == "weight" else [])
    for name in names:
        for pk, pv in el.properties.items():
            if pk.lower() == name or pk.lower().endswith("." + name):
                return pv
    for name in names:
        squeezed = name.replace(" ", "").replace("_", "")
        for pk, pv in el.properties.items():
            if squeezed in pk.lower().replace(" ", "").replace("_", ""):
                return pv
    if k in ("room_number", "number") and el.ifc_class == "IfcSpace":  # a room's Name is its number
        return el.name or None
    if k in ("profile", "section", "profile_name", "cross_section"):  # no such property: the type names it
        return el.type_name or el.object_type or None                   # (Tekla's "HEB300", "PL20*300")
    if k.endswith(("grade", "strength_class", "quality")):  # "steel grade" with no such property: the
        return ", ".join(el.materials) or None              # material names the grade (S235JR, C30/37)
    return None


def _level(b: Building, el: Element, otherwise: float) -> float:
    """A storey's own level (its element has no body to measure), else ``otherwise``."""
    if el.ifc_class == "IfcBuildingStorey":
        st = b.storey(el.id)
        if st is not None:
            return st.elevation
    return otherwise


def _compare(value: Any, cmp: str, target: Any) -> bool:
    if value is None:
        return cmp == "ne"
    if cmp == "contains":
        return str(target).lower() in str(value).lower()
    if isinstance(target, bool) or isinstance(value, bool):
        same = bool(value) == bool(target) if isinstance(value, bool) else str(value).lower() == str(target).lower()
        return same if cmp == "eq" else (not same if cmp == "ne" else False)
    if isinstance(target, (int, float)) and isinstance(value, (int, float)):
        v, t = float(value), float(target)
        return {"eq": abs(v - t) < 1e-6, "ne": abs(v - t) >= 1e-6, "lt": v < t, "le": v <= t + 1e-9,
                "gt": v > t, "ge": v >= t - 1e-9}[cmp]
    same = str(value).lower() == str(target).lower()
    return same if cmp == "eq" else (not same if cmp == "ne" else False)


#: "The kitchen" among several: the nearest when it is at least this many times nearer than the next one
#: and this many metres nearer.
CLEARLY_NEARER = 2.0
CLEARLY_NEARER_M = 3.0
#: Rooms on different storeys whose plans overlap this much (metres, each way) are over one another.
STACKED_OVERLAP_M = 0.5
#: "The rafters in the roof" where the file records no parts: centres within the roof's box and this margin.
WITHIN_M = 0.3


#: A room over or under another shares at least this much of its plan (sampled on PLAN_SAMPLES x PLAN_SAMPLES
#: points): a room whose box only reaches over a corner of an L-shaped room's is not under it.
STACKED_SHARE = 0.15
# How much of each other's plan two rooms of one name and storey cover to be the same room drawn twice.
DRAWN_AGAIN_SHARE = 0.8
PLAN_SAMPLES = 9
#: A number in a room's name: digits (with a decimal point: "1.11"), or letters and digits ("H2", "WE3").
_NUMBER_WORD = re.compile(r"[0-9a-z]*[0-9][0-9a-z.]*")
#: "The lamp over the table" where several things are tables: each is tried as the anchor up to this many.
MAX_ANCHORS_TRIED = 8


class Resolver:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.b = ctx.building
        self.sp = ctx.spatial
        self._needs_reach = False

    # ---- entry point ----------------------------------------------------------------------
    def resolve(self, sel: dict[str, Any], need_one: bool = False) -> list[str]:
        props = self._props(sel)
        try:
            rows = self._rows(sel)
        except SelectionError:
            if props:
                return props
            raise
        if need_one and len(rows) > 1 and not sel.get("order") and not sel.get("ordinal"):
            raise SelectionError(self._which_one(sel, rows))
        ids = [self.sp.ids[r] for r in rows]
        if props and (not ids or self._explicit(sel)):
            return props if not ids else ids + [p for p in props if p not in ids]
        return ids

    @staticmethod
    def _explicit(sel: dict[str, Any]) -> bool:
        return any(k in sel for k in ("ref", "ids", "step"))

    def _props(self, sel: dict[str, Any]) -> list[str]:
        """Placed props a selector means: by reference (it, selected, ids, step) or by kind (their asset)."""
        placed = {p["id"]: p for p in self.ctx.state.props}
        if not placed:
            return []
        if self._explicit(sel):
            wanted: list[str] = []
            if "step" in sel and sel["step"] < len(self.ctx.step_values):
                value = self.ctx.step_values[sel["step"]]
                wanted = [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
            if sel.get("ref") == "it":
                wanted = list(self.ctx.last_ids)
            elif sel.get("ref") == "selected":
                wanted = list(self.ctx.state.selected)
            wanted += list(sel.get("ids") or [])
            return [g for g in dict.fromkeys(wanted) if g in placed]
        kind = (sel.get("kind") or "").lower()
        if not kind:
            return []
        found = [p for p in placed.values() if p["asset"] == kind or kind in KIND_WORDS.get(p["asset"], ())]
        eye = self.ctx.pose.position
        found.sort(key=lambda p: float(np.linalg.norm(np.asarray(p["position"][:2]) - eye[:2])))
        if sel.get("order") == "furthest":
            found.reverse()
        if sel.get("limit"):
            found = found[:sel["limit"]]
        return [p["id"] for p in found]

    # ---- candidates -----------------------------------------------------------------------
    def _base(self, sel: dict[str, Any]) -> np.ndarray:
        ctx, b = self.ctx, self.b
        explicit: list[str] | None = None
        if "step" in sel:
            i = sel["step"]
            if i >= len(ctx.step_values):
                raise SelectionError(f"step {i} has no result yet")
            value = ctx.step_values[i]
            if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                raise SelectionError(f"step {i} did not return elements")
            explicit = list(value)
        ref = sel.get("ref")
        if ref == "it":
            if not ctx.last_ids:
                raise SelectionError("I don't know what 'it' refers to yet: name or point at something first")
            explicit = _intersect(explicit, ctx.last_ids)
        elif ref == "selected":
            if not ctx.state.selected:
                raise SelectionError("nothing is selected: point at an element first")
            explicit = _intersect(explicit, ctx.state.selected)
        if "ids" in sel:
            placed = {p["id"] for p in ctx.state.props}
            unknown = [g for g in sel["ids"] if g not in b.elements and g not in placed]
            if unknown:
                raise SelectionError(f"unknown element id {unknown[0]}")
            explicit = _intersect(explicit, sel["ids"])
        deleted = ctx.state.deleted
        if explicit is not None:
            return np.array([self.sp.index[g] for g in explicit if g in self.sp.index and g not in deleted], int)
        wants_structure = any(c in STRUCTURE for c in sel.get("class") or [])
        keep = np.ones(len(self.sp.ids), bool) if wants_structure else ~self.sp.structure
        if deleted:
            keep[self.sp.rows_of(deleted)] = False
        return np.nonzero(keep)[0]

    def _rows(self, sel: dict[str, Any]) -> np.ndarray:
        ctx, b, sp = self.ctx, self.b, self.sp
        rows = self._base(sel)
        els = b.elements
        ids = sp.ids
        if sel.get("class"):
            of_class = sp.class_mask(frozenset(sel["class"]))
            if of_class.any() or sel.get("ids"):
                rows = rows[of_class[rows]]
            else:  # the file has none of the class: what its names call so ("Roofplate" typed slabs for the roof)
                noun = class_noun(sel["class"][0])
                every = rows
                by_name = sel["class"][0] not in _NOT_BY_NAME
                rows = kind_rows(els, ids, rows, noun, remember=True) if by_name else rows[:0]
                other = GLOSSARY.get(noun)
                if not len(rows) and other and by_name:
                    # "the walls" of a file whose panels are named WAND
                    rows = kind_rows(els, ids, every, other, remember=True)
                # ... but not things of a class named otherwise ("Roof Window" is a window, not the roof)
                rows = rows[~sp.class_mask(_NAMED_OTHERWISE - frozenset(sel["class"]))[rows]]
                if not len(rows) and sel["class"] == ["IfcRoof"]:
                    rows = self._covering_slabs(self._base(sel))
        if sel.get("kind") and sel.get("name"):
            kinds = kind_rows(els, ids, rows, sel["kind"], remember=True)
            both = name_rows(els, ids, kinds, sel["name"], remember=True)
            if not len(both):  # "the kitchen counter" where the counter is a fitting named "kitchen": the name alone
                both = name_rows(els, ids, rows[sp.class_mask(KIND_CLASSES)[rows]], sel["name"], remember=True)
            if not len(both) and sel.get("limit") == 1 and len(kinds) == 1:
                both = kinds  # "the dining table" in a house with one table: the word only describes it
            rows = both
        elif sel.get("kind"):
            base_rows = rows
            rows = kind_rows(els, ids, rows, sel["kind"], remember=True)
            kind = str(sel["kind"]).lower()
            if not len(rows) and kind in KINDS_FOUND_BY_SHAPE:  # none named so: where or how they lie
                rows = self._members_by_height(base_rows, kind) if kind in MEMBERS_BY_HEIGHT \
                    else self._diagonal_members(base_rows)
        elif sel.get("name"):
            rows = name_rows(els, ids, rows, sel["name"], remember=True)
        if sel.get("storey"):
            st = resolve_storey(b, ctx, sel["storey"])
            on = sp.storey_of[rows] == st.id
            # a column or wall filed on a storey below that rises through this one is on it too
            rising = (sp.bmin[rows, 2] <= st.elevation) & (sp.bmax[rows, 2] >= st.elevation + RISES_INTO_M) & ~on
            # ... and one filed on this storey that stands wholly on the next one up is on that one, not this one
            # (columns of the upper floor filed with the ground floor's)
            higher = [o.elevation for o in b.storeys if o.elevation >= st.elevation + NEXT_STOREY_M]
            up = (sp.bmin[rows, 2] >= min(higher) - STANDS_ON_M) & on if higher else np.zeros(len(rows), bool)
            for moved in (rising, up):
                if moved.any():
                    moved[moved] = [els[ids[r]].ifc_class.startswith(_RISING_CLASSES) for r in rows[moved]]
            rows = rows[(on & ~up) | rising]
        if sel.get("room"):
            rooms = set(resolve_room(b, ctx, sel["room"]))
            # what is in those rooms or bounds them, and, asked of rooms, the rooms themselves ("the rooms in my
            # room" is my room: "how big is this room")
            asked_rooms = "IfcSpace" in (sel.get("class") or ())
            rows = rows[[bool(els[ids[r]].room in rooms or rooms & set(els[ids[r]].sides)
                              or asked_rooms and ids[r] in rooms) for r in rows]]
        if "external" in sel:
            outside = bool(sel["external"])
            rows = rows[[self._is_external(els[ids[r]]) == outside for r in rows]]
        if sel.get("ground"):
            rows = rows[self._ground_mask(rows, sel["ground"])]
        asked = frozenset(sel.get("class") or ())
        for f in sel.get("where") or []:
            said = [_compare(element_value(els[ids[r]], f["key"]), f["cmp"], f["value"]) for r in rows]
            if f["key"] in ("material", "materials") and asked:
                said = self._whole_made_of(rows, said, asked)
            rows = rows[said]
        pose_relative = False
        for rel in sel.get("relations") or []:
            rows, was_pose = self._relation(rows, rel, sel)
            pose_relative |= was_pose
        if sel.get("except"):
            but = sel["except"]
            if sel.get("class") and not set(but) & {"class", "ids", "ref", "step"}:
                but = {**but, "class": sel["class"]}  # "the rooms except those on the roof level": those rooms
            excluded = set(Resolver(ctx).resolve(but))
            rows = rows[[ids[r] not in excluded for r in rows]]
        rows = self._order(rows, sel, pose_relative)
        if self._needs_reach:
            self._needs_reach = False
            want: int | None = (sel.get("ordinal") or 0) + (sel.get("limit") or 0) \
                if (sel.get("ordinal") or sel.get("limit")) else None
            rows = self._reachable(rows, want)
        if not (sel.get("ordinal") or sel.get("limit")):
            return rows
        # Ordinals and limits count things as the person sees them: the parts of one bodiless window
        # (its frame members and pane) are one window, picked and acted on together.
        units = self._units(rows, sel)
        heads = np.array(sorted({u: i for i, u in reversed(list(enumerate(units)))}.values()), int)
        if sel.get("ordinal"):
            k = sel["ordinal"] - 1
            if k >= len(heads):
                raise SelectionError(f"there are only {len(heads)} {noun_for(sel, len(heads))}")
            heads = heads[k:k + 1]
        if sel.get("limit") == 1 and len(heads) > 1 and not sel.get("order") and not sel.get("ordinal") \
                and not pose_relative:
            heads = self._the_one(sel, rows[heads])
            heads = np.array([int(np.nonzero(rows == heads[0])[0][0])], int)
        if sel.get("limit"):
            heads = heads[:sel["limit"]]
        chosen = {units[i] for i in heads}
        if all(u.startswith("#") for u in chosen):
            return rows[heads]
        return self._with_parts(rows[heads], chosen)

    def _unit_picked(self, pick: str) -> set[str]:
        """The dwelling ``pick`` says: the one whose rooms' centre lies furthest east (west, north, south) in
        true-north terms, the one of the most (least) floor area, or the middle one of a row."""
        units = self.ctx.graph.units()
        if len(units) < 2:
            raise SelectionError("this building is not divided into separate dwellings")
        els = self.b.elements
        if pick in ("largest", "smallest"):
            def area(unit: set[str]) -> float:
                return float(sum(element_value(els[r], "area") or 0.0 for r in unit if r in els))
            return (max if pick == "largest" else min)(units, key=area)
        rows = [np.array([self.sp.index[r] for r in unit if r in self.sp.index], int) for unit in units]
        centres = np.array([self.sp.centre[r, :2].mean(axis=0) if len(r) else [np.nan, np.nan] for r in rows])
        if pick == "middle":  # the middle one of a row: along the line the dwellings' centres spread out most
            placed = np.flatnonzero(~np.isnan(centres[:, 0]))
            if len(placed) < 3 or len(placed) % 2 == 0:
                raise SelectionError(f"of {len(placed)} dwellings no one is in the middle")
            spread = centres[placed] - centres[placed].mean(axis=0)
            axis = np.linalg.svd(spread, full_matrices=False)[2][0]
            along = spread @ axis
            return units[int(placed[np.argsort(along)[len(placed) // 2]])]
        degrees = self.b.compass_heading(pick)
        if degrees is None:
            raise SelectionError(f"'{pick}' is no side of the building")
        heading = math.radians(degrees)
        score = centres @ np.array([math.cos(heading), math.sin(heading)])
        return units[int(np.nanargmax(score))]

    def _unit_numbered(self, number: str) -> set[str]:
        """The dwelling whose rooms' names (or long names) all carry ``number`` as a word of its own ("2" in
        "WOHNEN / KOCHEN-2-1" and "BAD-2-2", not in "BAD-3-2"); the only one that does."""
        units = self.ctx.graph.units()
        if len(units) < 2:
            raise SelectionError("this building is not divided into separate dwellings")
        want = number.lower()

        def says(room: str) -> bool:
            el = self.b.elements.get(room)
            if el is None:
                return False
            words = _NUMBER_WORD.findall(f"{el.name} {el.long_name}".lower())
            # a letter before the number names a wing or a dwelling ("A102", "B203": unit A, unit B)
            return want in words or len(want) == 1 and want.isalpha() and any(
                w[0] == want and w[1:].isdigit() for w in words)

        numbered = [u for u in units if u and all(says(r) for r in u)]
        if len(numbered) != 1:
            raise SelectionError(f"no dwelling here is numbered {number}" if not numbered
                                 else f"more than one dwelling here carries the number {number}")
        return numbered[0]

    def _covering_slabs(self, rows: np.ndarray) -> np.ndarray:
        """A roof the file records as plain slabs (no IfcRoof, no slab typed ROOF, none named so): the
        topmost slabs, when no wall stands a storey high on them (else they are an attic's floor)."""
        sp = self.sp
        slabs = rows[sp.class_mask(frozenset({"IfcSlab"}))[rows]]
        if not len(slabs):
            return slabs
        level = float(sp.bmin[slabs, 2].max())
        walls = np.nonzero(sp.class_mask(frozenset({"IfcWall"})))[0]
        if len(walls) and float(sp.bmax[walls, 2].max()) > level + _STOREY_HIGH_M:
            return slabs[:0]
        return slabs[sp.bmin[slabs, 2] >= level - _SAME_LEVEL_M]

    def _units(self, rows: np.ndarray, sel: dict[str, Any]) -> list[str]:
        """Per row, the thing it belongs to for counting: the bodiless whole it is a part of when the
        selector asked for the whole's class (a staircase's flights and stringers are one staircase) or not
        for the part's own, else itself (as '#row')."""
        wanted = set(sel.get("class") or ())
        out = []
        for r in rows:
            el = self.b.elements[self.sp.ids[r]]
            if wanted and el.whole is not None and (
                    el.whole_class is not None and class_matches(self.b.schema, el.whole_class, None, wanted)
                    or not class_matches(self.b.schema, el.ifc_class, el.properties.get("PredefinedType"), wanted)):
                out.append(el.whole)
            else:
                out.append(f"#{int(r)}")
        return out

    def _with_parts(self, picked: np.ndarray, chosen: set[str]) -> np.ndarray:
        """The picked rows with every other (not deleted) part of the chosen wholes, in pick order."""
        deleted = self.ctx.state.deleted
        extra = [self.sp.index[g] for g, el in self.b.elements.items()
                 if el.whole in chosen and g in self.sp.index and g not in deleted]
        seen = set(int(r) for r in picked)
        return np.array(list(picked) + [r for r in extra if r not in seen], int)

    def _the_one(self, sel: dict[str, Any], rows: np.ndarray) -> np.ndarray:
        """'The door' with several doors: the one in the user's room if that settles it; for rooms, the one
        in the user's house (a terrace, a duplex) if that settles it, then the one above or below the user's
        room; the only one on the user's floor; for rooms, one far nearer than the others; else ask."""
        room = self.ctx.user_room()
        spaces = all(self.b.elements[self.sp.ids[r]].ifc_class == "IfcSpace" for r in rows)
        way = [r["rel"] for r in sel.get("relations") or []]
        if spaces and way in (["above"], ["below"]):  # "the room above the kitchen": the one on the next floor
            # up (down), not one under the roof two floors higher
            storeys = [self.b.storey(self.b.elements[self.sp.ids[r]].storey) for r in rows]
            levels = [st.index for st in storeys if st is not None]
            if len(levels) == len(rows):
                nearest = min(levels) if way == ["above"] else max(levels)
                next_floor = rows[[lv == nearest for lv in levels]]
                if len(next_floor) == 1:
                    return next_floor
                rows = next_floor
        if room is not None:
            local = rows[[self.b.elements[self.sp.ids[r]].room == room or room in self.b.elements[self.sp.ids[r]].sides
                          for r in rows]]
            if len(local) == 1:
                return local
            if spaces:  # in a terrace of houses, "the bathroom upstairs": the one of the user's house; "the
                # kitchen downstairs": the one under the user's room
                unit = next((u for u in self.ctx.graph.units() if room in u), None)
                own = rows[self._in_rooms(rows, unit)] if unit is not None else rows[:0]
                if len(own) == 1:
                    return own
                stacked = rows[[self._stacked(room, self.sp.ids[r]) for r in rows]]
                if len(stacked) == 1:
                    return stacked
        band = self.sp.storey_band(self.ctx.user_storey())
        on_floor = rows[self.sp.on_band(rows, band)]
        if len(on_floor) == 1:  # the only one on the user's floor
            return on_floor
        pool = on_floor if len(on_floor) else rows
        d = self.sp.distances(self.ctx.pose.position, pool)
        pool = pool[np.argsort(d, kind="stable")]
        d = np.sort(d)
        # A room far nearer than any other of its kind ("the bathroom" in a terrace of houses, each with its
        # own): the one the user means. Rooms at similar distances ("the bedroom" of two): ask.
        if len(pool) > 1 and spaces and d[1] >= CLEARLY_NEARER * d[0] and d[1] - d[0] >= CLEARLY_NEARER_M:
            return pool[:1]
        raise SelectionError(self._which_one(sel, pool))

    def _stacked(self, room: str, other: str) -> bool:
        """Is room ``other`` on another storey, over or under room ``room`` (their plans overlap by at least
        ``STACKED_OVERLAP_M`` each way)?"""
        a, b = self.b.elements.get(room), self.b.elements.get(other)
        if a is None or b is None or a.storey == b.storey:
            return False
        lo = np.maximum(np.asarray(a.bbox_min[:2]), np.asarray(b.bbox_min[:2]))
        hi = np.minimum(np.asarray(a.bbox_max[:2]), np.asarray(b.bbox_max[:2]))
        return bool(np.all(hi - lo >= STACKED_OVERLAP_M))

    def _is_external(self, el: Element) -> bool:
        """The file's IsExternal (a false one only where the file marks some element of the class external, a
        true one only where it does not mark every one so: either way alone is the authoring tool's default);
        else a room boundary to the outside; else (no rooms, no property) the element standing on or outside
        the building's outline on its storey."""
        cls = el.ifc_class
        if el.external is not None and (el.external and cls not in self.b.classes_all_external
                                        or not el.external and cls in self.b.classes_marked_external):
            return el.external
        if el.sides:
            return OUTSIDE in el.sides
        r = self.sp.index[el.id]
        half = float(np.min(self.sp.bmax[r, :2] - self.sp.bmin[r, :2])) / 2.0
        return bool(self.sp.outside_depth(np.array([r]))[0] < half + ON_OUTLINE_M)

    # ---- relations ------------------------------------------------------------------------
    def _anchor_rows(self, of: dict[str, Any]) -> np.ndarray:
        anchor_ids = Resolver(self.ctx).resolve(of)
        if not anchor_ids:
            raise SelectionError(f"there is no {noun_for(of)} to relate to")
        return np.array([self.sp.index[g] for g in anchor_ids], int)

    def _drawn_again(self, room: str) -> set[str]:
        """The room and any room drawn again over it (a file with every room in it three times, each a little
        different): rooms of the same storey and use whose plans cover each other almost wholly."""
        el = self.b.elements[room]
        twins = {room}
        for other in self.b.spaces():
            if other.id == room or other.storey != el.storey or (other.long_name or other.name) != (
                    el.long_name or el.name):  # (numbered each time: the number differs, the room's name not)
                continue
            if not (np.all(other.bbox_max[:2] > el.bbox_min[:2]) and np.all(other.bbox_min[:2] < el.bbox_max[:2])):
                continue
            if min(self._plan_shared(room, other.id), self._plan_shared(other.id, room)) >= DRAWN_AGAIN_SHARE:
                twins.add(other.id)
        return twins

    def _plan_shared(self, room: str, other: str) -> float:
        """The share of ``room``'s plan that ``other``'s plan covers too (sampled on a grid over its box);
        1.0 where the room's plan is not known."""
        finder = self.ctx.graph.finder
        el = self.b.elements[room]
        xs = np.linspace(el.bbox_min[0], el.bbox_max[0], PLAN_SAMPLES + 2)[1:-1]
        ys = np.linspace(el.bbox_min[1], el.bbox_max[1], PLAN_SAMPLES + 2)[1:-1]
        grid = np.stack(np.meshgrid(xs, ys, indexing="ij"), axis=-1).reshape(-1, 2)
        mine = grid[finder.held(room, grid)]
        if not len(mine):
            return 1.0
        return float(finder.held(other, mine).mean())

    def _any_anchor(self, rows: np.ndarray, rel: dict[str, Any], sel: dict[str, Any]) -> np.ndarray | None:
        """"The brise-soleil over the terrace" where two things are called terrace (the slab and its footing):
        the rows the relation keeps with each of them; when only one keeps any, or all keep the same, which
        one was meant does not matter. None where it does (the question "which terrace?" stands)."""
        of = rel["of"]
        if of.get("limit") != 1:
            return None
        try:
            many = self._anchor_rows({k: v for k, v in of.items() if k != "limit"})
        except SelectionError:
            return None
        if not 1 < len(many) <= MAX_ANCHORS_TRIED:
            return None
        kept = [self._relation(rows, rel, sel, many[i:i + 1])[0] for i in range(len(many))]
        found = [k for k in kept if len(k)]
        if not found or any(not np.array_equal(np.sort(k), np.sort(found[0])) for k in found[1:]):
            return None
        return found[0]

    def _relation(self, rows: np.ndarray, rel: dict[str, Any], sel: dict[str, Any],
                  anchors_given: np.ndarray | None = None) -> tuple[np.ndarray, bool]:
        ctx, sp = self.ctx, self.sp
        kind = rel["rel"]
        pose = ctx.pose
        if not len(rows):
            return rows, "of" not in rel
        if "of" in rel and anchors_given is None:
            try:
                anchors_given = self._anchor_rows(rel["of"])
            except SelectionError:
                agreed = self._any_anchor(rows, rel, sel)
                if agreed is None:
                    raise
                return agreed, False
        if "of" in rel:
            assert anchors_given is not None
            anchors = anchors_given
            wholes = {self.b.elements[sp.ids[a]].whole for a in anchors} - {None}
            if kind != "in" or not wholes:  # the panels "in the curtain wall" are among its parts
                rows = rows[~np.isin(rows, anchors)]
            if kind in ("next_to", "near", "within"):
                limit = rel.get("distance", NEXT_TO_M if kind == "next_to" else NEAR_M)
                gap = np.min([sp.box_gap(a, rows) for a in anchors], axis=0) if len(rows) else np.zeros(0)
                same_floor = np.ones(len(rows), bool)
                if kind == "next_to":
                    storeys = {self.b.elements[sp.ids[a]].storey for a in anchors}
                    same_floor = np.array([self.b.elements[sp.ids[r]].storey in storeys for r in rows], bool)
                return rows[(gap <= limit) & same_floor], False
            if kind == "between":
                if "and" in rel:
                    others = self._anchor_rows(rel["and"])
                    a, c = int(anchors[0]), int(others[0])
                elif len(anchors) >= 2:
                    a, c = int(anchors[0]), int(anchors[1])
                else:
                    raise SelectionError("'between' needs two things")
                ga, gc = sp.ids[a], sp.ids[c]
                if self.b.elements[ga].ifc_class == "IfcSpace" and self.b.elements[gc].ifc_class == "IfcSpace":
                    # between two rooms: what bounds both (the door from one into the other), where known
                    joining = rows[[{ga, gc} <= set(self.b.elements[sp.ids[r]].sides) for r in rows]]
                    # ... those bounding the two alone first (not a long wall along a row of offices)
                    alone = joining[[set(self.b.elements[sp.ids[r]].sides) <= {ga, gc} for r in joining]]
                    if len(alone):
                        return alone, False
                    if len(joining):
                        return joining, False
                return rows[sp.between_mask(a, c, rows)], False
            if kind in ("above", "below"):  # over or under any one of the anchors
                keep = np.zeros(len(rows), bool)
                for a in anchors:
                    lo, hi = sp.bmin[a].copy(), sp.bmax[a].copy()
                    if float(np.min(hi[:2] - lo[:2])) < THIN_IN_PLAN_M:  # a door in its wall: the canopy over it
                        lo[:2] -= OVER_THIN_SLACK_M                 # starts at the wall's face
                        hi[:2] += OVER_THIN_SLACK_M
                    overlap = np.all(sp.bmax[rows, :2] > lo[:2], axis=1) & np.all(sp.bmin[rows, :2] < hi[:2], axis=1)
                    if kind == "above":  # a roof's overhang, a slab's edge: too little of either's plan over the
                        # other (under a thing, the footings along its edges carry it all the same)
                        overlap &= _plan_share(sp.bmin[rows, :2], sp.bmax[rows, :2], lo[:2], hi[:2]) >= STACKED_SHARE
                    if self.b.elements[sp.ids[a]].ifc_class == "IfcSpace":  # rooms over a room: by their plans
                        for i in np.nonzero(overlap)[0]:  # (an L-shaped room's box covers rooms it does not)
                            other = sp.ids[rows[i]]
                            if self.b.elements[other].ifc_class == "IfcSpace":
                                overlap[i] = self._plan_shared(sp.ids[a], other) >= STACKED_SHARE
                    # a pitched roof's eaves sit below the top of the room under it: over it all the same where
                    # its middle is above that top and its lowest point above the room's middle height
                    mid, centre = 0.5 * (lo[2] + hi[2]), 0.5 * (sp.bmin[rows, 2] + sp.bmax[rows, 2])
                    if kind == "above":
                        vert = (sp.bmin[rows, 2] >= hi[2] - 0.05) | ((centre >= hi[2]) & (sp.bmin[rows, 2] >= mid))
                    else:
                        vert = (sp.bmax[rows, 2] <= lo[2] + 0.05) | ((centre <= lo[2]) & (sp.bmax[rows, 2] <= mid))
                    hit = overlap & vert
                    if kind == "below" and self.b.elements[sp.ids[a]].ifc_class != "IfcSpace":
                        # under a window or a table: what fits under it (the heater), before the floor slab that
                        # runs under the whole room, where anything fits
                        span = (hi[:2] - lo[:2]) + UNDER_FITS_SLACK_M
                        fits = hit & np.all((sp.bmax[rows, :2] - sp.bmin[rows, :2]) <= span, axis=1)
                        if fits.any():
                            hit = fits
                    keep |= hit
                return rows[keep], False
            if kind in ("north", "south", "east", "west"):
                origin = sp.centre[anchors].mean(axis=0)
                return rows[sp.compass_mask(origin, rows, kind, use_facing=False)], False
            if kind in ("connected", "adjacent"):
                return rows[self._linked_rooms(anchors, rows, walls=kind == "adjacent")], False
            if kind == "reachable":
                start = {sp.ids[a] for a in anchors if self.b.elements[sp.ids[a]].ifc_class == "IfcSpace"}
                if not start:
                    raise SelectionError("rooms are reached from rooms: say which room")
                return rows[self._in_rooms(rows, ctx.graph.reachable_rooms(start))], False
            if kind == "in":
                inside = set()
                for a in anchors:
                    el = self.b.elements[sp.ids[a]]
                    if el.ifc_class == "IfcSpace":
                        rooms = self._drawn_again(el.id)
                        inside |= {g for g, e in self.b.elements.items() if e.room in rooms or rooms & set(e.sides)}
                    elif el.ifc_class == "IfcBuildingStorey":
                        inside |= {g for g, e in self.b.elements.items() if e.storey == el.id}
                    else:  # "the panels in the curtain wall": its parts and what is set in it (the anchor
                        # may be a part standing for a whole with no body of its own)
                        group = {el.id} | ({el.whole} if el.whole else set())
                        parts = {g for g, e in self.b.elements.items() if e.whole in group or e.host in group}
                        members = [sp.index[g] for g in parts if g in sp.index]
                        parts -= {g for g, e in self.b.elements.items() if e.whole in group}
                        if not parts:  # none set in it ("the rafters in the roof"): what lies within it (all of
                            # it: a roof of two halves is one roof)
                            whole = np.array([a] + members, int)
                            lo, hi = sp.bmin[whole].min(axis=0) - WITHIN_M, sp.bmax[whole].max(axis=0) + WITHIN_M
                            c = sp.centre[rows]
                            parts = {sp.ids[r] for r, ok in zip(rows, np.all((c >= lo) & (c <= hi), axis=1),
                                                                strict=True) if ok}
                        inside |= parts
                return rows[[sp.ids[r] in inside for r in rows]], False
            if kind in DIRECTIONAL:
                # Relative to the anchor as seen by the user: the anchor's own frame is the user's heading.
                a = int(anchors[0])
                fake = Pose(position=sp.centre[a].copy(), yaw=pose.yaw, pitch=0.0)
                return rows[sp.sector_mask(fake, rows, kind)], False
            raise SelectionError(f"'{kind}' cannot be used relative to another element")
        # Relative to the user.
        band = sp.storey_band(ctx.user_storey())
        if kind in ("above", "below"):
            eye = pose.position
            over = np.all(sp.bmin[rows, :2] <= eye[:2] + 0.05, axis=1) & np.all(sp.bmax[rows, :2] >= eye[:2] - 0.05,
                                                                                    axis=1)
            if kind == "above":
                return rows[over & (sp.bmin[rows, 2] > eye[2])], True
            # under the user's feet (a gallery above a room of the same storey stands over that room)
            feet = max(float(eye[2]) - EYE_HEIGHT, band[0])
            return rows[over & (sp.bmax[rows, 2] < feet + 0.05)], True
        if kind in ("north", "south", "east", "west"):
            body = ~sp.structure
            centre = sp.centre[body].mean(axis=0) if body.any() else pose.position
            off = sp.compass_offsets(centre, rows, kind, body=body)
            if len(off) and not (off <= 45.0).any() and off.min() < 90.0:
                # a building turned so that nothing faces the way squarely (the roof's two pitches face
                # south-south-east and north-north-west): those nearest to it
                return rows[off <= off.min() + COMPASS_SLACK_DEG], False
            return rows[off <= 45.0], False
        if kind == "on_floor":
            return rows[sp.on_band(rows, band)], True
        if kind == "in":
            room = ctx.user_room()
            if room is None:
                raise SelectionError("you are not inside a room")
            return rows[[self.b.elements[sp.ids[r]].room == room or room in self.b.elements[sp.ids[r]].sides
                         for r in rows]], True
        if kind == "outside":
            return rows[[self.b.elements[sp.ids[r]].room is None for r in rows]], False
        if kind in ("reachable", "unit"):
            room = ctx.user_room()
            if kind == "unit" and rel.get("pick"):  # "the east flat", "the bigger half": that dwelling
                picked = self._unit_picked(str(rel["pick"]))
                kept = self._in_rooms(rows, picked)
                if not kept.any() and not self._in_rooms(rows, set().union(*ctx.graph.units())).any():
                    # things outside every dwelling ("the balcony of the east flat"): those beside that one
                    kept = self._beside_unit(rows, picked, ctx.graph.units())
                return rows[kept], False
            if kind == "unit" and rel.get("number"):  # "house 2": the dwelling numbered so
                return rows[self._in_rooms(rows, self._unit_numbered(str(rel["number"])))], False
            if kind == "unit":  # "this house" of a terrace: the dwelling the user is in, else the building
                units = ctx.graph.units()
                unit = next((u for u in units if room in u), None) if room is not None else None
                if unit is None or not self._in_rooms(rows, set().union(*units)).any():
                    return rows, False  # also things no dwelling has (the beams of both): the building's
                return rows[self._in_rooms(rows, unit)], False
            if room is None:
                raise SelectionError("you are not inside a room")
            return rows[self._in_rooms(rows, ctx.graph.reachable_rooms({room}))], False
        # Pose-relative and on the user's storey only: nothing through a slab.
        rows = rows[sp.on_band(rows, band)]
        if kind in DIRECTIONAL:
            # filtered lazily, nearest first, once the order is known; not the rooms beside the user's ("the room
            # next door in front of me"): those are asked for behind their wall
            self._needs_reach |= not any(r.get("rel") in ("adjacent", "connected") for r in sel.get("relations") or [])
            return rows[sp.sector_mask(pose, rows, kind)], True
        if kind in ("near", "within", "next_to"):
            limit = rel.get("distance", NEAR_M if kind != "next_to" else NEXT_TO_M)
            return rows[sp.distances(pose.position, rows) <= limit], True
        if kind == "visible":
            room = ctx.user_room()
            if room is not None:
                pvs = self._pvs(room)
                els = self.b.elements
                rows = rows[[not self._culled(els[sp.ids[r]], pvs) for r in rows]]
            ignore = self._ignore_mask()
            rows = rows[~ignore[rows]]  # what is hidden, deleted or cut away by a section is not seen
            return rows[sp.visible_mask(pose, rows, ignore)], True
        raise SelectionError(f"unknown relation '{kind}'")

    def _members_by_height(self, rows: np.ndarray, kind: str) -> np.ndarray:
        """Joists, rafters or purlins where the file names none so: the beams and members where such things
        are. Joists carry a floor: their top at most ``JOIST_DEPTH_M`` under a storey's level. Rafters and purlins
        carry the roof: their bottom at least ``ROOF_ABOVE_M`` over the top storey's level."""
        sp = self.sp
        rows = rows[sp.class_mask(frozenset({"IfcBeam", "IfcMember"}))[rows]]
        levels = np.array([st.elevation for st in self.b.storeys], float)
        if not len(rows) or not len(levels):
            return rows[:0]
        if MEMBERS_BY_HEIGHT[kind] == "floor":
            top = sp.bmax[rows, 2][:, None]
            return rows[np.any((top <= levels[None, :] + 0.05) & (top >= levels[None, :] - JOIST_DEPTH_M), axis=1)]
        return rows[sp.bmin[rows, 2] >= float(levels.max()) + ROOF_ABOVE_M]

    def _whole_made_of(self, rows: np.ndarray, said: list[bool], asked: frozenset[str]) -> list[bool]:
        """A material filter's verdicts on ``rows`` with parts found through their whole's class (one of ``asked``)
        judged as the whole: "the glass curtain walls" are the curtain walls with glass panels, aluminium mullions
        and all. A whole is made of what one sort (class) of its parts is; parts of that sort made of something
        else stay out (the grade 5.8 bolts of an assembly of 8.8 ones)."""
        parts = [self.b.elements[self.sp.ids[r]] for r in rows]
        made: dict[str, set[str]] = {}
        for el, ok in zip(parts, said, strict=True):
            if ok and el.whole and el.whole_class in asked:
                made.setdefault(el.whole, set()).add(el.ifc_class)
        return [ok or (el.whole is not None and el.whole in made and el.whole_class in asked
                       and el.ifc_class not in made[el.whole])
                for el, ok in zip(parts, said, strict=True)]

    def _diagonal_members(self, rows: np.ndarray) -> np.ndarray:
        """Bracing where the file names none so: the beams and members that run on a slant in a vertical plane
        (a rod from a column's foot to the next one's head), not level or plumb, and not named as rafters."""
        sp = self.sp
        rows = rows[sp.class_mask(frozenset({"IfcBeam", "IfcMember"}))[rows]]
        if not len(rows):
            return rows
        size = sp.bmax[rows] - sp.bmin[rows]
        across = np.max(size[:, :2], axis=1)  # the longer way in plan
        thin = np.min(size[:, :2], axis=1)
        slant = (size[:, 2] >= BRACE_MIN_M) & (across >= BRACE_MIN_M) \
            & (np.minimum(size[:, 2], across) >= BRACE_SLANT * np.maximum(size[:, 2], across)) \
            & (thin <= BRACE_THIN * np.minimum(size[:, 2], across))
        rows = rows[slant]
        if not len(rows):
            return rows
        roof = kind_rows(self.b.elements, sp.ids, rows, "rafter", remember=True)
        return np.setdiff1d(rows, roof)

    def _beside_unit(self, rows: np.ndarray, unit: set[str], units: list[set[str]]) -> np.ndarray:
        """Which ``rows`` (outside every dwelling: balconies, terraces) lie nearer ``unit``'s rooms than any
        other dwelling's, by the gap between their plan boxes."""
        sp = self.sp

        def gap(r: int, rooms: set[str]) -> float:
            idx = [sp.index[g] for g in rooms if g in sp.index]
            if not idx:
                return math.inf
            lo, hi = sp.bmin[idx, :2], sp.bmax[idx, :2]
            d = np.maximum(0.0, np.maximum(lo - sp.bmax[r, :2], sp.bmin[r, :2] - hi))
            return float(np.min(np.linalg.norm(d, axis=1)))

        return np.array([min(units, key=lambda u: gap(r, u)) is unit for r in rows], bool)

    def _in_rooms(self, rows: np.ndarray, rooms: set[str]) -> np.ndarray:
        """Which ``rows`` are those rooms, or are in or bound one of them."""
        els = self.b.elements
        return np.array([self.sp.ids[r] in rooms or els[self.sp.ids[r]].room in rooms
                         or bool(rooms & set(els[self.sp.ids[r]].sides)) for r in rows], bool)

    def _linked_rooms(self, anchors: np.ndarray, rows: np.ndarray, walls: bool) -> np.ndarray:
        """Which ``rows`` are rooms that a door of the anchor rooms opens into (with ``walls``, also rooms
        sharing a wall with them): read from the rooms on each side of doors and walls (``Element.sides``)."""
        anchor_ids = {self.sp.ids[a] for a in anchors}
        doors = [self.b.elements[g] for g in anchor_ids if self.b.elements[g].ifc_class == "IfcDoor"]
        if doors and not walls and not any(self.b.elements[g].ifc_class == "IfcSpace" for g in anchor_ids):
            # "where does this door lead": the rooms the doors open into
            opened = {r for d in doors for r in d.sides} - {OUTSIDE}
            return np.array([self.sp.ids[r] in opened for r in rows], bool)
        if not any(self.b.elements[g].ifc_class == "IfcSpace" for g in anchor_ids):
            raise SelectionError("rooms are connected to rooms: say which room")
        kinds = ("IfcDoor", "IfcWall", "IfcCurtainWall") if walls else ("IfcDoor",)
        linked: set[str] = set()
        for el in self.b.elements.values():
            if el.ifc_class.startswith(kinds) and el.sides and anchor_ids & set(el.sides):
                linked |= set(el.sides)
        linked -= anchor_ids | {OUTSIDE}
        return np.array([self.sp.ids[r] in linked for r in rows], bool)

    def _pvs(self, room: str) -> set[str]:
        """Rooms in sight from ``room``: the static set, widened through walls and doors that are
        hidden or deleted (they no longer block the view)."""
        graph = self.ctx.graph
        seen = set(graph.potentially_visible(room))
        opened = self.ctx.state.hidden | self.ctx.state.deleted
        if not opened:
            return seen
        todo = [r for r in seen if r != OUTSIDE]
        while todo:
            r = todo.pop()
            for b in graph.boundaries_of_room(r):
                if b not in opened:
                    continue
                for other in self.b.elements[b].sides:
                    if other not in seen:
                        more = graph.potentially_visible(other) if other != OUTSIDE else {OUTSIDE}
                        for m in more | {other}:
                            if m not in seen:
                                seen.add(m)
                                if m != OUTSIDE:
                                    todo.append(m)
        return seen

    @staticmethod
    def _culled(el: Element, pvs: set[str]) -> bool:
        """Portal culling: an element of rooms none of which can be seen into from the user's room is
        out of sight (walls and closed doors between); one of no room is out of sight unless the user
        can see outside."""
        rooms = ({el.room} if el.room else set()) | {r for r in el.sides if r != OUTSIDE}
        if rooms:
            return not (rooms & pvs)
        return OUTSIDE not in pvs and OUTSIDE in el.sides

    def _ignore_mask(self) -> np.ndarray:
        """Hidden, deleted and cut-away (section) elements do not block the view."""
        mask = cut_away(self.sp.bmin, self.sp.bmax, self.ctx.state.sections)
        for g in self.ctx.state.hidden | self.ctx.state.deleted:
            if g in self.sp.index:
                mask[self.sp.index[g]] = True
        return mask

    def _reachable(self, rows: np.ndarray, want: int | None = None) -> np.ndarray:
        """What the user could mean by a direction: things in (or bounding) the user's room, or in
        line of sight. Not what is behind a wall or slab. With ``want``, stops once that many are found
        (rows come nearest first)."""
        ctx, sp = self.ctx, self.sp
        room = ctx.user_room()
        pvs = self._pvs(room) if room is not None else None
        keep = np.zeros(len(rows), bool)
        ignore = None
        for k, r in enumerate(rows):
            if want is not None and int(keep.sum()) >= want:
                break
            el = self.b.elements[sp.ids[r]]
            if room is not None and (el.room == room or room in el.sides):
                keep[k] = True
                continue
            if pvs is not None and self._culled(el, pvs):
                continue  # in a room that cannot be seen into from here: no ray needed
            if ignore is None:
                ignore = self._ignore_mask()
            keep[k] = sp.line_of_sight(ctx.pose.position, int(r), ignore)
        return rows[keep]

    def _ground_mask(self, rows: np.ndarray, side: str) -> np.ndarray:
        """Rows on a storey at or above the ground storey (``above``) or under it (``below``); a storey is on
        itself. Elements on no storey are on neither side."""
        ground = self.b.storey(self.b.ground_storey)
        if ground is None:
            return np.zeros(len(rows), bool)
        index = {st.id: st.index for st in self.b.storeys}
        levels = np.array([index.get(self.sp.storey_of[r], -1) if self.sp.storey_of[r] in index else np.nan
                           for r in rows], float)
        with np.errstate(invalid="ignore"):
            return levels >= ground.index if side == "above" else levels < ground.index

    # ---- ordering -------------------------------------------------------------------------
    def _order(self, rows: np.ndarray, sel: dict[str, Any], pose_relative: bool) -> np.ndarray:
        order = sel.get("order")
        sp, els, ids = self.sp, self.b.elements, self.sp.ids
        if not len(rows):
            return rows
        if order in ("nearest", "furthest") or (pose_relative and sel.get("limit") and not order):
            if order is not None and not pose_relative:
                band = sp.storey_band(self.ctx.user_storey())
                on = rows[sp.on_band(rows, band)]
                rows = on if len(on) else rows
            d = sp.distances(self.ctx.pose.position, rows)
            idx = np.argsort(-d if order == "furthest" else d, kind="stable")
            return rows[idx]
        keys = {
            "largest": lambda el: -(el.quantities.get("area") or el.quantities.get("volume") or 0.0),
            "smallest": lambda el: (el.quantities.get("area") or el.quantities.get("volume") or math.inf),
            "tallest": lambda el: -(el.dims.get("height") or 0.0),
            "lowest": lambda el: _level(self.b, el, float(el.bbox_min[2])),
            "highest": lambda el: -_level(self.b, el, float(el.bbox_max[2])),
            "widest": lambda el: -(el.dims.get("width") or 0.0),
        }
        if order in keys:
            key = keys[order]
            return np.array(sorted(rows, key=lambda r: key(els[ids[r]])), int)
        return rows

    # ---- messages -------------------------------------------------------------------------
    def _which_one(self, sel: dict[str, Any], rows: np.ndarray) -> str:
        noun = noun_for(sel, 1)
        shown = [self.describe_where(self.sp.ids[r]) for r in rows[:4]]
        more = f" and {len(rows) - 4} more" if len(rows) > 4 else ""
        return f"Which {noun}? There are {len(rows)}: " + "; ".join(shown) + more + "."

    def describe_where(self, gid: str) -> str:
        """'Innentuer-1, 2.3 m to your left' for messages."""
        r = self.sp.index[gid]
        el = self.b.elements[gid]
        d = float(self.sp.distances(self.ctx.pose.position, np.array([r]))[0])
        b = float(self.sp.bearings(self.ctx.pose, np.array([r]))[0])
        side = ("in front of you" if abs(b) <= 45 else "behind you" if abs(b) >= 135
                else "to your left" if b > 0 else "to your right")
        return f"{el.label()}, {d:.1f} m {side}"

    def explain_empty(self, sel: dict[str, Any]) -> str:
        """Why nothing matched, naming the nearest candidates when the selector was spatial."""
        side = {True: "outside ", False: "inside "}.get(sel["external"], "") if "external" in sel else ""
        noun = noun_for(sel, 1)
        rels = [r["rel"] for r in sel.get("relations") or [] if "of" not in r]
        where = ""
        if rels:
            where = " " + (SIDE_WORDS.get(rels[0]) or {"near": "near you", "within": "that close to you",
                                                        "visible": "in view", "in": "in your room",
                                                        "on_floor": "on this floor", "north": "to the north",
                                                        "south": "to the south", "east": "to the east",
                                                        "west": "to the west"}.get(rels[0], ""))
        elif sel.get("room"):
            where = " in your room" if sel["room"] in ("mine", "here") else f" in {sel['room']}"
        elif sel.get("storey"):
            try:  # the storey as the building names it ("on Level 2", not "on mine" or "on upper")
                where = f" on {resolve_storey(self.ctx.building, self.ctx, str(sel['storey'])).name}"
            except SelectionError:
                where = f" on {sel['storey']}"
        base = {k: v for k, v in sel.items() if k in ("class", "kind", "name")}
        message = f"There is no {side}{noun}{where}"
        if base and (rels or sel.get("room") or sel.get("storey") or side):
            try:
                rows = Resolver(self.ctx)._rows(base | {"order": "nearest", "limit": 1})
            except SelectionError:
                rows = np.zeros(0, int)
            if len(rows):
                message += f"; the nearest {noun} is {self.describe_where(self.sp.ids[rows[0]])}"
        return message + "."


def _intersect(current: list[str] | None, more: list[str]) -> list[str]:
    if current is None:
        return list(more)
    keep = set(more)
    return [g for g in current if g in keep]
