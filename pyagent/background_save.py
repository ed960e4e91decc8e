"""Writing a revision without blocking the link: the IFC is built and written in a forked child process.

Saving an edited model takes seconds to tens of seconds (MiniProject: ~30 s), nearly all of it inside
ifcopenshell, which holds the interpreter lock; in a thread it would still stall the link. A child made
with ``fork`` starts with the session's state as it is at that instant (copy-on-write, nothing pickled),
writes the file and sends back its report through a pipe; the parent keeps answering engines and picks up
the outcome with ``outcome()``.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from pyagent.ifcsave import SaveReport

log = logging.getLogger("pyagent.save")


@dataclass
class SaveOutcome:
    """How a background save ended: ``report`` when the revision is on disk, else ``error``."""

    path: Path
    report: SaveReport | None
    error: str | None = None
    seconds: float = 0.0


def _child(work: Callable[[], SaveReport], send: Connection) -> None:
    try:
        outcome: tuple[str, Any] = ("ok", work())
    except Exception as exc:  # noqa: BLE001 - every failure must reach the parent as a message
        outcome = ("error", f"{exc}"[:300] or type(exc).__name__)
    try:
        send.send(outcome)
    finally:
        send.close()
        os._exit(0)  # no atexit handlers, no flushing of the parent's inherited buffers


class BackgroundSave:
    """One revision being written by a child process."""

    def __init__(self, path: Path, work: Callable[[], SaveReport]) -> None:
        ctx = multiprocessing.get_context("fork")
        self.path = path
        self.started = time.monotonic()
        self._recv, send = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=_child, args=(work, send), name=f"save {path.name}", daemon=False)
        self._proc.start()
        send.close()
        self._outcome: SaveOutcome | None = None

    def outcome(self, timeout: float = 0.0) -> SaveOutcome | None:
        """The outcome once the child has finished (waiting up to ``timeout`` seconds), else None."""
        if self._outcome is not None:
            return self._outcome
        try:
            ready = self._recv.poll(timeout)
        except (EOFError, OSError):
            ready = True
        if not ready and self._proc.is_alive():
            return None
        try:
            kind, value = self._recv.recv()
        except (EOFError, OSError):  # the child died without a word (killed, out of memory)
            self._proc.join(5)
            kind, value = "error", f"the save process ended unexpectedly (exit code {self._proc.exitcode})"
        self._proc.join(30)
        self._recv.close()
        seconds = time.monotonic() - self.started
        if kind == "ok":
            self._outcome = SaveOutcome(self.path, value, None, seconds)
        else:
            self._outcome = SaveOutcome(self.path, None, str(value), seconds)
        log.info("save of %s finished in %.1f s: %s", self.path, seconds, self._outcome.error or "ok")
        return self._outcome
