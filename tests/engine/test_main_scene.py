"""The main scene starts (desktop fallback without an OpenXR runtime) with the spectator window."""

from __future__ import annotations

import pytest
from engine_support import REPO

from pyagent.godot import run_godot

pytestmark = pytest.mark.godot


def test_main_scene_falls_back_to_desktop(godot: list[str], sample_building) -> None:
    glb, _ = sample_building
    proc = run_godot(["--headless", "--path", str(REPO), "res://scenes/main.tscn", "--quit-after", "30",
                      "--", "--no-agent", "--glb", str(glb), "--spectator"],
                     cwd=REPO, capture=True, timeout=300)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-3000:]
    assert "BimVoice: desktop mode" in proc.stdout, log[-3000:]
    assert "SCRIPT ERROR" not in log, log[-3000:]
