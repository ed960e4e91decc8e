"""Desktop and XR rigs, spectator, HUD and microphone resampling, without an agent."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_support import assert_passed, run_scene_test

pytestmark = pytest.mark.godot


def test_rigs_hud_and_audio(godot: list[str], sample_building: tuple[Path, Path]) -> None:
    glb, ids = sample_building
    assert_passed(run_scene_test("tests/godot/test_rigs.gd", ["--glb", str(glb), "--ids", str(ids)]))
