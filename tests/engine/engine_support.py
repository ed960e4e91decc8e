"""Fixtures for the engine tests: a Godot that can run the project's scene tests headless."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _godot_prefix() -> list[str]:
    try:
        from pyagent.godot import GodotUnavailable, find_godot
    except ImportError as exc:  # pragma: no cover - the wrapper is part of the project
        pytest.skip(f"pyagent.godot is missing: {exc}")
    try:
        return find_godot(install=True)
    except GodotUnavailable as exc:
        pytest.skip(f"Godot cannot be installed here: {exc}")


def import_project() -> None:
    """Let the editor scan the project once (global class names, imports) when sources changed."""
    from pyagent.godot import import_project as _import

    _import(REPO)


@pytest.fixture(scope="session")
def godot() -> list[str]:
    """The argv prefix that starts Godot, after the project was imported."""
    prefix = _godot_prefix()
    import_project()
    return prefix


ROLES = ("floor", "wall", "wall2", "door", "window", "column")


@pytest.fixture()
def sample_building(tmp_path: Path) -> tuple[Path, Path]:
    """A small building glb (slab, two walls, door, window, column) and its ids by role (json)."""
    from glb_fixture import SAMPLE_IDS, sample_boxes, write_glb

    glb = write_glb(tmp_path / "sample.glb", sample_boxes())
    ids = tmp_path / "ids.json"
    ids.write_text(json.dumps(dict(zip(ROLES, SAMPLE_IDS, strict=True))))
    return glb, ids


def run_scene_test(script: str, user_args: Sequence[str] = (), timeout: float = 300,
                   display: bool = False, extra: Sequence[str] = ()) -> subprocess.CompletedProcess[str]:
    """Run ``tests/godot/<script>`` headless (or under Xvfb) and return the finished process."""
    from pyagent.godot import run_godot

    args = ["--path", str(REPO), *extra]
    if not display:
        args = ["--headless", *args]
    args += ["--xr-mode", "off", "-s", f"res://{script}", "--", "--no-agent", *user_args]
    return run_godot(args, display=display, cwd=REPO, timeout=timeout, capture=True)


def assert_passed(proc: subprocess.CompletedProcess[str]) -> None:
    """Fail with Godot's output when the scene test failed."""
    text = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"scene test failed (exit {proc.returncode}):\n{text[-6000:]}"
    assert "checks, 0 failed" in proc.stdout, text[-6000:]
