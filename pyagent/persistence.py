"""Never lose the user's work: the journal, saving to IFC and review notes, wired into a ``Session``.

- Every applied change (a ``do``/``say`` that changed something, a selection, undo/redo, a teleport) is
  appended to the session journal and fsync'ed *before* the request returns; if the journal cannot
  be written the change is rolled back and the request fails, so memory and disk never disagree.
- Poses are journaled without fsync (they survive a killed process, and the next change's fsync
  covers them), at most every ``pose_interval_s`` if that is set (a pose held back is written before
  the next change and on ``close``); long journals are compacted into a checkpoint.
- Opening a session with a journal replays it: the state, the undo/redo history, the revision, the
  and the conversational "it" come back exactly as they were acknowledged.
- ``executor.saver`` writes a new IFC revision (``pyagent.ifcsave``) plus the review notes as a
  ``.bcfzip`` next to it; ``executor.noter`` records a BCF topic (``pyagent.bcf``) from the user's pose.
"""

from __future__ import annotations

import contextlib
import copy
import getpass
import json
import re
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pyagent.actions.errors import StepError
from pyagent.actions.schema import def_validator, schema_errors
from pyagent.actions.state import SceneState, Snapshot
from pyagent.background_save import BackgroundSave
from pyagent.bcf import BcfError, Topic, TopicStore, make_topic, now_iso, project_id_for, write_bcfzip
from pyagent.ifcsave import (
    MAX_RENUMBER,
    SaveError,
    SaveReport,
    next_revision_path,
    remove_stale_temps,
    safe_stem,
    save_revision,
    writable_folder,
)
from pyagent.journal import (
    JOURNAL_FILE,
    JOURNAL_VERSION,
    Journal,
    JournalError,
    apply_delta,
    state_delta,
    with_review_keys,
)
from pyagent.model import Pose
from pyagent.paths import cache_dir
from pyagent.props import PROPS

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.language.dialogue import Dialogue
    from pyagent.model import Building
    from pyagent.scenegraph import SceneGraph


class Host(Protocol):
    """What the durable side needs of a session (``pyagent.session.Session`` is one): persistence never
    imports the session, which builds a ``Persistence`` around itself."""

    building: Building
    graph: SceneGraph
    executor: Executor
    scene: SceneState
    revision: int
    dialogue: Dialogue

DEFAULT_POSE_INTERVAL_S = 0.0  # every distinct pose is written (no fsync); compaction bounds the file
COMPACT_RECORDS = 5000
COMPACT_BYTES = 32 << 20
MAX_INPUT_CHARS = 16_384
HISTORY_OPS = ("undo", "redo")
GID_RE = re.compile(r"^[0-9A-Za-z_$]{22}$")

__all__ = ["Persistence", "RestoreReport", "JournalError", "default_journal_dir", "safe_child"]


def default_journal_dir(file_hash: str) -> Path:
    """``.cache/sessions/<file sha>/``: one journal per IFC file content."""
    return cache_dir() / "sessions" / file_hash[:24]


def safe_child(base: Path, name: str) -> Path:
    """``base / name`` when that stays inside ``base``; ``ValueError`` for anything that tries to leave it
    (``..``, absolute paths, links pointing out)."""
    if not name or "\x00" in name:
        raise ValueError("empty or invalid file name")
    root = base.resolve()
    target = (root / name).resolve()
    if target != root and root not in target.parents:
        raise ValueError(f"{name!r} is outside {base}")
    return target


def _author() -> str:
    try:
        return getpass.getuser() or "reviewer"
    except (KeyError, OSError):
        return "reviewer"


def _edits(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "pose"}


def _same(a: list[Any], b: list[Any]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def _snap_json(s: Snapshot) -> dict[str, Any]:
    return {"edits": s.edits, "pose": s.pose, "label": s.label}


def _trim(payload: Any) -> Any:
    try:
        text = json.dumps(payload, allow_nan=False)
    except (TypeError, ValueError):
        return repr(payload)[:MAX_INPUT_CHARS]
    return payload if len(text) <= MAX_INPUT_CHARS else f"({len(text)} characters, not kept)"


@lru_cache(maxsize=8)
def _validator(name: str) -> Any:
    return def_validator(name)


def _check(name: str, value: Any) -> None:
    error = next(iter(_validator(name).iter_errors(value)), None)
    if error is not None:
        raise ValueError(f"{name}: {error.message}")


@dataclass
class RestoreReport:
    folder: Path | None = None
    changes: int = 0  # change records replayed
    poses: int = 0
    checkpoint: bool = False
    revision: int = 0
    topics: int = 0
    set_aside: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        if self.folder is None:
            return "no journal"
        text = (f"journal {self.folder}: restored {self.changes} change(s)"
                f"{' from a checkpoint' if self.checkpoint else ''}, revision {self.revision}, {self.topics} note(s)")
        for p in self.set_aside:
            text += f"; kept the old journal as {p.name}"
        for problem in self.problems:
            text += f"; {problem}"
        return text


class Persistence:
    """The session's durable side: journal, saved revisions and review notes."""

    def __init__(self, session: Host) -> None:
        self.session = session
        self.journal: Journal | None = None
        self.topics = TopicStore(None)
        self.save_dir: Path | None = None
        self.pose_interval_s = DEFAULT_POSE_INTERVAL_S
        self.author = _author()
        self.transcript: str | None = None
        self.origin: str | None = None  # who asked, when not the reviewer (e.g. "mcp"): journaled as "src"
        self.last_save: SaveReport | None = None
        self.last_bcf: Path | None = None
        self._pending_pose = False
        self._last_pose_write = 0.0
        self._new_topics: list[str] = []
        self._view_state: dict[str, Any] = {}
        self._view_undo: list[Snapshot] = []
        self._view_redo: list[Snapshot] = []
        self._view_rev = 0
        self._view_dialogue: dict[str, Any] = {}
        self.background_saves = False  # the link turns it on: saving must not block the engines
        self.last_save_error: str | None = None
        self._save_job: BackgroundSave | None = None
        session.executor.saver = self.save
        session.executor.noter = self.note
        session.executor.exporter = self.export_notes

    # ---- the journal ----------------------------------------------------------------------
    def open_journal(self, folder: Path, fresh: bool = False) -> RestoreReport:
        """Use the journal in ``folder``: replay it into the session (unless ``fresh``: then the old one
        is kept aside). Raises ``JournalError`` when another agent holds it."""
        s = self.session
        b = s.building
        journal = Journal(Path(folder), b.file_hash, str(b.path))
        journal.acquire()
        report = RestoreReport(folder=Path(folder))
        try:
            if fresh:
                for aside in (journal.set_aside("previous"), _set_aside_topics(Path(folder), "previous")):
                    if aside:
                        report.set_aside.append(aside)
            with contextlib.suppress(OSError):  # a compaction cut short: the journal itself is intact
                (Path(folder) / (JOURNAL_FILE + ".tmp")).unlink()
            contents = journal.read()
            rewrite = False
            if contents.header is not None and (contents.header.get("sha256") != b.file_hash
                                                or contents.header.get("version") != JOURNAL_VERSION):
                reason = "other-file" if contents.header.get("sha256") != b.file_hash else "old-version"
                report.problems.append("the journal there belongs to another version of the file; started afresh")
                for aside in (journal.set_aside(reason), _set_aside_topics(Path(folder), reason)):
                    if aside:
                        report.set_aside.append(aside)
            elif contents.header is not None or contents.damaged_line is not None:
                used = self._replay(contents.records, report)
                if contents.damaged_line is not None or used < len(contents.records):
                    if contents.problem:
                        report.problems.append(contents.problem + "; restored what came before it")
                    aside = journal.set_aside("damaged")
                    if aside:
                        report.set_aside.append(aside)
                    rewrite = True
                journal.records_since_checkpoint = len(contents.records)
            if contents.torn_tail and not rewrite and journal.path.exists():
                journal.truncate(contents.good_bytes)  # the next record must start on a fresh line
            self.journal = journal
            self.topics = TopicStore(Path(folder) / "topics")
            report.problems.extend(self.topics.load())
            report.topics = len(self.topics.topics)
            self._snapshot_view()
            if rewrite or journal.records_since_checkpoint >= COMPACT_RECORDS:
                journal.rewrite([self._checkpoint_record()])
        except OSError as exc:
            journal.close()
            self.journal = None
            raise JournalError(f"cannot use the journal in {folder}: {exc}") from exc
        report.revision = s.revision
        return report

    def _replay(self, records: list[dict[str, Any]], report: RestoreReport) -> int:
        """Apply journal records to the session; returns how many were used (stops at the first bad one)."""
        s = self.session
        ex = s.executor
        state = s.scene.to_json()
        rev = s.revision
        dialogue = self._dialogue()
        used = 0
        h = ex.history
        for i, rec in enumerate(records):
            kept = (list(h.undo), list(h.redo))
            try:
                kind = rec.get("k")
                if kind == "pose":
                    self._check_pose(rec["pose"])
                    state = {**state, "pose": copy.deepcopy(rec["pose"])}
                    report.poses += 1
                elif kind == "checkpoint":
                    new = self._checked_state(rec["state"])
                    undo = [self._checked_snapshot(x) for x in rec.get("undo", [])]
                    redo = [self._checked_snapshot(x) for x in rec.get("redo", [])]
                    h.undo, h.redo = undo, redo
                    state = new
                    rev = int(rec["rev"])
                    dialogue = self._checked_dialogue(rec.get("dialogue", dialogue))
                    report.checkpoint = True
                elif kind == "change":
                    delta = rec.get("delta", {})
                    self._check_delta(delta)
                    new = apply_delta(state, delta)
                    self._replay_history(rec.get("hist"), state, new)
                    state = new
                    rev = int(rec.get("rev", rev))
                    if "dialogue" in rec:
                        dialogue = self._checked_dialogue(rec["dialogue"])
                    report.changes += 1
                elif kind == "dialogue":
                    dialogue = self._checked_dialogue(rec["dialogue"])
                else:
                    raise ValueError(f"unknown record kind {kind!r}")
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                h.undo, h.redo = kept
                report.problems.append(f"journal record {i + 2} cannot be replayed ({exc})")
                break
            used = i + 1
        s.scene.restore_edits(_edits(state))
        s.scene.pose = Pose.from_json(state["pose"])
        s.revision = rev
        self._set_dialogue(dialogue)
        return used

    def _replay_history(self, hist: Any, before: dict[str, Any], after: dict[str, Any]) -> None:
        h = self.session.executor.history
        if hist is None:
            return
        op = hist["op"]
        if op == "push":
            h.push(Snapshot(copy.deepcopy(_edits(before)), copy.deepcopy(before["pose"]) if hist["pose"] else None,
                            str(hist["label"])))
        elif op in HISTORY_OPS:
            n = int(hist["n"])
            if not 1 <= n <= len(h.undo if op == "undo" else h.redo):
                raise ValueError(f"{op} of {n} with a shorter history")
            scene = self.session.scene
            scene.restore_edits(_edits(before))
            scene.pose = Pose.from_json(before["pose"])
            r = self.session.executor.run({"steps": [{"op": op, "count": n}]})
            if not r.ok or scene.to_json() != after:
                raise ValueError(f"{op} does not lead to the journaled state")
        elif op == "full":
            undo = [self._checked_snapshot(x) for x in hist["undo"]]
            redo = [self._checked_snapshot(x) for x in hist["redo"]]
            h.undo, h.redo = undo, redo
        else:
            raise ValueError(f"unknown history operation {op!r}")

    # ---- the dialogue: what "it" and "that" mean, and the front end's last steps --------------
    def _dialogue(self) -> dict[str, Any]:
        return {"it": list(self.session.executor.last_ids),
                "steps": copy.deepcopy(self.session.dialogue.last_steps)}

    def _set_dialogue(self, dialogue: dict[str, Any]) -> None:
        self.session.executor.last_ids = list(dialogue["it"])
        steps = dialogue.get("steps")  # None in journals written before a session had no front end
        self.session.dialogue.last_steps = copy.deepcopy(steps) if steps is not None else []

    def _checked_dialogue(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise ValueError("malformed dialogue")
        it = self._checked_ids(data.get("it", []))
        steps = data.get("steps")
        if steps is not None and (not isinstance(steps, list) or (steps and schema_errors({"steps": steps}))):
            raise ValueError("the remembered steps are not a valid program")
        return {"it": it, "steps": copy.deepcopy(steps)}

    # validation of what the journal says (it is data from disk: never trusted blindly)
    def _checked_ids(self, ids: Any) -> list[str]:
        """Ids from the journal must be IFC GlobalIds (of elements, or of props placed and maybe removed
        since: a state can keep the colour of a deleted prop)."""
        if not isinstance(ids, list) or not all(isinstance(g, str) for g in ids):
            raise ValueError("ids must be a list of strings")
        bad = [g for g in ids if not GID_RE.match(g)]
        if bad:
            raise ValueError(f"{bad[0][:40]!r} is not an element id")
        return list(ids)

    def _check_props(self, props: list[Any]) -> None:
        if not isinstance(props, list):
            raise ValueError("props must be a list")
        for p in props:
            _check("engine_prop", p)
            if p["asset"] not in PROPS:
                raise ValueError(f"unknown prop asset {p['asset']!r}")
            if not GID_RE.match(p["id"]) or p["id"] in self.session.building.elements:
                raise ValueError(f"bad prop id {p['id'][:40]!r}")
            self.session.executor.bounds.check(p["position"], f"the placed {p['asset']}")

    def _check_place(self, gid: str, transform: dict[str, Any]) -> None:
        """A moved element must stay within the session's bounds (the executor's rule)."""
        bounds = self.session.executor.bounds
        el = self.session.building.elements.get(gid)
        base = el.centre if el is not None and el.has_geometry else bounds.middle()
        where = [float(b) + float(t) for b, t in zip(base.tolist(), transform["translation"], strict=True)]
        bounds.check(where, f"the moved element {gid}")

    def _check_pose(self, pose: Any) -> None:
        _check("engine_pose", pose)
        self.session.executor.bounds.check(pose["position"], "the viewer's position")

    def _check_delta(self, delta: Any) -> None:
        if not isinstance(delta, dict):
            raise ValueError("malformed delta")
        if "props" in delta:
            self._check_props(delta["props"])
        for key in ("hidden", "deleted"):
            if key in delta:
                self._checked_ids(delta[key].get("add", []))
        for key, schema_name in (("sections", "engine_sections"), ("sun", "engine_sun"),
                                 ("view_scale", "engine_view_scale")):
            if key in delta:
                _check(schema_name, delta[key])
        if "viewpoints" in delta:
            if not isinstance(delta["viewpoints"], dict):
                raise ValueError("malformed viewpoints")
            for view in delta["viewpoints"].values():
                _check("engine_viewpoint", view)
        for key, schema in (("colors", "rgba"), ("transforms", "engine_transform")):
            if key in delta:
                if not isinstance(delta[key], dict):
                    raise ValueError(f"malformed {key}")
                self._checked_ids(list(delta[key]))
                valid: set[str] = set()  # a change to many elements repeats one value: checked once
                for gid, v in delta[key].items():
                    if v is not None:
                        text = repr(v)
                        if text not in valid:
                            _check(schema, v)
                            valid.add(text)
                        if key == "transforms":
                            self._check_place(gid, v)
        if "selected" in delta:
            self._checked_ids(delta["selected"])
        if "pose" in delta:
            self._check_pose(delta["pose"])

    def _checked_state(self, state: Any, with_pose: bool = True) -> dict[str, Any]:
        if isinstance(state, dict):
            state = with_review_keys(state)
        if with_pose:
            _check("engine_state", state)
            self._check_pose(state["pose"])
        else:
            _check("engine_state", {**state, "pose": {"position": [0, 0, 0], "yaw": 0, "pitch": 0}})
        self._check_props(state["props"])
        for key in ("hidden", "deleted", "selected"):
            self._checked_ids(state[key])
        self._checked_ids(list(state["colors"]) + list(state["transforms"]))
        for gid, t in state["transforms"].items():
            self._check_place(gid, t)
        return copy.deepcopy(state)

    def _checked_snapshot(self, data: Any) -> Snapshot:
        if not isinstance(data, dict):
            raise ValueError("malformed history entry")
        pose = data.get("pose")
        if pose is not None:
            self._check_pose(pose)
        if not isinstance(data.get("edits"), dict) or "pose" in data["edits"]:
            raise ValueError("malformed history entry")
        edits = self._checked_state(data["edits"], with_pose=False)
        return Snapshot(_edits(edits), copy.deepcopy(pose), str(data.get("label", "")))

    # ---- recording ------------------------------------------------------------------------
    def _snapshot_view(self, state: dict[str, Any] | None = None) -> None:
        s = self.session
        ex = s.executor
        self._view_state = state if state is not None else s.scene.to_json()
        self._view_undo = list(ex.history.undo)
        self._view_redo = list(ex.history.redo)
        self._view_rev = s.revision
        self._view_dialogue = self._dialogue()

    def _checkpoint_record(self) -> dict[str, Any]:
        return {"k": "checkpoint", "state": self._view_state, "undo": [_snap_json(x) for x in self._view_undo],
                "redo": [_snap_json(x) for x in self._view_redo], "rev": self._view_rev,
                "dialogue": self._view_dialogue, "t": round(time.time(), 3)}

    def before_change(self) -> None:
        """Called as a request starts: the pending pose goes to the journal first."""
        self._new_topics = []
        if self.journal is not None and self._pending_pose:
            self._write_pose()

    def pose_changed(self) -> str | None:
        """The viewer moved: journal the pose (or hold it back, with ``pose_interval_s``). Returns why it
        could not be recorded (the caller then refuses the pose), or None."""
        if self.journal is None:
            return None
        if time.monotonic() - self._last_pose_write >= self.pose_interval_s:
            return self._write_pose()
        self._pending_pose = True
        return None

    def _write_pose(self) -> str | None:
        assert self.journal is not None
        self._pending_pose = False
        pose = self.session.scene.pose.to_json()
        if pose == self._view_state.get("pose"):
            return None
        try:
            self._check_pose(pose)
            self.journal.append({"k": "pose", "pose": pose}, sync=False)
        except (OSError, ValueError) as exc:  # never journal what the replay would refuse
            return f"the pose could not be recorded ({exc})"
        self._view_state = {**self._view_state, "pose": pose}
        self._last_pose_write = time.monotonic()
        return None

    def _history_change(self, program: Any) -> dict[str, Any] | None:
        h = self.session.executor.history
        u0, r0, u1, r1 = self._view_undo, self._view_redo, h.undo, h.redo
        if _same(u0, u1) and _same(r0, r1):
            return None
        steps = program.get("steps") if isinstance(program, dict) else None
        op = steps[0].get("op") if isinstance(steps, list) and len(steps) == 1 and isinstance(steps[0], dict) else None
        if op == "undo":
            k = len(r1) - len(r0)
            if k > 0 and _same(r1[:len(r0)], r0) and _same(u1, u0[:len(u0) - k]):
                return {"op": "undo", "n": k}
        elif op == "redo":
            k = len(u1) - len(u0)
            if k > 0 and _same(u1[:len(u0)], u0) and _same(r1, r0[:len(r0) - k]):
                return {"op": "redo", "n": k}
        elif not r1 and u1 and all(u1[-1] is not x for x in u0):
            rest = u1[:-1]
            snap = u1[-1]
            if len(rest) <= len(u0) and _same(rest, u0[len(u0) - len(rest):]) \
                    and snap.edits == _edits(self._view_state) \
                    and (snap.pose is None or snap.pose == self._view_state["pose"]):
                return {"op": "push", "label": snap.label, "pose": snap.pose is not None}
        return {"op": "full", "undo": [_snap_json(x) for x in u1], "redo": [_snap_json(x) for x in r1]}

    def commit(self, cause: str, payload: Any, program: Any = None, ok: bool = True,
               changed: bool | None = None) -> str | None:
        """Journal what the request just changed (fsync). Returns an error for the user when it could not
        be recorded: the session is then rolled back to the last recorded state. ``changed=False`` (the
        executor says nothing changed) skips comparing the whole state."""
        if not ok:
            for guid in self._new_topics:
                self.topics.discard(guid)
            self._new_topics = []
        if self.journal is None:
            return None
        s = self.session
        hist = self._history_change(program)
        quiet = changed is False and hist is None and s.revision == self._view_rev
        new = self._view_state if quiet else s.scene.to_json()
        delta = {} if quiet else state_delta(self._view_state, new)
        dialogue = self._dialogue()
        if not delta and hist is None and s.revision == self._view_rev:
            if dialogue != self._view_dialogue:  # what "it" means: kept, but not worth an fsync
                try:
                    self.journal.append({"k": "dialogue", "dialogue": dialogue}, sync=False)
                    self._view_dialogue = dialogue
                except (OSError, ValueError):
                    pass
            return None
        rec: dict[str, Any] = {"k": "change", "rev": s.revision, "cause": cause, "delta": delta,
                               "t": round(time.time(), 3)}
        if hist is not None:
            rec["hist"] = hist
        if dialogue != self._view_dialogue:
            rec["dialogue"] = dialogue
        rec["input"] = _trim(payload)
        if self.origin:
            rec["src"] = self.origin
        problem = self._unreplayable(rec)
        if problem:
            self.rollback()
            return f"the change could not be kept, so it was not applied ({problem})"
        try:
            self.journal.append(rec, sync=True)
        except (OSError, ValueError) as exc:
            self.rollback()
            return f"the change could not be recorded, so it was not applied ({exc})"
        self._snapshot_view(new)
        if self.journal.records_since_checkpoint >= COMPACT_RECORDS or self.journal.size() >= COMPACT_BYTES:
            try:
                self.journal.rewrite([self._checkpoint_record()])
            except OSError:
                pass  # keep appending to the long journal
        return None

    def _unreplayable(self, rec: dict[str, Any]) -> str | None:
        """Why a change record would be refused on replay (the replay's own checks), or None."""
        try:
            self._check_delta(rec["delta"])
            hist = rec.get("hist")
            if hist is not None and hist["op"] == "full":
                for x in hist["undo"] + hist["redo"]:
                    self._checked_snapshot(x)
            if "dialogue" in rec:
                self._checked_dialogue(rec["dialogue"])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            return str(exc)
        return None

    def rollback(self) -> None:
        """Back to the last journaled state (memory must never be ahead of the disk)."""
        s = self.session
        ex = s.executor
        s.scene.restore_edits(_edits(self._view_state))
        s.scene.pose = Pose.from_json(self._view_state["pose"])
        ex.history.undo, ex.history.redo = list(self._view_undo), list(self._view_redo)
        s.revision = self._view_rev
        self._set_dialogue(self._view_dialogue)
        for guid in self._new_topics:
            self.topics.discard(guid)
        self._new_topics = []

    def close(self) -> None:
        if self._save_job is not None:  # the user asked for it: let it finish
            self.poll_save(timeout=600)
        if self.journal is not None:
            if self._pending_pose:
                self._write_pose()
            self.journal.close()
            self.journal = None

    # ---- saving and notes -----------------------------------------------------------------
    def output_folder(self) -> Path:
        """Where revisions go: the configured folder, else next to the source, else the cache."""
        if self.save_dir is not None:
            return self.save_dir
        src = Path(self.session.building.path)
        if writable_folder(src.parent):
            return src.parent
        return cache_dir() / "revisions" / self.session.building.file_hash[:24]

    def save(self, state: SceneState) -> str:
        """``executor.saver``: write a new IFC revision (and the notes as .bcfzip beside it). With
        ``background_saves`` the revision is written by a child process and this returns at once (a
        sentence saying so); ``poll_save`` reports the outcome. A save asked for while one is being
        written is refused."""
        s = self.session
        src = Path(s.building.path)
        if self._save_job is not None and self.poll_save() is None:
            raise StepError(f"{self._save_job.path.name} is still being written; ask again when it is done")
        try:
            folder = self.output_folder()
            folder.mkdir(parents=True, exist_ok=True)
            remove_stale_temps(folder)
            stem = safe_stem(src)
            out = next_revision_path(folder, stem)
            snapshot = state.to_json()

            def write() -> SaveReport:
                return save_revision(src, out, s.building, snapshot, s.graph.room_at, self.author,
                                     renumber=lambda _taken: next_revision_path(folder, stem))
            if self.background_saves:
                self._save_job = BackgroundSave(out, write)
                return f"Saving a new revision: {out} is being written; I will say when it is done."
            report = write()
        except (SaveError, OSError) as exc:
            raise StepError(f"the revision could not be saved: {exc}") from exc
        except RuntimeError as exc:  # ifcopenshell's writer: a full disk, a vanished folder
            raise StepError(f"the revision could not be written (is the disk full?): {str(exc)[:200]}") from exc
        self._saved(report, snapshot)
        return str(report.path)

    def _saved(self, report: SaveReport, saved: dict[str, Any] | None = None) -> None:
        s = self.session
        out = report.path
        self.last_save = report
        if self.topics.topics or s.scene.viewpoints:
            # The notes go with the revision and name it: every component they refer to is in that file.
            saved = saved if saved is not None else s.scene.to_json()
            known = (set(s.building.elements) - set(saved["deleted"])) | set(report.props)
            try:
                self.last_bcf = self.export_bcf(out.with_suffix(".bcfzip"), ifc_file=out, known_ids=known)
            except (BcfError, OSError) as exc:
                report.warnings.append(str(exc))

    def poll_save(self, timeout: float = 0.0) -> str | None:
        """When a background save has finished (waiting up to ``timeout`` s): a sentence for the user, once.
        None while it runs or when there is none."""
        job = self._save_job
        if job is None:
            return None
        outcome = job.outcome(timeout)
        if outcome is None:
            return None
        self._save_job = None
        if outcome.report is None:
            self.last_save_error = outcome.error
            return f"The revision {outcome.path.name} could not be saved: {outcome.error}"
        self._saved(outcome.report)
        return f"Saved a new revision: {outcome.path}."

    @property
    def saving(self) -> bool:
        """True while a background save is being written."""
        return self._save_job is not None

    def export_bcf(self, path: Path | None = None, ifc_file: Path | None = None,
                   known_ids: set[str] | None = None) -> Path:
        """All review notes as a BCF 2.1 archive (default: ``<name>.notes<N>.bcfzip`` next to the revisions).
        The archive names ``ifc_file`` (default: the source file) and refers only to ``known_ids`` (default:
        the source's elements, so props placed in the review are left out of the viewpoints)."""
        b = self.session.building
        src = Path(b.path)
        named = ifc_file or src
        known = known_ids if known_ids is not None else set(b.elements)
        if path is not None:
            return self._write_bcf(path, named, known)
        folder = self.output_folder()
        folder.mkdir(parents=True, exist_ok=True)
        remove_stale_temps(folder)
        n = 1
        for _ in range(MAX_RENUMBER):
            while (candidate := folder / f"{safe_stem(src)}.notes{n}.bcfzip").exists():
                n += 1
            try:
                return self._write_bcf(candidate, named, known)
            except BcfError:
                if not candidate.exists():
                    raise
                n += 1  # another export took the name meanwhile
        raise BcfError(f"no free name for the notes in {folder}")

    def _write_bcf(self, path: Path, named: Path, known: set[str]) -> Path:
        b = self.session.building
        date = now_iso() if named != Path(b.path) else None
        return write_bcfzip([*self.topics.topics, *self.view_topics()], path,
                            project_name=b.project_name or Path(b.path).stem,
                            project_id=project_id_for(b.file_hash), ifc_filename=named.name,
                            ifc_project=_ifc_project_guid(named), file_date=date, known_ids=known,
                            origin=b.origin)

    def export_notes(self) -> str:
        """``executor.exporter``: the review notes as a BCF archive of their own; the answer says where."""
        if not self.topics.topics and not self.session.scene.viewpoints:
            raise StepError("there are no review notes or remembered views to export yet; say 'note that ...' first")
        try:
            path = self.export_bcf()
        except (BcfError, OSError) as exc:
            raise StepError(f"the notes could not be exported: {exc}") from exc
        self.last_bcf = path
        n = len(self.topics.topics)
        return f"Exported {n} note{'s' if n != 1 else ''} as BCF: {path}."

    def view_topics(self) -> list[Topic]:
        """The remembered views as BCF topics (type "Viewpoint"), each with its camera and section."""
        out = []
        first = self.topics.next_index()
        for i, (name, view) in enumerate(sorted(self.session.scene.viewpoints.items())):
            pose = view["pose"]
            out.append(make_topic(f"View: {name}", [], [float(v) for v in pose["position"]], float(pose["yaw"]),
                                  float(pose["pitch"]), [], {}, None, self.author, first + i,
                                  sections=view["sections"], topic_type="Viewpoint"))
        return out

    def note(self, text: str, ids: list[str], state: SceneState) -> str:
        """``executor.noter``: a BCF topic from the user's pose, the elements and the transcript."""
        pose = state.pose
        topic = make_topic(text, list(ids), [float(v) for v in pose.position], float(pose.yaw), float(pose.pitch),
                           sorted(state.hidden | state.deleted), dict(state.colors), self.transcript,
                           f"{self.author} (via {self.origin})" if self.origin else self.author,
                           self.topics.next_index(), sections=state.sections)
        try:
            self.topics.add(topic)
        except OSError as exc:
            raise StepError(f"the note could not be stored: {exc}") from exc
        self._new_topics.append(topic.guid)
        return topic.guid


def _set_aside_topics(folder: Path, reason: str) -> Path | None:
    """Keep the notes of a session that is not continued under another name (never deleted)."""
    topics = folder / "topics"
    if not topics.is_dir():
        return None
    target = folder / f"topics.{time.strftime('%Y%m%d-%H%M%S')}.{reason}"
    n = 1
    while target.exists():
        target = folder / f"topics.{time.strftime('%Y%m%d-%H%M%S')}.{reason}.{n}"
        n += 1
    topics.rename(target)
    return target


def _ifc_project_guid(path: Path) -> str | None:
    """The IfcProject GlobalId, found by scanning the file's text (no full parse)."""
    pattern = re.compile(rb"IFCPROJECT\s*\(\s*'([0-9A-Za-z_$]{22})'")
    try:
        with open(path, "rb") as f:
            tail = b""
            while chunk := f.read(1 << 20):
                m = pattern.search(tail + chunk)
                if m:
                    return m.group(1).decode()
                tail = chunk[-64:]
    except OSError:
        return None
    return None
