"""A session: one building, its authoritative state, and the ways in (say, do, select, pose).

Imports go one way: the session uses the persistence layer and the language front end; neither imports
the session (they see it through protocols: ``persistence.Host``, ``language.host.Host`` and
``language.scene_view.SceneView``)."""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.actions import places
from pyagent.actions.bounds import Bounds
from pyagent.actions.executor import ExecResult, Executor
from pyagent.actions.selectors import Context, storey_at_pose
from pyagent.actions.state import SceneState
from pyagent.language.dialogue import Dialogue
from pyagent.language.scene_view import SceneView
from pyagent.link.protocol import MAX_TEXT_CHARS
from pyagent.loader import FirstView, LoadedBuilding, load
from pyagent.model import Building, Pose
from pyagent.persistence import DEFAULT_POSE_INTERVAL_S, Persistence, RestoreReport, default_journal_dir
from pyagent.progress import Progress, no_progress
from pyagent.result import Result
from pyagent.scenegraph import SceneGraph, build_scene_graph
from pyagent.spatial import SpatialIndex

if TYPE_CHECKING:
    from pyagent.language.front import FrontEnd

__all__ = ["Result", "Session", "SessionView"]


class Session:
    def __init__(self, loaded: LoadedBuilding, graph: SceneGraph, spatial: SpatialIndex) -> None:
        self.loaded = loaded
        self.building: Building = loaded.building
        self.graph = graph
        self.spatial = spatial
        self.scene = SceneState()
        self.executor = Executor(self.building, graph, spatial, self.scene)
        self.revision = 0
        self.dialogue = Dialogue()  # what the front end remembers between utterances (journaled)
        self._front: FrontEnd | None = None
        self._front_lock = threading.Lock()
        #: GlobalIds whose geometry is still being made (a first view; ``complete`` brings them in).
        self.pending: set[str] = set(loaded.pending)
        self.scene.pose = self.default_pose()
        # What the file itself hides (a saved review's switched-off layer) starts hidden.
        self.scene.hidden = {g for g, e in self.building.elements.items() if e.hidden_in_file}
        # Journal, saving to IFC and review notes (sets executor.saver and executor.noter).
        self.persistence = Persistence(self)
        self.restore_report = RestoreReport()

    @classmethod
    def open(cls, path: str | Path, cache: Path | None = None, use_cache: bool = True,
             journal_dir: str | Path | bool | None = None, fresh: bool = False, save_dir: str | Path | None = None,
             pose_interval_s: float = DEFAULT_POSE_INTERVAL_S, progress: Progress = no_progress,
             first_view: FirstView | None = None) -> Session:
        """Open a building. ``journal_dir``: None/False for no journal, True for the default folder
        (``.cache/sessions/<file sha>/``), or a folder; an existing journal there is replayed, so the
        session continues exactly where it was (``fresh`` keeps the old journal aside and starts anew).
        ``save_dir``: where ``save`` writes revisions (default: next to the source file).
        ``progress(stage, done, total)`` hears about a first load's stages (``pyagent.progress``);
        ``first_view`` gets the fast pass's building and glb on a first load (``pyagent.loader.load``)."""
        loaded = load(path, cache=cache, use_cache=use_cache, progress=progress, first_view=first_view)
        return cls.from_loaded(loaded, journal_dir, fresh, save_dir, pose_interval_s)

    @classmethod
    def from_loaded(cls, loaded: LoadedBuilding, journal_dir: str | Path | bool | None = None, fresh: bool = False,
                    save_dir: str | Path | None = None,
                    pose_interval_s: float = DEFAULT_POSE_INTERVAL_S) -> Session:
        """A session on a building already loaded (``open`` without the loading): a full one, or a first
        view whose ``pending`` elements get their geometry later (``complete``)."""
        graph = build_scene_graph(loaded.building, loaded.meshes)
        spatial = SpatialIndex.build(loaded.building, loaded.meshes)
        session = cls(loaded, graph, spatial)
        p = session.persistence
        p.pose_interval_s = max(0.0, float(pose_interval_s))
        if save_dir is not None:
            p.save_dir = Path(save_dir)
        if journal_dir is not None and journal_dir is not False:
            folder = default_journal_dir(loaded.building.file_hash) if journal_dir is True else Path(journal_dir)
            session.restore_report = p.open_journal(folder, fresh=fresh)
        return session

    def complete(self, full: LoadedBuilding) -> list[str]:
        """The rest of a first view has loaded: take ``full`` (the same building with every element's
        geometry) as this session's building. The scene state (edits, pose, selection, history, journal)
        stays as it is, so what was changed meanwhile holds for the new elements too. Returns the
        GlobalIds that got their geometry now (sorted). Call it where requests are handled (the link's
        thread), never beside one."""
        got = sorted(g for g in self.pending if g in full.building.elements
                     and full.building.elements[g].has_geometry)
        building = self.building
        for f in dataclasses.fields(building):  # in place: whoever holds the building sees the full one
            setattr(building, f.name, getattr(full.building, f.name))
        full.building = building
        self.loaded = full
        self.graph = build_scene_graph(building, full.meshes)
        self.spatial = SpatialIndex.build(building, full.meshes)
        ex = self.executor
        ex.graph, ex.spatial, ex.bounds = self.graph, self.spatial, Bounds.of(building)
        # What the file itself hides among the new elements starts hidden, as on a one-shot load.
        self.scene.hidden |= {g for g in got if building.elements[g].hidden_in_file}
        self.pending = set()
        return got

    def loading_note(self, ids: list[str]) -> str:
        """A sentence saying which of ``ids`` are still loading ("" when none are)."""
        waiting = [g for g in dict.fromkeys(ids) if g in self.pending]
        if not waiting:
            return ""
        n, total = len(waiting), len(set(ids))
        if total == 1:
            return "(It is still loading: its shape is not in yet.)"
        who = "They are" if n == total else f"{n} of them {'is' if n == 1 else 'are'}"
        return f"({who} still loading: {'its' if n == 1 else 'their'} shape is not in yet.)"

    def close(self) -> None:
        """Flush and release the journal (the session stays usable without one)."""
        self.persistence.close()

    @property
    def glb_path(self) -> Path:
        return self.loaded.glb_path

    def default_pose(self) -> Pose:
        """Standing in the largest room of the ground floor, or at the building's centre."""
        b = self.building
        rooms = [s for s in b.spaces() if s.storey == b.ground_storey] or b.spaces()
        if rooms:
            room = max(rooms, key=lambda s: s.quantities.get("area", 0.0))
            p = places.room_point(self.executor, room.id)
            p[2] = float(room.bbox_min[2]) + 1.6
            return Pose(p, 0.0, 0.0)
        # No rooms: amid what stands on the ground floor (never at bodiless elements' placements,
        # which may sit at the file's origin far from the geometry), on the floor slab there if any.
        bodies = [e for e in b.products() if e.has_geometry]
        storey = b.storey(b.ground_storey)
        ground = [e for e in bodies if storey is not None and e.storey == storey.id] or bodies
        if ground:
            lo = np.min([e.bbox_min for e in ground], axis=0)
            hi = np.max([e.bbox_max for e in ground], axis=0)
            c = (lo + hi) / 2.0
            # A storey whose level lies below all its bodies (a structure raised on nothing the file
            # has) is stood on where its geometry begins, not in the air under it.
            level = max(storey.elevation, float(lo[2])) if storey else float(lo[2])
            c[2] = level + 0.5
            floor = places.floor_z(self.executor, c)
            c[2] = (floor if floor is not None and floor >= lo[2] else level) + 1.6
            return Pose(c, 0.0, 0.0)
        return Pose()

    # ---- the ways in ----------------------------------------------------------------------
    def set_pose(self, pose: Pose) -> None:
        """Raises ``ValueError`` (pose unchanged) for a pose far from the building or one the journal
        could not record."""
        if not self.executor.bounds.contains(pose.position) or not (
                math.isfinite(pose.yaw) and math.isfinite(pose.pitch) and abs(pose.yaw) <= 1e6):
            raise ValueError(f"pose must have finite coordinates {self.executor.bounds.describe()} "
                             "and a finite heading")
        before = self.scene.pose
        self.scene.pose = pose
        failure = self.persistence.pose_changed()
        if failure:
            self.scene.pose = before  # memory is never ahead of the disk
            raise ValueError(failure)

    def select(self, ids: list[str]) -> Result:
        props = {p["id"] for p in self.scene.props}
        unknown = [g for g in ids if g not in self.building.elements and g not in props]
        if unknown:
            return Result(False, None, f"I don't know the element {str(unknown[0])[:40]}.", None,
                          f"unknown element id {str(unknown[0])[:40]}")
        ids = list(dict.fromkeys(ids))
        self.persistence.before_change()
        self.scene.selected = ids
        if ids:
            self.executor.last_ids = list(ids)
        self.revision += 1
        failure = self.persistence.commit("select", ids)
        if failure:
            return Result(False, None, f"Sorry, {failure}.", None, failure)
        return Result(True, None, "Selected." if ids else "Selection cleared.")

    def do(self, program: Any, source: str = "program") -> Result:
        t = time.perf_counter()
        self.persistence.before_change()
        try:
            r: ExecResult = self.executor.run(program)
        except RecursionError:  # a hostile program nested deeper than the validator can follow
            r = ExecResult(False, "I could not understand that request.", None,
                           "invalid program: it is nested too deeply")
        if r.changed:
            self.revision += 1
        failure = self.persistence.commit("do", program, program, r.ok, r.changed)
        # An invalid program is not echoed back: the error says what is wrong, and a hostile one may be large.
        shown = program if isinstance(program, dict) and not (r.error or "").startswith("invalid program") else None
        if failure:
            return Result(False, shown, f"Sorry, {failure}.", None, failure, source,
                          {"execute": time.perf_counter() - t})
        answer = r.answer
        if self.pending and r.ok:
            note = self.loading_note(r.referenced)
            answer = f"{answer} {note}" if note else answer
        return Result(r.ok, shown, answer, r.value, r.error, source, {"execute": time.perf_counter() - t})

    def say(self, text: str) -> Result:
        if len(text) > MAX_TEXT_CHARS:
            return Result(False, None, "That is too long for one request.", None,
                          f"text too long ({len(text)} characters, at most {MAX_TEXT_CHARS})")
        front = self.front_end()
        if front is None:
            return Result(False, None, "I can't understand speech or text yet.", None,
                          "the language front end is not available")
        p = self.persistence
        p.before_change()
        p.transcript = text
        try:
            r = front.handle(self, text)
        finally:
            p.transcript = None
        # Changes the front end made other than through do() are journaled here.
        failure = p.commit("say", text, r.program, r.ok)
        if failure:
            return Result(False, r.program, f"Sorry, {failure}.", None, failure, r.source, r.timings)
        return r

    def view(self) -> SceneView:
        """The scene now as the language front end may look at it: read-only."""
        return SessionView(self)

    def __getstate__(self) -> dict[str, Any]:  # copies (the soak harness deep-copies sessions) get a lock of their own
        state = self.__dict__.copy()
        del state["_front_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._front_lock = threading.Lock()

    def front_end(self) -> FrontEnd | None:
        """The language front end, made when first asked for (by one thread; others wait for it)."""
        with self._front_lock:
            if self._front is None:
                try:
                    from pyagent.language.front import FrontEnd
                except ImportError:
                    return None
                self._front = FrontEnd(self)
            return self._front

    @property
    def pose(self) -> Pose:
        return self.scene.pose

    def state(self) -> dict[str, Any]:
        """The scene state of DESIGN.md: every difference from the file as loaded, IFC frame."""
        return self.scene.to_json()


class SessionView:
    """A session's scene as a parse sees it (``language.scene_view.SceneView``): answers only; nothing
    here changes the session."""

    __slots__ = ("_s",)

    def __init__(self, session: Session) -> None:
        self._s = session

    def selected(self) -> list[str]:
        return list(self._s.scene.selected)

    def it(self) -> list[str]:
        return list(self._s.executor.last_ids)

    def any_hidden(self) -> bool:
        return bool(self._s.scene.hidden)

    def is_hidden(self, ids: Collection[str]) -> bool:
        hidden = self._s.scene.hidden
        return any(g in hidden for g in ids)

    def colour_of(self, ids: Collection[str]) -> list[float] | None:
        for g in ids:
            col = self._s.scene.colors.get(g)
            if col:
                return list(col)
            el = self._s.building.elements.get(g)
            if el is not None and el.color:
                return list(el.color)
        return None

    def user_storey(self) -> str | None:
        s = self._s
        storey = storey_at_pose(s.building, s.graph, s.spatial, s.pose)
        return storey.id if storey is not None else None

    def user_room(self) -> str | None:
        s = self._s
        return Context(s.building, s.graph, s.spatial, s.scene).user_room()

    def peek(self, selector: Mapping[str, Any]) -> list[str]:
        return self._s.executor.peek(dict(selector))
