"""Fixtures for the link tests: a Godot project with the link's scripts, and free ports."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from link_godot_project import GodotProject, build_project  # noqa: E402

from pyagent import godot  # noqa: E402


@pytest.fixture(scope="session")
def godot_project(tmp_path_factory: pytest.TempPathFactory) -> GodotProject:
    """The link's scripts in an imported throw-away project; skips only if Godot cannot be installed."""
    try:
        godot.find_godot(install=True)
    except godot.GodotUnavailable as exc:
        pytest.skip(f"Godot cannot be installed here: {exc}")
    return build_project(tmp_path_factory.mktemp("godot-link"))
