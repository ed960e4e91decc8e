"""Progress of long work (loading a building): a callback ``progress(stage, done, total)`` that the
loader calls, and the ways to show it — a bar on the terminal (tqdm, on stderr, only when stderr is a
terminal) and a throttled text line for the link's engines (``status`` messages while loading)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import IO, Protocol

from tqdm import tqdm

#: ``progress(stage, done, total)``: stage is one of STAGES; done/total count the stage's units.
Progress = Callable[[str, int, int], None]

#: The loader's stages, in order, and how they read in a sentence.
STAGES = {"open": "reading the file", "tessellate": "making the geometry", "ingest": "reading the elements",
          "write": "writing the model for the engine"}


def no_progress(stage: str, done: int, total: int) -> None:
    """A progress callback that shows nothing."""


def describe(stage: str, done: int, total: int) -> str:
    """'making the geometry: 40 % (120 of 300)' for a status line."""
    words = STAGES.get(stage, stage)
    if total <= 1:
        return words
    return f"{words}: {100 * done // max(total, 1)} % ({done} of {total})"


class _Bar(Protocol):
    def update(self, n: int) -> object: ...
    def close(self) -> None: ...


class TerminalBar:
    """One tqdm bar per stage on ``stream`` (stderr by default; never stdout, which may carry JSON
    lines). Silent when the stream is not a terminal or ``quiet``; a context manager."""

    def __init__(self, label: str, stream: IO[str] | None = None, quiet: bool = False) -> None:
        self.stream = stream or sys.stderr
        self.label = label
        self.enabled = not quiet and bool(getattr(self.stream, "isatty", lambda: False)())
        self._stage = ""
        self._done = 0
        self._bar: _Bar | None = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if stage != self._stage:
            self.close()
            self._stage, self._done = stage, 0
            self._bar = tqdm(total=max(total, 1), desc=f"{self.label}: {STAGES.get(stage, stage)}",
                             file=self.stream, leave=False, unit="el" if total > 1 else "")
        if self._bar is not None and done > self._done:
            self._bar.update(done - self._done)
            self._done = done

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> TerminalBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Throttled:
    """Passes progress on to ``sink(text)`` at most every ``interval`` seconds (and at each new stage)."""

    def __init__(self, sink: Callable[[str], None], label: str, interval: float = 0.25) -> None:
        self.sink, self.label, self.interval = sink, label, interval
        self._last = 0.0
        self._stage = ""

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if stage == self._stage and now - self._last < self.interval and done < total:
            return
        self._stage, self._last = stage, now
        self.sink(f"Loading {self.label}: {describe(stage, done, total)}")


def both(*callbacks: Progress) -> Progress:
    """One callback that calls each of these."""

    def call(stage: str, done: int, total: int) -> None:
        for cb in callbacks:
            cb(stage, done, total)

    return call
