"""A throw-away Godot project holding only the link's scripts, for the GDScript link tests.

The real ``project.godot`` has autoloads and a main scene that these tests must not depend on, so
the link's files (``addons/bimvoice/frames.gd``, ``addons/bimvoice/link/``, ``tests/godot/link/``)
are copied at the same ``res://`` paths into a temporary project, which is imported once so the
``class_name`` registry exists.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from pyagent import godot

REPO = Path(__file__).resolve().parents[2]
FILES = ("addons/bimvoice/frames.gd", "addons/bimvoice/link", "tests/godot/link")
PROJECT = """config_version=5

[application]
config/name="bimvoice-link-tests"

[audio]
driver/driver="Dummy"
"""


@dataclass
class GodotProject:
    path: Path
    prefix: list[str]

    def command(self, script: str, *user_args: str) -> list[str]:
        """argv running ``res://<script>`` headless, with ``user_args`` after ``--``."""
        return [*self.prefix, "--headless", "--path", str(self.path), "-s", f"res://{script}", "--",
                *user_args]

    def start(self, script: str, *user_args: str) -> subprocess.Popen[str]:
        return subprocess.Popen(self.command(script, *user_args), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, env=godot.godot_env())

    def run(self, script: str, *user_args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self.command(script, *user_args), capture_output=True, text=True,
                              timeout=timeout, env=godot.godot_env(), check=False)


def build_project(dest: Path) -> GodotProject:
    """Copy the link's files into ``dest`` and import them. Raises ``GodotUnavailable``."""
    prefix = godot.find_godot(install=True)
    for rel in FILES:
        src = REPO / rel
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, target, ignore=shutil.ignore_patterns("*.uid", ".godot"))
        else:
            shutil.copy2(src, target)
    (dest / "project.godot").write_text(PROJECT)
    out = subprocess.run([*prefix, "--headless", "--path", str(dest), "--import"], capture_output=True,
                         text=True, timeout=300, env=godot.godot_env(), check=False)
    cache = dest / ".godot" / "global_script_class_cache.cfg"
    if not cache.is_file() or "BimVoiceAgentLink" not in cache.read_text():
        raise RuntimeError(f"Godot did not import the link scripts (rc {out.returncode}):\n"
                           f"{out.stdout[-3000:]}\n{out.stderr[-3000:]}")
    return GodotProject(dest, prefix)
