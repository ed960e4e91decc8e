"""The addon as a drop-in toolkit: only ``addons/bimvoice/`` copied into a fresh Godot project,
the plugin enabled, and a scene of that project (no addon class names in it) working against a
real agent through the addon's drop-in scenes."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from engine_support import REPO
from test_e2e import _door_in_front, agent  # noqa: F401 - agent is a fixture

pytestmark = pytest.mark.godot

HOST = Path(__file__).parent / "dropin"
PROJECT = """config_version=5

[application]

config/name="Host project"
run/main_scene="res://host_main.tscn"

[editor_plugins]

enabled=PackedStringArray("res://addons/bimvoice/plugin.cfg")
"""
SCENE = """[gd_scene load_steps=2 format=3]

[ext_resource type="Script" path="res://host_main.gd" id="1"]

[node name="Host" type="Node3D"]
script = ExtResource("1")
"""


def test_addon_drops_into_a_fresh_project(godot: list[str], agent: str, tmp_path: Path) -> None:  # noqa: F811
    from pyagent.godot import import_project, run_godot

    project = tmp_path / "host"
    shutil.copytree(REPO / "addons" / "bimvoice", project / "addons" / "bimvoice")
    (project / "project.godot").write_text(PROJECT)
    shutil.copy(HOST / "host_main.gd", project / "host_main.gd")
    (project / "host_main.tscn").write_text(SCENE)
    import_project(project)  # the editor loads the enabled plugin, which registers the runtime autoload
    settings = (project / "project.godot").read_text()
    autoload = r'^BimVoice="\*(uid://\w+|res://addons/bimvoice/runtime/bimvoice_runtime\.gd)"$'
    assert re.search(autoload, settings, re.M), settings
    door, pose, _ = _door_in_front()
    expect = tmp_path / "expect.json"
    expect.write_text(json.dumps({"pose": pose, "door": door}))
    proc = run_godot(["--headless", "--path", str(project), "res://host_main.tscn", "--", "--agent", agent,
                      "--expect", str(expect)], cwd=project, capture=True, timeout=300)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-5000:]
    assert "HOST: " in proc.stdout and "checks, 0 failed" in proc.stdout, log[-5000:]
    assert "SCRIPT ERROR" not in log, log[-5000:]


def test_no_unprefixed_global_class_names() -> None:
    """Every ``class_name`` the addon declares starts with BimVoice, so none can clash with a host
    project's own classes."""
    declared = {}
    for script in sorted((REPO / "addons" / "bimvoice").rglob("*.gd")):
        m = re.search(r"^class_name\s+(\w+)", script.read_text(), re.M)
        if m:
            declared[m.group(1)] = script.relative_to(REPO)
    unprefixed = sorted(name for name in declared if not name.startswith("BimVoice"))
    assert not unprefixed, f"unprefixed global class names: {unprefixed}"
