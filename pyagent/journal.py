"""The session journal: an append-only, checksummed JSON-lines file of every applied change.

Each line is ``<crc32 as 8 hex digits> <compact JSON>``. The first record is a header naming the source
file by its SHA-256; then come ``change`` records (the state delta, the undo-history operation and the
request that caused it), ``pose`` records and ``checkpoint`` records (a full snapshot, written when the
journal is compacted). A change is appended and fsync'ed before it is acknowledged, so a crash loses
nothing that was acknowledged; a torn last line (the process died mid-write) is dropped on reading;
a damaged line elsewhere stops the replay there and the damaged file is kept aside.

This module knows files and state dicts (DESIGN.md's ``state`` shape); ``pyagent.persistence`` wires it
to a session.
"""

from __future__ import annotations

import contextlib
import copy
import fcntl
import json
import os
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

JOURNAL_VERSION = 1
JOURNAL_FILE = "journal.jsonl"
LOCK_FILE = "journal.lock"
MAX_RECORD_BYTES = 64 << 20
STATE_KEYS = ("hidden", "colors", "transforms", "deleted", "props", "pose", "selected", "sections", "viewpoints",
              "sun", "view_scale")
#: State keys journaled as whole values, with their value in a state written before they existed.
WHOLE_KEYS: dict[str, Any] = {"sections": [], "viewpoints": {}, "sun": None, "view_scale": None}


def with_review_keys(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` with the keys added after journal version 1 first appeared (sections, views, sun, scale)."""
    return {**{k: copy.deepcopy(v) for k, v in WHOLE_KEYS.items()}, **state}


def _datasync(fd: int) -> None:
    """The appended bytes and the new file size on disk: ``fdatasync`` (it skips the timestamps that
    ``fsync`` also writes), ``fsync`` where there is no ``fdatasync``."""
    (getattr(os, "fdatasync", None) or os.fsync)(fd)


class JournalError(Exception):
    """The journal cannot be used (locked by another agent, unreadable folder); the message says why."""


# ---- lines -----------------------------------------------------------------------------------
def encode(record: dict[str, Any]) -> bytes:
    payload = json.dumps(record, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode()
    return f"{zlib.crc32(payload):08x} ".encode() + payload + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """One journal line back to its record; ``ValueError`` when it is damaged."""
    if not line.endswith(b"\n"):
        raise ValueError("incomplete line")
    if len(line) < 11 or line[8:9] != b" ":
        raise ValueError("no checksum")
    try:
        crc = int(line[:8], 16)
    except ValueError as exc:
        raise ValueError("bad checksum field") from exc
    payload = line[9:-1]
    if zlib.crc32(payload) != crc:
        raise ValueError("checksum mismatch")
    record = json.loads(payload)
    if not isinstance(record, dict) or not isinstance(record.get("k"), str):
        raise ValueError("not a journal record")
    return record


def cut_short(line: bytes) -> bool:
    """Whether a last line that does not decode is what a write cut short leaves: the start of a record
    (checksum digits, a space, JSON text) without its newline. A complete line that fails its checksum,
    or bytes no writer produces (zeroed blocks after a crash of the file system), are damage instead."""
    if line.endswith(b"\n") or b"\x00" in line:
        return False
    head = line[:9]
    return all(c in b"0123456789abcdef" for c in head[:8]) and (len(head) < 9 or head[8:9] == b" ")


def _whole_record(line: bytes) -> dict[str, Any] | None:
    """The record of a last line that is complete but for its line end (missing or damaged), else None."""
    if line.endswith(b"\n"):
        return None
    for candidate in (line + b"\n", line[:-1] + b"\n"):
        try:
            return decode(candidate)
        except (ValueError, UnicodeDecodeError):
            continue
    return None


# ---- state deltas ----------------------------------------------------------------------------
def state_delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What turns state ``old`` into ``new``; empty when they are equal. Order-preserving for lists."""
    d: dict[str, Any] = {}
    for key in ("hidden", "deleted"):
        a, b = set(old[key]), set(new[key])
        if a != b:
            d[key] = {"add": sorted(b - a), "remove": sorted(a - b)}
    for key in ("colors", "transforms"):
        a, b = old[key], new[key]
        changes = {g: b.get(g) for g in sorted(set(a) | set(b)) if a.get(g) != b.get(g)}
        if changes:
            d[key] = changes
    for key in ("props", "selected", "pose"):
        if old[key] != new[key]:
            d[key] = copy.deepcopy(new[key])
    for key, default in WHOLE_KEYS.items():
        if old.get(key, default) != new.get(key, default):
            d[key] = copy.deepcopy(new.get(key, default))
    return d


def _id_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{what} must be a list of ids")
    return value


def apply_delta(state: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """``state`` with ``delta`` applied (a new dict); ``ValueError`` when the delta is malformed."""
    if not isinstance(delta, dict) or not set(delta) <= set(STATE_KEYS):
        raise ValueError("malformed delta")
    out = with_review_keys(copy.deepcopy(state))
    for key in ("hidden", "deleted"):
        if key in delta:
            part = delta[key]
            if not isinstance(part, dict):
                raise ValueError(f"malformed {key} delta")
            current = set(out[key]) | set(_id_list(part.get("add", []), key))
            current -= set(_id_list(part.get("remove", []), key))
            out[key] = sorted(current)
    for key in ("colors", "transforms"):
        if key in delta:
            if not isinstance(delta[key], dict):
                raise ValueError(f"malformed {key} delta")
            for gid, value in delta[key].items():
                if value is None:
                    out[key].pop(gid, None)
                else:
                    out[key][gid] = copy.deepcopy(value)
            out[key] = dict(sorted(out[key].items()))
    if "props" in delta:
        if not isinstance(delta["props"], list) or not all(isinstance(p, dict) for p in delta["props"]):
            raise ValueError("malformed props")
        out["props"] = copy.deepcopy(delta["props"])
    if "selected" in delta:
        out["selected"] = list(_id_list(delta["selected"], "selected"))
    if "pose" in delta:
        if not isinstance(delta["pose"], dict):
            raise ValueError("malformed pose")
        out["pose"] = copy.deepcopy(delta["pose"])
    for key in WHOLE_KEYS:
        if key in delta:
            out[key] = copy.deepcopy(delta[key])  # checked against the schema by the caller
    return out


# ---- the file --------------------------------------------------------------------------------
@dataclass
class JournalContents:
    header: dict[str, Any] | None
    records: list[dict[str, Any]] = field(default_factory=list)
    good_bytes: int = 0  # length of the prefix of the file that holds complete, valid lines
    torn_tail: bool = False  # the last line was incomplete or damaged (a write cut short): dropped
    damaged_line: int | None = None  # 1-based number of a damaged line before the end: replay stops there
    problem: str | None = None


class Journal:
    """One session's journal file in ``folder`` (created if needed), locked against a second agent."""

    def __init__(self, folder: Path, source_sha: str, source_path: str = "", sync: bool = True) -> None:
        self.folder = Path(folder)
        self.path = self.folder / JOURNAL_FILE
        self.source_sha = source_sha
        self.source_path = source_path
        self.sync = sync
        self.records_since_checkpoint = 0
        self._fh: Any = None
        self._lock_fh: Any = None

    # -- opening and reading --
    def acquire(self) -> None:
        """Take the folder's lock; ``JournalError`` when another live agent holds it."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._lock_fh = open(self.folder / LOCK_FILE, "a+")  # noqa: SIM115 - held for the session
        except OSError as exc:
            raise JournalError(f"cannot use the journal folder {self.folder}: {exc}") from exc
        try:
            fcntl.flock(self._lock_fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            self._lock_fh.close()
            self._lock_fh = None
            raise JournalError(f"another agent is using the session journal in {self.folder}; "
                               "stop it first or give this one another journal folder") from exc

    def read(self) -> JournalContents:
        """Every valid record of the file (none when there is no file)."""
        contents = JournalContents(header=None)
        if not self.path.is_file():
            return contents
        offset = 0
        number = 0
        with open(self.path, "rb") as f:
            while True:
                line = f.readline(MAX_RECORD_BYTES + 1)
                if not line:
                    break
                number += 1
                try:
                    record = decode(line)
                except (ValueError, UnicodeDecodeError) as exc:
                    rest = f.read(1)
                    whole = _whole_record(line) if not rest and number > 1 else None
                    if whole is not None:
                        # a whole record whose line end was lost or damaged: kept, and the file is rewritten
                        contents.records.append(whole)
                        contents.damaged_line = number
                        contents.problem = f"line {number} of {self.path} had lost its line end"
                        offset += len(line)
                        break
                    if not rest and cut_short(line):  # the very last line: a write that was cut short
                        contents.torn_tail = True
                    else:  # damage (a flipped bit, zeroed blocks): reported, and the file is kept aside
                        contents.damaged_line = number
                        contents.problem = f"line {number} of {self.path} is damaged ({exc})"
                    break
                if number == 1:
                    if record.get("k") != "header":
                        contents.damaged_line = 1
                        contents.problem = f"{self.path} does not start with a journal header"
                        break
                    contents.header = record
                else:
                    contents.records.append(record)
                offset += len(line)
        contents.good_bytes = offset
        return contents

    def header_record(self) -> dict[str, Any]:
        return {"k": "header", "version": JOURNAL_VERSION, "sha256": self.source_sha, "source": self.source_path,
                "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}

    def set_aside(self, reason: str) -> Path | None:
        """Keep the current file under another name (never deleted) and start with none."""
        if not self.path.exists():
            return None
        self.close_file()
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.folder / f"journal.{stamp}.{reason}.jsonl"
        n = 1
        while target.exists():
            target = self.folder / f"journal.{stamp}.{reason}.{n}.jsonl"
            n += 1
        os.replace(self.path, target)
        fsync_dir(self.folder)
        return target

    def truncate(self, size: int) -> None:
        """Drop a torn tail so that the next record starts on a fresh line."""
        self.close_file()
        with open(self.path, "rb+") as f:
            f.truncate(size)
            f.flush()
            os.fsync(f.fileno())

    # -- writing --
    def _file(self) -> Any:
        if self._fh is None:
            new = not self.path.exists() or self.path.stat().st_size == 0
            # unbuffered: a failed write leaves nothing behind in memory to be written later
            self._fh = open(self.path, "ab", buffering=0)  # noqa: SIM115 - kept open for appends
            if new:
                try:
                    _write_all(self._fh, encode(self.header_record()))
                    self._flush(True)
                except OSError:
                    self._undo_append(0)
                    raise
                fsync_dir(self.folder)
        return self._fh

    def _flush(self, sync: bool) -> None:
        self._fh.flush()
        if sync and self.sync:
            _datasync(self._fh.fileno())

    def append(self, record: dict[str, Any], sync: bool = True) -> None:
        """Append one record; with ``sync`` it is on disk (fsync) when this returns. Raises ``OSError``."""
        line = encode(record)
        if len(line) > MAX_RECORD_BYTES:
            raise OSError(f"journal record too large ({len(line)} bytes)")
        fh = self._file()
        start = fh.tell()
        try:
            _write_all(fh, line)
            self._flush(sync)
        except OSError:
            self._undo_append(start)
            raise
        self.records_since_checkpoint += 1

    def _undo_append(self, start: int) -> None:
        """After a failed write (a full disk): drop what the buffer holds and whatever part of the line
        reached the file, so that the next record starts on a fresh line after the last good one."""
        fh, self._fh = self._fh, None
        with contextlib.suppress(OSError, ValueError):
            os.ftruncate(fh.fileno(), start)
        with contextlib.suppress(OSError, ValueError):
            fh.close()

    def sync_now(self) -> None:
        if self._fh is not None:
            self._flush(True)

    def rewrite(self, records: list[dict[str, Any]]) -> None:
        """Atomically replace the file with a header and ``records`` (compaction)."""
        tmp = self.folder / (JOURNAL_FILE + ".tmp")
        try:
            with open(tmp, "wb") as f:
                f.write(encode(self.header_record()))
                for record in records:
                    f.write(encode(record))
                f.flush()
                if self.sync:
                    os.fsync(f.fileno())
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        self.close_file()
        os.replace(tmp, self.path)
        fsync_dir(self.folder)
        self.records_since_checkpoint = 0

    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except OSError:
            return 0

    def close_file(self) -> None:
        if self._fh is not None:
            with contextlib.suppress(OSError):
                self._flush(True)
                self._fh.close()
            self._fh = None

    def close(self) -> None:
        self.close_file()
        if self._lock_fh is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock_fh.fileno(), fcntl.LOCK_UN)
                self._lock_fh.close()
            self._lock_fh = None


def _write_all(fh: Any, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = fh.write(view)
        if not n:
            raise OSError("the journal file accepted no more bytes")
        view = view[n:]


def fsync_dir(folder: Path) -> None:
    """Make a rename or a new file in ``folder`` durable (best effort where the platform refuses)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
