"""Helpers for the persistence tests, the fuzz tests and the soak script: copies of the shipped files,
a real ``python -m pyagent script`` process that can be killed, and a mix of request lines."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
FZK = ROOT / "ifc" / "AC20-FZK-Haus.ifc"
DUPLEX = ROOT / "ifc" / "duplex.ifc"
MINI = ROOT / "ifc" / "MiniProject.ifc"


def copy_ifc(src: Path, folder: Path, name: str | None = None) -> Path:
    """A writable copy (same content, so the building cache still applies)."""
    folder.mkdir(parents=True, exist_ok=True)
    dst = folder / (name or src.name)
    shutil.copyfile(src, dst)
    dst.chmod(0o644)
    return dst


class ScriptProcess:
    """``python -m pyagent script --ifc ... [--journal DIR]`` with a line-in, line-out conversation."""

    def __init__(self, ifc: Path, journal: Path | None = None, *extra: str, env: dict[str, str] | None = None) -> None:
        args = [PYTHON, "-m", "pyagent", "script", "--ifc", str(ifc)]
        if journal is not None:
            args += ["--journal", str(journal)]
        args += list(extra)
        full_env = {**os.environ, **(env or {})}
        full_env["PYTHONPATH"] = str(ROOT) + os.pathsep + full_env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen(args, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1, env=full_env)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send_raw(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            err = self.proc.stderr.read() if self.proc.stderr else ""
            raise RuntimeError(f"the script process ended: {err[-2000:]}")
        return json.loads(line)

    def ask(self, obj: dict[str, Any] | str) -> dict[str, Any]:
        self.send_raw(obj if isinstance(obj, str) else json.dumps(obj))
        return self.read()

    def state(self) -> dict[str, Any]:
        return self.ask({"state": True})

    def rss_kb(self) -> int:
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def kill(self) -> None:
        """A real crash: SIGKILL, no chance to flush anything."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        self._close_pipes()

    def close(self) -> str:
        """End of input: the process exits normally. Returns its stderr."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        err = self.proc.stderr.read() if self.proc.stderr else ""
        self.proc.wait(timeout=60)
        self._close_pipes()
        return err

    def _close_pipes(self) -> None:
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if pipe is not None and not pipe.closed:
                pipe.close()


# ---- request mixes ---------------------------------------------------------------------------
def element_ids(building: Any, prefix: str) -> list[str]:
    return sorted(e.id for e in building.products() if e.has_geometry and e.ifc_class.startswith(prefix))


def change_lines(building: Any, rng: random.Random, n: int) -> list[dict[str, Any]]:
    """``n`` request lines that change things (most succeed), for crash and soak tests."""
    walls = element_ids(building, "IfcWall")
    windows = element_ids(building, "IfcWindow")
    doors = element_ids(building, "IfcDoor")
    anything = walls + windows + doors
    rooms = [e.id for e in building.spaces()]
    out: list[dict[str, Any]] = []
    for _ in range(n):
        kind = rng.choice(["hide", "show", "color", "move", "rotate", "delete", "prop", "select", "pose", "turn",
                           "undo", "redo", "teleport", "transparency", "reset_color"])
        gid = rng.choice(anything)
        target = {"ids": [gid]}
        if kind == "hide":
            out.append({"do": {"steps": [{"op": "hide", "target": {"ids": rng.sample(anything, 3)}}]}})
        elif kind == "show":
            out.append({"do": {"steps": [{"op": "show", "target": target}]}})
        elif kind == "color":
            rgba = [round(rng.random(), 3) for _ in range(3)] + [1.0]
            out.append({"do": {"steps": [{"op": "color", "target": target, "rgba": rgba}]}})
        elif kind == "transparency":
            out.append({"do": {"steps": [{"op": "transparency", "target": target, "alpha": 0.4}]}})
        elif kind == "reset_color":
            out.append({"do": {"steps": [{"op": "reset_color", "target": target}]}})
        elif kind == "move":
            delta = [round(rng.uniform(-1, 1), 3), round(rng.uniform(-1, 1), 3), 0.0]
            out.append({"do": {"steps": [{"op": "move", "target": target, "delta": delta}]}})
        elif kind == "rotate":
            out.append({"do": {"steps": [{"op": "rotate", "target": target, "degrees": rng.choice([15, 45, 90])}]}})
        elif kind == "delete":
            out.append({"do": {"steps": [{"op": "delete", "target": {"ids": [rng.choice(doors or anything)]}}]}})
        elif kind == "prop":
            out.append({"do": {"steps": [{"op": "add_prop", "asset": rng.choice(["sofa", "chair", "lamp", "plant"]),
                                          "anchor": {"ids": [rng.choice(rooms)]}, "placement": "in"}]}}
                       if rooms else {"do": {"steps": [{"op": "add_prop", "asset": "lamp"}]}})
        elif kind == "select":
            out.append({"select": rng.sample(anything, rng.randint(0, 2))})
        elif kind == "pose":
            out.append({"pose": {"position": [round(rng.uniform(0, 12), 2), round(rng.uniform(0, 10), 2), 1.6],
                                 "yaw": rng.randint(-180, 180), "pitch": rng.randint(-20, 20)}})
        elif kind == "turn":
            out.append({"do": {"steps": [{"op": "turn", "degrees": rng.choice([-90, 90, 180])}]}})
        elif kind == "teleport" and rooms:
            out.append({"do": {"steps": [{"op": "teleport", "target": {"ids": [rng.choice(rooms)]}}]}})
        elif kind in ("undo", "redo"):
            out.append({"do": {"steps": [{"op": kind, "count": rng.randint(1, 3)}]}})
        else:
            out.append({"do": {"steps": [{"op": "turn", "degrees": 45}]}})
    return out


MALFORMED = [
    "", "{", "[]", "null", "42", '"text"', '{"do": 1}', '{"do": {"steps": "x"}}', '{"say": ""}', '{"say": 5}',
    '{"select": "abc"}', '{"select": [1, 2]}', '{"select": ["not-an-id"]}', '{"pose": {"position": [1, 2]}}',
    '{"pose": {"position": [1e309, 0, 0]}}', '{"pose": {"position": [1e9, 0, 0], "yaw": 0}}',
    '{"pose": {"position": [0, 0, 0], "yaw": "NaN"}}', '{"pose": "here"}', '{"frobnicate": true}',
    '{"do": {"steps": [{"op": "hide"}]}}', '{"do": {"steps": [{"op": "rm -rf /"}]}}',
    '{"do": {"steps": [{"op": "color", "target": {"class": ["IfcWall"]}, "rgba": [2, 0, 0, 1]}]}}',
    '{"do": {"steps": [{"op": "move", "target": {"class": ["IfcWall"]}, "delta": [1e12, 0, 0]}]}}',
    '{"do": {"steps": [{"op": "add_prop", "asset": "../../etc/passwd"}]}}',
    '{"do": {"steps": [{"op": "undo", "count": 1000000}]}}', '{"do": {"steps": []}}',
    '{"state": true, "do": {}}', "\x00\x01\x02", '{"say": "' + "x" * 5000 + '"}',
    '{"do": {"steps": [{"op": "hide", "target": {"class": ["IfcWall"], "except": ' * 20 + "{}" + "}}" * 20 + "]}}",
]
# Lines nested deeper than Python's JSON decoder recursion limit.
DEEP_JSON = ["[" * 10000 + "]" * 10000, '{"a": ' * 5000 + "1" + "}" * 5000]
