"""The session journal: what was acknowledged comes back exactly, damage is contained, and memory is never
ahead of the disk."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from persist_helpers import element_ids

from pyagent import persistence as persistence_mod
from pyagent.journal import JOURNAL_FILE, Journal, JournalError, apply_delta, decode, encode, state_delta
from pyagent.model import Pose
from pyagent.paths import cache_dir
from pyagent.session import Session


def history_of(s: Session) -> tuple[list[Any], list[Any]]:
    h = s.executor.history
    return ([(x.edits, x.pose, x.label) for x in h.undo], [(x.edits, x.pose, x.label) for x in h.redo])


def snapshot(s: Session) -> dict[str, Any]:
    steps = s.dialogue.last_steps
    return {"state": s.state(), "revision": s.revision, "history": history_of(s), "it": list(s.executor.last_ids),
            "steps": steps}


def busy_session(path: Path, journal: Path, **kw: Any) -> Session:
    """A session with every kind of change journaled: hide, colour, move, rotate, delete, props, selection,
    camera moves, undo and redo."""
    s = Session.open(path, journal_dir=journal, pose_interval_s=0.0, **kw)
    b = s.building
    walls, windows, doors = element_ids(b, "IfcWall"), element_ids(b, "IfcWindow"), element_ids(b, "IfcDoor")
    room = max(b.spaces(), key=lambda e: e.quantities.get("area", 0.0)).id
    steps = [
        {"op": "hide", "target": {"ids": walls[:2]}},
        {"op": "color", "target": {"ids": windows[:3]}, "rgba": [1, 0, 0, 1]},
        {"op": "move", "target": {"ids": [doors[0]]}, "delta": [0.4, 0.1, 0.0]},
        {"op": "rotate", "target": {"ids": [doors[1]]}, "degrees": 90},
        {"op": "delete", "target": {"ids": [windows[4]]}},
        {"op": "add_prop", "asset": "sofa", "anchor": {"ids": [room]}, "placement": "in"},
        {"op": "teleport", "target": {"ids": [room]}},
        {"op": "turn", "degrees": 90},
        {"op": "transparency", "target": {"ids": [walls[3]]}, "alpha": 0.3},
    ]
    for step in steps:
        r = s.do({"steps": [step]})
        assert r.ok, (step, r.error)
    assert s.do({"steps": [{"op": "undo", "count": 2}]}).ok
    assert s.do({"steps": [{"op": "redo"}]}).ok
    assert s.select([walls[5], windows[6]]).ok
    s.set_pose(Pose.from_json({"position": [4.0, 5.0, 1.6], "yaw": 33.0, "pitch": -5.0}))
    return s


# ---- lines and deltas ------------------------------------------------------------------------
def test_lines_carry_a_checksum_and_damage_is_detected() -> None:
    rec = {"k": "change", "delta": {"selected": ["a"]}, "rev": 3}
    line = encode(rec)
    assert decode(line) == rec
    with pytest.raises(ValueError, match="incomplete"):
        decode(line[:-1])
    flipped = line.replace(b'"rev":3', b'"rev":4')
    with pytest.raises(ValueError, match="checksum"):
        decode(flipped)
    with pytest.raises(ValueError):
        decode(b"0000000 " + b"x" * 20 + b"\n")
    with pytest.raises(ValueError):
        encode({"k": "change", "x": float("nan")})


GIDS = [f"{i:022d}" for i in range(12)]
_ids = st.lists(st.sampled_from(GIDS), unique=True, max_size=6)
_rgba = st.lists(st.floats(0, 1), min_size=4, max_size=4)
_vec = st.lists(st.floats(-100, 100), min_size=3, max_size=3)
_state = st.fixed_dictionaries({
    "hidden": _ids.map(sorted), "deleted": _ids.map(sorted),
    "colors": st.dictionaries(st.sampled_from(GIDS), _rgba, max_size=4).map(lambda d: dict(sorted(d.items()))),
    "transforms": st.dictionaries(st.sampled_from(GIDS), st.fixed_dictionaries(
        {"translation": _vec, "rotation_deg": _vec}), max_size=3).map(lambda d: dict(sorted(d.items()))),
    "props": st.lists(st.fixed_dictionaries({"id": st.sampled_from(GIDS), "asset": st.sampled_from(["sofa", "bed"]),
                                             "position": _vec, "yaw": st.floats(-180, 180)}), max_size=3),
    "pose": st.fixed_dictionaries({"position": _vec, "yaw": st.floats(-180, 180), "pitch": st.floats(-90, 90)}),
    "selected": _ids,
    "sections": st.lists(st.fixed_dictionaries({"location": _vec, "direction": st.sampled_from(
        [[0.0, 0.0, 1.0], [0.0, 0.0, -1.0], [1.0, 0.0, 0.0], [0.0, -1.0, 0.0]])}), max_size=6),
    "viewpoints": st.dictionaries(st.sampled_from(["entrance", "kitchen", "roof"]), st.fixed_dictionaries({
        "pose": st.fixed_dictionaries({"position": _vec, "yaw": st.floats(-180, 180), "pitch": st.floats(-90, 90)}),
        "sections": st.just([])}), max_size=2).map(lambda d: dict(sorted(d.items()))),
    "sun": st.none() | st.fixed_dictionaries({
        "date": st.just("2026-06-21"), "time": st.sampled_from(["09:00", "15:00"]),
        "timezone": st.just("Europe/Berlin"),
        "azimuth_deg": st.floats(0, 360), "elevation_deg": st.floats(-90, 90), "direction": st.just([0.0, 0.6, 0.8])}),
    "view_scale": st.none() | st.fixed_dictionaries({"scale": st.floats(0.01, 1), "pivot": _vec, "anchor": _vec}),
})


@settings(max_examples=200, deadline=None)
@given(_state, _state)
def test_a_delta_turns_one_state_into_the_other(old: dict[str, Any], new: dict[str, Any]) -> None:
    delta = state_delta(old, new)
    assert apply_delta(old, delta) == new
    assert state_delta(new, new) == {}
    assert json.loads(json.dumps(delta)) == delta  # plain JSON


@pytest.mark.parametrize("delta", [[], {"hidden": ["x"]}, {"colors": []}, {"props": {}}, {"selected": "ab"},
                                   {"pose": 3}, {"bogus": 1}, {"hidden": {"add": [1]}}])
def test_malformed_deltas_are_refused(delta: Any) -> None:
    state = {"hidden": [], "deleted": [], "colors": {}, "transforms": {}, "props": [], "selected": [],
             "pose": {"position": [0, 0, 0], "yaw": 0, "pitch": 0}}
    with pytest.raises(ValueError):
        apply_delta(state, delta)


# ---- restore -----------------------------------------------------------------------------------
def test_restart_restores_state_history_revision_and_it(fzk_copy: Path, tmp_path: Path) -> None:
    s = busy_session(fzk_copy, tmp_path / "j")
    before = snapshot(s)
    assert before["revision"] >= 12 and before["history"][0] and len(before["history"][1]) == 1
    s.close()
    s2 = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    assert snapshot(s2) == before
    assert s2.restore_report.changes >= 12 and not s2.restore_report.problems
    # The restored history behaves like the original one.
    for program in ({"steps": [{"op": "undo", "count": 4}]}, {"steps": [{"op": "redo", "count": 2}]}):
        assert s2.do(program).ok
    s2.close()
    s3 = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    reference = busy_session(fzk_copy, tmp_path / "j2")
    reference.do({"steps": [{"op": "undo", "count": 4}]})
    reference.do({"steps": [{"op": "redo", "count": 2}]})
    assert snapshot(s3) == snapshot(reference)


def test_without_close_nothing_acknowledged_is_lost(fzk_copy: Path, tmp_path: Path) -> None:
    s = busy_session(fzk_copy, tmp_path / "j")
    before = snapshot(s)
    s.persistence.journal._fh.close()  # as if the process died: no close(), no final flush
    s.persistence.journal._lock_fh.close()
    s2 = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    assert snapshot(s2) == before


def test_a_torn_last_line_is_dropped_and_the_journal_continues(fzk_copy: Path, tmp_path: Path) -> None:
    s = busy_session(fzk_copy, tmp_path / "j")
    before = snapshot(s)
    s.close()
    path = tmp_path / "j" / JOURNAL_FILE
    with open(path, "ab") as f:
        f.write(encode({"k": "change", "rev": 99, "delta": {"hidden": {"add": [], "remove": []}}})[:-20])
    s2 = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    assert snapshot(s2) == before and not s2.restore_report.problems
    assert s2.do({"steps": [{"op": "turn", "degrees": 180}]}).ok
    after = snapshot(s2)
    s2.close()
    assert snapshot(Session.open(fzk_copy, journal_dir=tmp_path / "j")) == after


def test_a_journal_cut_inside_its_header_starts_cleanly(fzk_copy: Path, tmp_path: Path) -> None:
    (tmp_path / "j").mkdir()
    header = Journal(tmp_path / "j", "x").header_record()
    (tmp_path / "j" / JOURNAL_FILE).write_bytes(encode(header)[:30])
    s = Session.open(fzk_copy, journal_dir=tmp_path / "j", pose_interval_s=0.0)
    assert not s.restore_report.problems and not s.restore_report.set_aside
    assert s.do({"steps": [{"op": "turn", "degrees": 90}]}).ok
    after = snapshot(s)
    s.close()
    s2 = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    assert snapshot(s2) == after and not s2.restore_report.problems


def test_a_damaged_line_stops_the_replay_and_the_file_is_kept_aside(fzk_copy: Path, tmp_path: Path) -> None:
    s = Session.open(fzk_copy, journal_dir=tmp_path / "j", pose_interval_s=0.0)
    walls = element_ids(s.building, "IfcWall")
    s.do({"steps": [{"op": "hide", "target": {"ids": walls[:1]}}]})
    good = snapshot(s)
    s.do({"steps": [{"op": "hide", "target": {"ids": walls[1:2]}}]})
    s.do({"steps": [{"op": "hide", "target": {"ids": walls[2:3]}}]})
    s.close()
    path = tmp_path / "j" / JOURNAL_FILE
    lines = path.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b'"hide"', b'"HIDE"')  # a flipped byte in the second change
    path.write_bytes(b"".join(lines))
    s2 = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    assert snapshot(s2) == good
    report = s2.restore_report
    assert report.problems and "damaged" in report.problems[0]
    assert report.set_aside and report.set_aside[0].exists()  # the damaged journal is kept, never deleted
    assert s2.do({"steps": [{"op": "hide", "target": {"ids": walls[3:4]}}]}).ok
    after = snapshot(s2)
    s2.close()
    assert snapshot(Session.open(fzk_copy, journal_dir=tmp_path / "j")) == after


@pytest.mark.parametrize("record", [
    {"k": "change", "rev": 2, "delta": {"hidden": {"add": ["../../etc/passwd"]}}},  # not an element id
    {"k": "change", "rev": 2, "delta": {"colors": {"WALL": [9, 9, 9, 9]}}},  # bad colour
    {"k": "change", "rev": 2, "delta": {"props": [{"id": "1234567890123456789012", "asset": "../../x",
                                                   "position": [0, 0, 0], "yaw": 0}]}},
    {"k": "change", "rev": 2, "delta": {"pose": {"position": [1e9, 0, 0], "yaw": 0, "pitch": 0}}},
    {"k": "change", "rev": 2, "delta": {}, "hist": {"op": "undo", "n": 50}},
    {"k": "change", "rev": 2, "delta": {}, "hist": {"op": "full", "undo": [{"edits": "x"}], "redo": []}},
    {"k": "checkpoint", "state": {"hidden": 5}},
    {"k": "exec", "code": "import os"},
])
def test_hostile_journal_records_are_refused(fzk_copy: Path, tmp_path: Path, record: dict[str, Any]) -> None:
    s = Session.open(fzk_copy, journal_dir=tmp_path / "j", pose_interval_s=0.0)
    wall = element_ids(s.building, "IfcWall")[0]
    s.do({"steps": [{"op": "hide", "target": {"ids": [wall]}}]})
    good = snapshot(s)
    s.close()
    text = json.dumps(record).replace("WALL", wall)
    with open(tmp_path / "j" / JOURNAL_FILE, "ab") as f:
        f.write(encode(json.loads(text)))
        f.write(encode({"k": "change", "rev": 3, "delta": {"selected": [wall]}}))
    s2 = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    assert snapshot(s2) == good
    assert s2.restore_report.problems


def test_a_journal_of_another_file_is_kept_aside(fzk_copy: Path, duplex_copy: Path, tmp_path: Path) -> None:
    s = busy_session(fzk_copy, tmp_path / "j")
    s.close()
    other = Session.open(duplex_copy, journal_dir=tmp_path / "j")
    assert other.state()["hidden"] == [] and other.revision == 0
    assert other.restore_report.set_aside and "other-file" in other.restore_report.set_aside[0].name


def test_fresh_starts_anew_and_keeps_the_old_journal(fzk_copy: Path, tmp_path: Path) -> None:
    s = busy_session(fzk_copy, tmp_path / "j")
    before = snapshot(s)
    s.close()
    s2 = Session.open(fzk_copy, journal_dir=tmp_path / "j", fresh=True)
    assert s2.revision == 0 and s2.state()["hidden"] == []
    aside = s2.restore_report.set_aside[0]
    s2.close()
    # The kept journal is still a complete journal: moving it back restores the old session.
    (tmp_path / "k").mkdir()
    aside.rename(tmp_path / "k" / JOURNAL_FILE)
    assert snapshot(Session.open(fzk_copy, journal_dir=tmp_path / "k")) == before


def test_a_second_agent_cannot_share_the_journal(fzk_copy: Path, tmp_path: Path) -> None:
    s = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    with pytest.raises(JournalError, match="another agent"):
        Session.open(fzk_copy, journal_dir=tmp_path / "j")
    s.close()
    Session.open(fzk_copy, journal_dir=tmp_path / "j").close()


def test_a_change_that_cannot_be_written_is_not_applied(fzk_copy: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    s = Session.open(fzk_copy, journal_dir=tmp_path / "j", pose_interval_s=0.0)
    walls = element_ids(s.building, "IfcWall")
    assert s.do({"steps": [{"op": "hide", "target": {"ids": walls[:1]}}]}).ok
    before = snapshot(s)

    def disk_full(self: Journal, record: dict[str, Any], sync: bool = True) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Journal, "append", disk_full)
    for request in (lambda: s.do({"steps": [{"op": "hide", "target": {"ids": walls[1:2]}}]}),
                    lambda: s.do({"steps": [{"op": "undo"}]}), lambda: s.select(walls[2:3]),
                    lambda: s.do({"steps": [{"op": "turn", "degrees": 90}]})):
        r = request()
        assert not r.ok and "No space left" in (r.error or "")
        assert snapshot(s) == before
    monkeypatch.undo()
    assert s.do({"steps": [{"op": "hide", "target": {"ids": walls[1:2]}}]}).ok
    after = snapshot(s)
    s.close()
    assert snapshot(Session.open(fzk_copy, journal_dir=tmp_path / "j")) == after


def test_long_journals_are_compacted_into_a_checkpoint(fzk_copy: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(persistence_mod, "COMPACT_RECORDS", 6)
    s = busy_session(fzk_copy, tmp_path / "j")
    before = snapshot(s)
    s.close()
    records = [decode(x) for x in (tmp_path / "j" / JOURNAL_FILE).read_bytes().splitlines(keepends=True)]
    assert any(r["k"] == "checkpoint" for r in records) and len(records) < 12
    s2 = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    assert s2.restore_report.checkpoint and snapshot(s2) == before


def test_the_last_pose_survives(fzk_copy: Path, tmp_path: Path) -> None:
    s = Session.open(fzk_copy, journal_dir=tmp_path / "j", pose_interval_s=3600.0)
    s.set_pose(Pose.from_json({"position": [1.0, 2.0, 1.6], "yaw": 10.0, "pitch": 0.0}))  # written (first)
    s.set_pose(Pose.from_json({"position": [3.0, 2.0, 1.6], "yaw": 20.0, "pitch": 0.0}))  # pending
    wall = element_ids(s.building, "IfcWall")[0]
    s.do({"steps": [{"op": "hide", "target": {"ids": [wall]}}]})  # the pending pose goes first
    s.set_pose(Pose.from_json({"position": [5.0, 2.0, 1.6], "yaw": 30.0, "pitch": 0.0}))  # pending
    expected = s.state()
    s.close()  # written on close
    assert Session.open(fzk_copy, journal_dir=tmp_path / "j").state() == expected


def test_changes_made_behind_the_executors_back_are_journaled_with_the_whole_history(
        fzk_copy: Path, tmp_path: Path) -> None:
    s = Session.open(fzk_copy, journal_dir=tmp_path / "j", pose_interval_s=0.0)
    walls = element_ids(s.building, "IfcWall")
    s.scene.hidden.add(walls[0])  # e.g. a front end that edits the scene directly
    assert s.do({"steps": [{"op": "hide", "target": {"ids": walls[1:2]}}]}).ok
    assert s.do({"steps": [{"op": "color", "target": {"ids": walls[2:3]}, "rgba": [0, 1, 0, 1]}]}).ok
    before = snapshot(s)
    s.close()
    assert snapshot(Session.open(fzk_copy, journal_dir=tmp_path / "j")) == before


def test_out_of_range_poses_are_refused_and_change_nothing(fzk_copy: Path) -> None:
    s = Session.open(fzk_copy)
    before = s.state()
    for bad in ({"position": [1e6, 0, 0]}, {"position": [0, 0, 0], "yaw": 1e12}):
        with pytest.raises(ValueError):
            s.set_pose(Pose.from_json(bad))
    assert s.state() == before


def test_default_journal_folder_is_per_file(fzk_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    buildings = cache_dir()
    monkeypatch.setenv("PYAGENT_CACHE", str(tmp_path / "cache"))
    s = Session.open(fzk_copy, cache=buildings, journal_dir=True)
    sha = s.building.file_hash
    assert s.persistence.journal is not None
    assert s.persistence.journal.folder == tmp_path / "cache" / "sessions" / sha[:24]
    s.close()
