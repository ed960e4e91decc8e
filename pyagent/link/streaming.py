"""Progressive first load for ``serve``: the building loads on a thread of its own; the link starts on the
fast pass's first view (``pyagent.loader.load``'s ``first_view``), and when the rest is made the engines
get it as a second glb part (``model_part`` in PROTOCOL.md) holding only the elements the first lacked.

    load = BackgroundLoad(path, progress=...)
    first = load.wait_first()       # the first view, or None when the load ended without one
    ...                             # serve the first view; later, on the link's thread:
    if load.done.is_set(): part = load.part()   # the full building and the glb of what it adds

``PYAGENT_HOLD_REST_S`` (seconds, default 0) holds the rest back that long after it is made: the tests of
what happens between the parts set it, as the rest of a small building can come within a second.
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.process
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from pyagent.glb import write_glb
from pyagent.ifcfile import IfcLoadError
from pyagent.loader import LoadedBuilding, _glb_parts, is_cached, load, save_cache
from pyagent.progress import Progress, no_progress

log = logging.getLogger(__name__)

HOLD_ENV = "PYAGENT_HOLD_REST_S"
#: How long the load's thread waits for the loading process to end once it has the building (the
#: process then writes the cache: a second or two for a large file).
CACHE_WRITE_PATIENCE_S = 120.0
MAX_HOLD_S = 60.0


@dataclass
class SecondPart:
    """What the second pass added to a first view: the full building, the GlobalIds that got their
    geometry, and a glb of only those (the engine's ``model_part``)."""

    full: LoadedBuilding
    ids: list[str]
    glb_path: Path
    seconds: float  # from the start of the load to this part being ready


def write_part_glb(full: LoadedBuilding, ids: list[str], path: Path) -> Path:
    """A glb of the elements ``ids`` of ``full`` alone (same frame, origin and colours as its model.glb)."""
    write_glb(_glb_parts(full.building, full.meshes, only=set(ids)), full.meshes.materials, path,
              copies=full.meshes.copy_of)
    return path


class StatusRelay:
    """A text sink that can be pointed elsewhere while it is used (the loading responder's, then the link
    server's status): ``relay(text)`` passes ``text`` to ``target``; thread-safe."""

    def __init__(self, target: Callable[[str], None]) -> None:
        self._lock = threading.Lock()
        self._target = target

    def point_at(self, target: Callable[[str], None]) -> None:
        with self._lock:
            self._target = target

    def __call__(self, text: str) -> None:
        with self._lock:
            target = self._target
        target(text)


def _child(conn: Connection, path: Path, cache: Path | None, use_cache: bool) -> None:
    """The load in a child process: progress, the first view, then the full building and its second part
    go to the parent through ``conn`` (pickled)."""
    started = time.perf_counter()
    first: list[LoadedBuilding] = []

    def on_first(f: LoadedBuilding) -> None:
        first.append(f)
        conn.send(("first", f))

    try:
        full = load(path, cache=cache, use_cache=use_cache, first_view=on_first, write_cache=False,
                    progress=lambda stage, done, total: conn.send(("progress", stage, done, total)))
        part = None
        hold = os.environ.get(HOLD_ENV, "")
        if first and hold:
            try:
                time.sleep(max(0.0, min(float(hold), MAX_HOLD_S)))
            except ValueError:
                pass
        if first:
            got = set(full.meshes.ids)
            ids = sorted(g for g in first[0].pending if g in got)
            glb = write_part_glb(full, ids, first[0].glb_path.with_name("part1.glb"))
            part = SecondPart(full, ids, glb, time.perf_counter() - started)
        conn.send(("done", full, part))
    except Exception as exc:  # noqa: BLE001 - every failure is the parent's to report
        conn.send(("error", exc if isinstance(exc, IfcLoadError | OSError) else RuntimeError(str(exc))))
        return
    finally:
        conn.close()
    # the parent has the building: the cache for its next start is written meanwhile (a failure only
    # means that the next start loads the file again)
    try:
        if not full.cached:
            save_cache(full)
    except OSError as exc:
        log.warning("the cache of %s could not be written: %s", path.name, exc)


class BackgroundLoad:
    """``pyagent.loader.load`` beside the caller. A first load runs in a child process (the geometry
    kernel holds the interpreter's lock for seconds at a time, which would stall the link), a cached one
    on a thread. ``first`` is the first view when the fast pass left elements out; ``done`` is set when
    the load ended, with ``result`` (the full building) or ``error``. ``progress`` is called on a thread
    of this process; ``after()`` runs there when the load ends (e.g. closing a progress bar)."""

    def __init__(self, path: str | Path, cache: Path | None = None, use_cache: bool = True,
                 progress: Progress = no_progress, after: Callable[[], None] | None = None) -> None:
        self.path = Path(path)
        self.first: LoadedBuilding | None = None
        self.result: LoadedBuilding | None = None
        self.error: BaseException | None = None
        self.done = threading.Event()
        self._first_ready = threading.Event()
        self._part: SecondPart | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        self._progress = progress
        self._after = after
        if use_cache and is_cached(self.path, cache):
            target: Callable[[], None] = lambda: self._in_thread(cache)  # noqa: E731
        else:
            parent, child = multiprocessing.get_context("fork").Pipe(duplex=False)
            self._process = multiprocessing.get_context("fork").Process(
                target=_child, args=(child, self.path, cache, use_cache), name="building-load", daemon=True)
            self._process.start()
            child.close()
            target = lambda: self._from_child(parent)  # noqa: E731
        self._thread = threading.Thread(target=self._finishing(target), name="building-load", daemon=True)
        self._thread.start()

    def _finishing(self, work: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                work()
            except Exception as exc:  # noqa: BLE001 - handed to whoever waits
                self.error = exc
            finally:
                self.done.set()
                self._first_ready.set()
                if self._after is not None:
                    self._after()
                if self._process is not None:  # it writes the cache after handing the building over
                    self._process.join(timeout=CACHE_WRITE_PATIENCE_S)
        return run

    def _in_thread(self, cache: Path | None) -> None:
        self.result = load(self.path, cache=cache, progress=self._progress)

    def _from_child(self, conn: Connection) -> None:
        try:
            while True:
                try:
                    msg = conn.recv()
                except EOFError:
                    raise RuntimeError("the loading process ended without a building") from None
                if msg[0] == "progress":
                    self._progress(msg[1], msg[2], msg[3])
                elif msg[0] == "first":
                    self.first = msg[1]
                    self._first_ready.set()
                elif msg[0] == "done":
                    self.result, self._part = msg[1], msg[2]
                    return
                else:
                    raise msg[1]
        finally:
            conn.close()

    def cancel(self) -> None:
        """Stop a load still running in its child process (its result is then an error)."""
        if self._process is not None and self._process.is_alive():
            self._process.terminate()

    def wait_first(self, timeout: float | None = None) -> LoadedBuilding | None:
        """Block until the first view is ready or the load has ended; the first view, or None when the
        load ended without one (then ``full()`` has the building). Raises the load's error if it failed
        before a first view."""
        self._first_ready.wait(timeout)
        if self.first is not None:
            return self.first
        if self.error is not None:
            raise self.error
        return None

    def full(self) -> LoadedBuilding:
        """The full building (after ``done``); raises the load's error."""
        self.done.wait()
        if self.error is not None:
            raise self.error
        assert self.result is not None
        return self.result

    def part(self) -> SecondPart | None:
        """The second part (after ``done``, when there was a first view); raises the load's error."""
        self.full()
        return self._part

    def join(self, timeout: float | None = None) -> None:
        """Wait for the load to end and a loading process to have written the cache (``timeout``: at most
        this long)."""
        self._thread.join(timeout)
