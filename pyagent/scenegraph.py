"""The scene graph (networkx): containment, aggregation, hosting, room boundaries, door and stair
connections, plus the navigation graph with walking distances between rooms through doors."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from pyagent.model import OUTSIDE, Building, Element
from pyagent.roomfinder import RoomFinder
from pyagent.tessellate import MeshSet

# Edge relations in the scene graph (directed, attribute "rel").
CONTAINS = "contains"  # spatial container -> element (site -> building -> storey -> space -> element)
HOSTS = "hosts"  # wall -> door/window that fills an opening in it
BOUNDS = "bounds"  # wall/door/window -> room it bounds
CONNECTS = "connects"  # door -> room (both sides), stair -> storey (both ends)


@dataclass
class Route:
    """A walking route: the rooms passed, the doors used, and the length in metres."""

    rooms: list[str]
    doors: list[str]
    length: float
    points: list[list[float]] = field(default_factory=list)


@dataclass
class SceneGraph:
    graph: nx.MultiDiGraph
    nav: nx.Graph  # nodes: room ids, door ids, stair ids, OUTSIDE; weights in metres
    finder: RoomFinder
    _pvs: dict[str, set[str]] = field(default_factory=dict)
    _units: list[set[str]] | None = None

    # ---- relations -------------------------------------------------------------------------
    def related(self, gid: str, rel: str, reverse: bool = False) -> list[str]:
        if gid not in self.graph:
            return []
        edges = self.graph.in_edges(gid, data=True) if reverse else self.graph.out_edges(gid, data=True)
        return [(u if reverse else v) for u, v, d in edges if d["rel"] == rel]

    def rooms_connected_by(self, door: str) -> list[str]:
        """The rooms (or OUTSIDE) a door leads between."""
        return self.related(door, CONNECTS)

    def boundaries_of_room(self, room: str) -> list[str]:
        return self.related(room, BOUNDS, reverse=True)

    def room_at(self, point: np.ndarray) -> str | None:
        return self.finder.room_at(point)

    def potentially_visible(self, room: str) -> set[str]:
        """Rooms that can be seen into from ``room``: itself, rooms joined to it by open passages (no
        wall between), and the outside when it has windows. Closed doors and walls block the view."""
        cached = self._pvs.get(room)
        if cached is not None:
            return cached
        seen = {room}
        todo = [room]
        nav = self.nav
        while todo:
            r = todo.pop()
            if r not in nav:
                continue
            for n in nav.neighbors(r):
                if nav.nodes[n].get("kind") != "passage":
                    continue
                for other in nav.neighbors(n):
                    if nav.nodes[other].get("kind") == "room" and other not in seen:
                        seen.add(other)
                        todo.append(other)
        nodes = self.graph.nodes
        if any(nodes[w].get("ifc_class", "").startswith("IfcWindow") and nodes[w].get("exterior")
               for r in list(seen) for w in self.boundaries_of_room(r)):
            seen.add(OUTSIDE)
        self._pvs[room] = seen
        return seen

    # ---- navigation ----------------------------------------------------------------------
    def reachable_rooms(self, rooms: set[str]) -> set[str]:
        """The rooms one can walk to from ``rooms`` through doors, stairs and open passages, never outside."""
        inside = self.nav.subgraph(n for n in self.nav if n != OUTSIDE)
        found: set[str] = set()
        for room in rooms:
            if room in inside and room not in found:
                found |= set(nx.node_connected_component(inside, room))
        kinds = nx.get_node_attributes(self.nav, "kind")
        return {n for n in found if kinds.get(n) == "room"}

    def units(self) -> list[set[str]]:
        """The separate dwellings of a building (the houses of a terrace, flats with no common hall): groups
        of at least ``UNIT_MIN_ROOMS`` rooms one cannot walk between without going outside. A building of one
        such group (or whose doors do not say which rooms they join) has none: an empty list. Found once: the
        navigation graph does not change."""
        if self._units is None:
            self._units = self._find_units()
        return self._units

    def _find_units(self) -> list[set[str]]:
        inside = self.nav.subgraph(n for n in self.nav if n != OUTSIDE)
        kinds = nx.get_node_attributes(self.nav, "kind")
        groups = [{n for n in c if kinds.get(n) == "room"} for c in nx.connected_components(inside)]
        alike = self._alike([g for g in groups if len(g) >= UNIT_MIN_ROOMS])
        if alike:
            return alike
        # flats off a common stair hall: the one room whose doors alone join dwellings alike
        rooms = nx.Graph()
        rooms.add_nodes_from(n for n in inside if kinds.get(n) == "room")
        for n in inside:
            if kinds.get(n) != "room":
                joined = [m for m in inside.neighbors(n) if kinds.get(m) == "room"]
                rooms.add_edges_from((a, b) for i, a in enumerate(joined) for b in joined[i + 1:])
        best: list[set[str]] = []
        for hall in sorted(nx.articulation_points(rooms)):
            rest = rooms.subgraph(n for n in rooms if n != hall)
            split = [set(c) for c in nx.connected_components(rest) if len(c) >= UNIT_MIN_ROOMS]
            alike = [g for g in self._alike(split) if self._dwelling(g)]
            if len(alike) >= 2 and (len(alike), -max(map(len, alike))) > (len(best), -max(map(len, best), default=0)):
                best = alike  # the hall that leaves the most dwellings (three flats off one stair, not two)
        return best

    def _dwelling(self, group: set[str]) -> bool:
        """Does a group of rooms hold a home's rooms (a kitchen, a living room, a bedroom or a bathroom by
        data/room_words.yaml), not only offices and corridors?"""
        from pyagent.language.lexicon import ROOM_SYNONYMS, ascii_fold

        uses = nx.get_node_attributes(self.nav, "use")
        said = {ascii_fold(str(uses.get(n, ""))) for n in group}
        home = [ascii_fold(f) for word in DWELLING_ROOMS for f in ROOM_SYNONYMS.get(word, ())]
        return any(re.search(rf"(?<![a-z]){re.escape(f)}", name) for name in said for f in home if len(f) > 2)

    def _alike(self, groups: list[set[str]]) -> list[set[str]]:
        """The groups that are dwellings alike, when two or more are: rooms of the same uses ("Kitchen",
        "WC-2-1" and "WC-3-1", "Kjøkken øst" and "Kjøkken vest": the words of their names); a wing of other
        rooms (a garage reached from outside) or a floor with no stair drawn to it is no dwelling of its own."""
        if len(groups) < 2:
            return []
        uses = nx.get_node_attributes(self.nav, "use")

        def words(group: set[str]) -> set[str]:
            return {w for n in group for w in str(uses.get(n, "")).split()}

        named = words(max(groups, key=len))
        alike = [g for g in groups if _jaccard(words(g), named) >= UNITS_ALIKE]
        return alike if len(alike) >= 2 else []

    def route(self, start: np.ndarray, start_room: str | None, goal: str, goal_point: np.ndarray) -> Route | None:
        """Shortest walk from a point in ``start_room`` to ``goal`` (a room id) through doors and stairs."""
        return self.nearest_route(start, start_room, {goal: goal_point})

    def nearest_route(self, start: np.ndarray, start_room: str | None,
                      goals: dict[str, np.ndarray]) -> Route | None:
        """The shortest of the walks from a point in ``start_room`` to each goal room (id -> the point to
        walk to inside it), found in one search; the first goal wins a tie. None when none can be reached."""
        nav = self.nav
        if start_room is None or start_room not in nav:
            return None
        goals = {g: p for g, p in goals.items() if g in nav}
        if start_room in goals:
            goal_point = goals[start_room]
            return Route([start_room], [], float(np.linalg.norm(goal_point[:2] - start[:2])),
                         [start.tolist(), goal_point.tolist()])
        if not goals:
            return None
        g = nav.copy()
        g.add_node("_start", pos=np.asarray(start, float))
        for n in list(nav.neighbors(start_room)):
            g.add_edge("_start", n, weight=float(np.linalg.norm(nav.nodes[n]["pos"] - start)))
        dist, paths = nx.single_source_dijkstra(g, "_start", weight="weight")
        # Inside the goal room one walks straight from the doorway one came in by to the goal point (not by
        # the room's reference point), as from the start point to the first doorway.
        walks = []
        for i, (goal, point) in enumerate(goals.items()):
            if goal not in dist:
                continue
            there = np.asarray(point, float)
            ways = [(float(dist[n]) + float(np.linalg.norm(there - nav.nodes[n]["pos"])), n)
                    for n in nav.neighbors(goal) if n in dist and nav.nodes[n]["kind"] in ("door", "passage")
                    and np.all(np.isfinite(nav.nodes[n]["pos"]))]
            if not ways:
                ways = [(float(dist[goal]) + float(np.linalg.norm(there - nav.nodes[goal]["pos"])), goal)]
            length, last = min(ways, key=lambda w: w[0])
            walks.append((length, i, goal, last))
        if not walks:
            return None
        length, _i, goal, last = min(walks, key=lambda w: (w[0], w[1]))
        path = paths[goal] if last == goal else paths[last] + [goal]
        points = [np.asarray(start, float)] + [nav.nodes[n]["pos"] for n in path[1:-1]] + [np.asarray(goals[goal])]
        points = [p for p in points if np.all(np.isfinite(p))]
        kinds = nx.get_node_attributes(nav, "kind")
        rooms = [start_room]
        for u, v in zip(path[1:], path[2:], strict=False):
            if kinds.get(u) in ROOM_KINDS:
                crossed = [u]
            elif kinds.get(v) in ROOM_KINDS:
                continue
            else:  # doorway to doorway: the room the two share was walked through
                crossed = [r for r in nav[u] if r in nav[v] and kinds.get(r) in ROOM_KINDS]
            rooms += [r for r in crossed[:1] if r != rooms[-1]]
        if rooms[-1] != goal:
            rooms.append(goal)
        doors = [n for n in path[1:] if kinds.get(n) not in ROOM_KINDS]
        return Route(rooms, doors, length, [p.tolist() for p in points])


ROOM_KINDS = ("room", "outside")
UNIT_MIN_ROOMS = 3  # a dwelling has at least this many rooms
DWELLING_ROOMS = ("kitchen", "living room", "bedroom", "bathroom")  # a home has one of these (room_words.yaml)
UNITS_ALIKE = 1 / 3  # dwellings share at least this share of their room uses (Jaccard) with the largest
OUTSIDE_DETOUR_M = 25.0  # walking round the outside of the building costs about this much


def _room_floor_point(room: Element) -> np.ndarray:
    c = room.centre.copy()
    c[2] = float(room.bbox_min[2])
    return c


def build_scene_graph(building: Building, meshes: MeshSet) -> SceneGraph:
    g = nx.MultiDiGraph()
    els = building.elements
    for gid, el in els.items():
        g.add_node(gid, ifc_class=el.ifc_class, exterior=OUTSIDE in el.sides)
    g.add_node(OUTSIDE, ifc_class="outside")
    for gid, el in els.items():
        if el.parent and el.parent in els:
            g.add_edge(el.parent, gid, rel=CONTAINS)
        if el.host and el.host in els:
            g.add_edge(el.host, gid, rel=HOSTS)
        for room in el.sides:
            if room != OUTSIDE and room in els:
                g.add_edge(gid, room, rel=BOUNDS)
        if el.ifc_class == "IfcDoor":
            for room in el.sides:
                g.add_edge(gid, room, rel=CONNECTS)

    spaces = [e for e in els.values() if e.ifc_class == "IfcSpace"]
    finder = RoomFinder.from_meshes(spaces, meshes)

    nav = nx.Graph()
    for sp in spaces:
        nav.add_node(sp.id, kind="room", pos=_room_floor_point(sp), use=_use_of(sp.long_name or sp.name))
    nav.add_node(OUTSIDE, kind="outside", pos=np.array([math.nan] * 3))
    for el in els.values():
        if el.ifc_class != "IfcDoor" or len(el.sides) < 2:
            continue
        door_pos = el.centre.copy()
        door_pos[2] = float(el.bbox_min[2])
        nav.add_node(el.id, kind="door", pos=door_pos)
        for room in el.sides:
            if room == OUTSIDE:
                nav.add_edge(el.id, OUTSIDE, weight=OUTSIDE_DETOUR_M / 2)
            elif room in nav:
                nav.add_edge(el.id, room, weight=float(np.linalg.norm(door_pos - nav.nodes[room]["pos"])))

    # Open-plan connections: rooms whose footprints touch with no wall between.
    for a, b, point in finder.open_passages():
        pid = f"passage:{a}:{b}"
        nav.add_node(pid, kind="passage", pos=point)
        for room in (a, b):
            nav.add_edge(pid, room, weight=float(np.linalg.norm(point - nav.nodes[room]["pos"])))

    # Within a room people walk straight from one doorway to the next, not via the room's centre.
    for room in [n for n, d in nav.nodes(data=True) if d["kind"] == "room"]:
        portals = [n for n in nav.neighbors(room) if nav.nodes[n]["kind"] in ("door", "passage")]
        for i, a in enumerate(portals):
            for b in portals[i + 1:]:
                w = float(np.linalg.norm(nav.nodes[a]["pos"][:2] - nav.nodes[b]["pos"][:2]))
                if not nav.has_edge(a, b) or nav[a][b]["weight"] > w:
                    nav.add_edge(a, b, weight=w)

    # Stairs connect the storey they stand on with the storey their top reaches.
    storeys = building.storeys
    stairs = [e for e in els.values() if e.ifc_class in ("IfcStair", "IfcRamp")]
    stairs += [e for e in els.values() if e.ifc_class in ("IfcStairFlight", "IfcRampFlight")
               and not (e.parent in els and els[e.parent].ifc_class in ("IfcStair", "IfcRamp"))]
    for el in stairs:
        bottom, top = float(el.bbox_min[2]), float(el.bbox_max[2])
        reached = [s for s in storeys if bottom - 0.3 <= s.elevation <= top + 0.5]
        for s in reached:
            g.add_edge(el.id, s.id, rel=CONNECTS)
        # Rooms at the foot and the head of the stair, found where the stair touches each storey.
        foot = el.centre.copy()
        foot[2] = bottom + 0.3
        lo = finder.room_at(foot)
        ends = []
        verts = meshes.element(meshes.index()[el.id])[0] if el.id in meshes.index() else None
        top_end = el.centre.copy()
        if verts is not None and len(verts):
            top_end[:2] = verts[verts[:, 2] > top - 0.3][:, :2].mean(axis=0)
        for s in reached[1:]:
            head = top_end.copy()
            head[2] = s.elevation + 0.3
            hi = finder.room_at(head, min_floor=s.elevation - 0.3) or _nearest_room_on(
                finder, spaces, head, s.elevation)
            if hi is not None:
                ends.append(hi)
        if lo is None:
            lo = _nearest_room_on(finder, spaces, foot, reached[0].elevation if reached else bottom)
        ends = [h for h in ends if h != lo]
        if lo is None or not ends:
            continue
        pos = el.centre.copy()
        pos[2] = bottom
        nav.add_node(el.id, kind="stair", pos=pos)
        nav.add_edge(el.id, lo, weight=float(np.linalg.norm(pos - nav.nodes[lo]["pos"])))
        for hi in ends:
            nav.add_edge(el.id, hi, weight=float(np.linalg.norm(el.bbox_max - el.bbox_min))
                         + float(np.linalg.norm(el.centre[:2] - nav.nodes[hi]["pos"][:2])))
    return SceneGraph(g, nav, finder)


def _nearest_room_on(finder: RoomFinder, spaces: list[Element], point: np.ndarray, elevation: float) -> str | None:
    hit = finder.room_at(point)
    if hit is not None:
        return hit
    best, best_d = None, math.inf
    for sp in spaces:
        if abs(float(sp.bbox_min[2]) - elevation) > 0.6:
            continue
        d = float(np.linalg.norm(sp.centre[:2] - point[:2]))
        if d < best_d:
            best, best_d = sp.id, d
    return best


def _use_of(name: str) -> str:
    """What a room's name says it is for, without its numbers: "WC-2-1" and "WC-3-1" -> "wc"."""
    return " ".join(re.sub(r"[\d\W_]+", " ", name.lower()).split())


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0
