"""No silent loss: damage at the end of the journal is reported and kept aside, failed writes (a full
disk, a file-size limit) refuse the request and leave nothing behind, killed writers' temporary files are
cleaned, and concurrent saves into one folder each get their own revision number."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import ifcopenshell
import pytest
from persist_helpers import element_ids

from pyagent.journal import JOURNAL_FILE
from pyagent.model import Pose
from pyagent.session import Session


def hide(s: Session, ids: list[str]) -> None:
    r = s.do({"steps": [{"op": "hide", "target": {"ids": ids}}]})
    assert r.ok, r.error


@contextlib.contextmanager
def file_size_limit(limit: int) -> Iterator[None]:
    """Writes past ``limit`` bytes fail in this process (EFBIG), as on a disk that fills up mid-write."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old_handler)


def journaled(fzk_copy: Path, tmp_path: Path) -> tuple[Session, list[str]]:
    s = Session.open(fzk_copy, journal_dir=tmp_path / "j", pose_interval_s=0.0)
    return s, element_ids(s.building, "IfcWall")


def test_a_damaged_last_record_is_reported_and_kept_aside(fzk_copy: Path, tmp_path: Path) -> None:
    s, walls = journaled(fzk_copy, tmp_path)
    hide(s, walls[:1])
    good = s.state()
    hide(s, walls[1:2])
    s.close()
    path = tmp_path / "j" / JOURNAL_FILE
    data = bytearray(path.read_bytes())
    last = data.rindex(b"\n", 0, len(data) - 1) + 1
    data[last + 30] ^= 0x04  # one flipped bit inside the last, complete record
    path.write_bytes(bytes(data))
    again = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    report = again.restore_report
    assert again.state() == good
    assert any("damaged" in p for p in report.problems), report.problems
    assert report.set_aside and report.set_aside[0].read_bytes() == bytes(data)
    assert "damaged" in report.summary()
    again.close()


@pytest.mark.parametrize("end", [b"", b"\x0b"], ids=["lost", "flipped"])
def test_a_last_record_whose_line_end_is_damaged_is_kept(fzk_copy: Path, tmp_path: Path, end: bytes) -> None:
    s, walls = journaled(fzk_copy, tmp_path)
    hide(s, walls[:1])
    hide(s, walls[1:2])
    state = s.state()
    s.close()
    path = tmp_path / "j" / JOURNAL_FILE
    path.write_bytes(path.read_bytes()[:-1] + end)
    again = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    assert again.state() == state and again.restore_report.problems
    hide(again, walls[2:3])
    state = again.state()
    again.close()
    assert Session.open(fzk_copy, journal_dir=tmp_path / "j").state() == state


def test_a_zeroed_journal_is_reported_and_kept_aside(fzk_copy: Path, tmp_path: Path) -> None:
    s, walls = journaled(fzk_copy, tmp_path)
    hide(s, walls[:2])
    s.close()
    path = tmp_path / "j" / JOURNAL_FILE
    size = path.stat().st_size
    path.write_bytes(b"\x00" * size)  # what a file system can leave after a crash
    again = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    report = again.restore_report
    assert report.problems and report.set_aside and report.set_aside[0].read_bytes() == b"\x00" * size
    assert again.state()["hidden"] == []
    hide(again, walls[2:3])  # the session goes on with a fresh journal
    state = again.state()
    again.close()
    assert Session.open(fzk_copy, journal_dir=tmp_path / "j").state() == state


def test_a_pose_that_cannot_be_written_is_refused(fzk_copy: Path, tmp_path: Path) -> None:
    s, walls = journaled(fzk_copy, tmp_path)
    journal = s.persistence.journal
    assert journal is not None
    before = s.state()
    journal.close_file()
    journal._fh = open("/dev/full", "ab", buffering=0)  # noqa: SIM115 - the disk is full from now on
    with pytest.raises(ValueError, match="could not be recorded"):
        s.set_pose(Pose.from_json({"position": [4.0, 5.0, 1.6], "yaw": 30.0, "pitch": 0.0}))
    assert s.state() == before  # not acknowledged, not applied
    s.set_pose(Pose.from_json({"position": [3.0, 5.0, 1.6], "yaw": 20.0, "pitch": 0.0}))  # space again
    hide(s, walls[:1])
    state = s.state()
    s.close()
    assert Session.open(fzk_copy, journal_dir=tmp_path / "j").state() == state


def test_a_write_cut_short_leaves_no_partial_record(fzk_copy: Path, tmp_path: Path) -> None:
    s, walls = journaled(fzk_copy, tmp_path)
    hide(s, walls[:1])
    path = tmp_path / "j" / JOURNAL_FILE
    size = path.stat().st_size
    before = s.state()
    with file_size_limit(size + 40):  # the next record gets 40 bytes in, then the disk is full
        r = s.do({"steps": [{"op": "hide", "target": {"ids": walls[1:5]}}]})
        assert not r.ok and "not applied" in (r.error or "")
        with pytest.raises(ValueError):
            s.set_pose(Pose.from_json({"position": [4.0, 5.0, 1.6], "yaw": 30.0, "pitch": 0.0}))
    assert path.stat().st_size == size and s.state() == before
    hide(s, walls[5:6])
    state = s.state()
    s.close()
    again = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    assert again.restore_report.problems == [] and again.state() == state
    again.close()


def test_a_note_that_cannot_be_stored_leaves_no_file(fzk_copy: Path, tmp_path: Path) -> None:
    s, walls = journaled(fzk_copy, tmp_path)
    with file_size_limit(20):
        r = s.do({"steps": [{"op": "note", "text": "check this wall", "target": {"ids": walls[:1]}}]})
    assert not r.ok and "could not be stored" in (r.error or "")
    topics = tmp_path / "j" / "topics"
    assert not topics.exists() or list(topics.iterdir()) == []
    s.close()


def dead_pid() -> int:
    p = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                       check=True)
    return int(p.stdout)


def test_killed_writers_leave_no_temporary_files(fzk_copy: Path, tmp_path: Path) -> None:
    folder = fzk_copy.parent
    stale = folder / f".{fzk_copy.stem}.rev1.ifc.{dead_pid()}.tmp"
    stale.write_bytes(b"x" * (3 << 20))  # a save killed mid-write
    live = folder / f".{fzk_copy.stem}.rev1.ifc.1.tmp"  # pid 1 is alive: another writer's, left alone
    live.write_bytes(b"y")
    (tmp_path / "j").mkdir()
    (tmp_path / "j" / (JOURNAL_FILE + ".tmp")).write_bytes(b"z" * 1000)  # a compaction killed mid-write
    (tmp_path / "j" / "topics").mkdir()
    (tmp_path / "j" / "topics" / "0d6b3fb2-6e2b-4d8e-9a6c-9b3f3f0e1a11.json.tmp").write_bytes(b"")
    s, walls = journaled(fzk_copy, tmp_path)
    assert not (tmp_path / "j" / (JOURNAL_FILE + ".tmp")).exists()
    assert list((tmp_path / "j" / "topics").iterdir()) == []
    hide(s, walls[:1])
    assert s.say("save").ok
    assert not stale.exists() and live.exists()
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp") and p != live]
    s.close()


def test_concurrent_saves_take_the_next_number(fzk_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = Session.open(fzk_copy)
    hide(s, element_ids(s.building, "IfcWall")[:1])
    original = ifcopenshell.file.write
    rival = fzk_copy.with_name(f"{fzk_copy.stem}.rev1.ifc")

    def write_while_another_saves(self: ifcopenshell.file, path: str, *args: object, **kw: object) -> None:
        original(self, path, *args, **kw)
        if not rival.exists():
            rival.write_text("another agent's revision\n")  # it finished first, under the same name

    monkeypatch.setattr(ifcopenshell.file, "write", write_while_another_saves)
    r = s.say("save")
    assert r.ok, r.error
    assert "rev2" in r.answer
    assert rival.read_text() == "another agent's revision\n"
    assert ifcopenshell.open(str(fzk_copy.with_name(f"{fzk_copy.stem}.rev2.ifc"))).by_type("IfcWall")
    assert not [p for p in fzk_copy.parent.iterdir() if p.name.endswith(".tmp")]
    assert os.path.exists(s.persistence.last_save.path) and s.persistence.last_save.path.name.endswith("rev2.ifc")
