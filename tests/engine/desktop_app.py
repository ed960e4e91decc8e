"""The desktop app in a real window under Xvfb, driven with xdotool: start the agent and the app,
type and press keys, take F12 snapshots (PNG + HUD JSON). Used by the desktop GUI test and the
FPS benchmark (tests/bench/bench_desktop_fps.py). Every wait is on a condition (a line the app
prints, a file it writes), bounded by a timeout."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


class AppError(RuntimeError):
    """The app or the agent did not do what was waited for (the message has the log tail)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LineLog:
    """Lines a process prints, collected by a thread; waits on a pattern."""

    def __init__(self, proc: subprocess.Popen[str], name: str) -> None:
        self.proc = proc
        self.name = name
        self.lines: list[str] = []
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._read, daemon=True, name=f"log-{name}")
        self._thread.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._cond:
                self.lines.append(line.rstrip("\n"))
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def mark(self) -> int:
        with self._cond:
            return len(self.lines)

    def wait_for(self, pattern: str, since: int = 0, timeout: float = 120.0) -> re.Match[str]:
        """The first line from ``since`` on matching ``pattern``; raises AppError on timeout/exit."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        seen = since
        with self._cond:
            while True:
                for line in self.lines[seen:]:
                    m = rx.search(line)
                    if m:
                        return m
                seen = len(self.lines)
                left = deadline - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and not self._thread.is_alive()):
                    raise AppError(f"{self.name}: no line matching {pattern!r} within {timeout:.0f} s:\n"
                                   + "\n".join(self.lines[-40:]))
                self._cond.wait(min(left, 0.5))

    def tail(self, n: int = 40) -> str:
        with self._cond:
            return "\n".join(self.lines[-n:])


@dataclass
class Snapshot:
    """One F12 snapshot: the HUD and view as JSON, the PNG paths."""

    info: dict[str, Any]
    png: Path
    spectator_png: Path | None

    @property
    def lines(self) -> dict[str, str]:
        return dict(self.info["lines"])


def _stop(proc: subprocess.Popen[str] | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=15)


class Agent:
    """``pyagent serve`` on a loopback port (no journal, no speech models)."""

    def __init__(self, ifc: Path, port: int) -> None:
        self.ifc = ifc
        self.port = port
        self.endpoint = f"tcp://127.0.0.1:{port}"
        self.proc: subprocess.Popen[str] | None = None
        self.log: LineLog | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pyagent", "serve", "--ifc", str(self.ifc), "--endpoint", self.endpoint,
             "--fresh", "--no-journal", "--no-speech"],
            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.log = LineLog(self.proc, "agent")

    def stop(self) -> None:
        _stop(self.proc)


class DesktopApp:
    """The main scene in a window on ``display``; snapshots go to ``shots``."""

    def __init__(self, display: str, shots: Path, user_args: Sequence[str], size: str = "1280x720") -> None:
        self.display = display
        self.shots = shots
        self.user_args = list(user_args)
        self.size = size
        self.proc: subprocess.Popen[str] | None = None
        self.log: LineLog | None = None
        self.dropped_keys = 0
        self._env = {**os.environ, "DISPLAY": display}

    def start(self) -> None:
        from pyagent.godot import start_godot

        self.shots.mkdir(parents=True, exist_ok=True)
        w, h = self.size.split("x")
        self.proc = start_godot(
            ["--path", str(REPO), "--rendering-driver", "opengl3", "--xr-mode", "off",
             "--resolution", f"{w}x{h}", "--position", "0,0", "--", "--shots", str(self.shots), *self.user_args],
            display=self.display, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.log = LineLog(self.proc, "app")

    def stop(self) -> None:
        _stop(self.proc)

    @property
    def out(self) -> LineLog:
        assert self.log is not None
        return self.log

    def xdo(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self._env, check=True, timeout=60)

    def type(self, text: str) -> None:
        """Types ``text`` into whatever has the keyboard (no click first)."""
        self.xdo("type", "--delay", "60", text)

    def command(self, text: str, timeout: float = 120.0) -> str:
        """Types a command and Enter; returns the answer the app printed."""
        mark = self.out.mark()
        self.type(text)
        self.xdo("key", "Return")
        return self.out.wait_for(r"BimVoice: answer: (.*)", mark, timeout).group(1)

    def snapshot(self, timeout: float = 120.0) -> Snapshot:
        """Presses F12 and waits for the snapshot the app writes (pressing again every 20 s: a key
        sent while the X server moves the keyboard between windows can be dropped)."""
        mark = self.out.mark()
        deadline = time.monotonic() + timeout
        while True:
            self.xdo("key", "F12")
            try:
                wait = min(20.0, max(deadline - time.monotonic(), 1.0))
                path = Path(self.out.wait_for(r"BimVoice: snapshot (\S+\.json)", mark, wait).group(1))
                break
            except AppError:
                if time.monotonic() >= deadline:
                    raise
                self.dropped_keys += 1
        info = json.loads(path.read_text())
        spectator = path.with_name(path.stem + "-spectator.png")
        return Snapshot(info, path.with_suffix(".png"), spectator if spectator.exists() else None)

    def until(self, check: Callable[[Snapshot], bool], timeout: float = 120.0, what: str = "") -> Snapshot:
        """Snapshots until ``check`` holds; raises AppError with the last HUD otherwise."""
        deadline = time.monotonic() + timeout
        while True:
            snap = self.snapshot(timeout)
            if check(snap):
                return snap
            if time.monotonic() > deadline:
                raise AppError(f"timed out waiting for {what}: HUD was\n{snap.info['hud']}\n{self.out.tail()}")


def tools_missing() -> str:
    """Why the GUI cannot be driven here ("" when it can)."""
    for tool, package in (("Xvfb", "xvfb"), ("xdotool", "xdotool")):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install {package})"
    return ""


@contextmanager
def display(size: str = "1280x720") -> Iterator[str]:
    """A private Xvfb screen."""
    from pyagent.godot import virtual_display

    with virtual_display(f"{size}x24") as disp:
        yield disp
