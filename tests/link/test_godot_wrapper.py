"""pyagent.godot: finding/installing Godot and running it (exit codes, headless, virtual display)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pyagent import godot

REPO = Path(__file__).resolve().parents[2]


def test_parse_version() -> None:
    assert godot.parse_version("4.6.3.stable.debian4.6.3+ds-3\n") == (4, 6, 3)
    assert godot.parse_version("Godot Engine v4.3.stable\n4.3.stable.official.77dcf97d8") == (4, 3, 0)
    assert godot.parse_version("command not found") is None


def test_system_godot_needs_4_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = tmp_path / "godot"
    old.write_text("#!/bin/sh\necho 3.5.2.stable.official\n")
    old.chmod(0o755)
    monkeypatch.setenv("GODOT", str(old))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert godot._system_godot() is None  # too old: not used
    old.write_text("#!/bin/sh\necho 4.4.1.stable.official\n")
    assert godot._system_godot() == [str(old)]


@pytest.fixture(scope="module")
def prefix() -> list[str]:
    try:
        return godot.find_godot(install=True)
    except godot.GodotUnavailable as exc:
        pytest.skip(f"Godot cannot be installed here: {exc}")


def _cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pyagent.godot", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=timeout, env=dict(os.environ, PYTHONPATH=str(REPO)), check=False)


@pytest.mark.godot
def test_install_is_idempotent_and_stamped(prefix: list[str]) -> None:
    if godot._system_godot():
        pytest.skip("a Godot on PATH is used; nothing is installed")
    before = godot.STAMP.read_text()
    out = _cli("install")
    assert out.returncode == 0, out.stderr
    assert "apt update" not in out.stderr  # a no-op: nothing downloaded
    assert godot.STAMP.read_text() == before
    stamp = json.loads(before)
    assert godot.parse_version(stamp["version"] + ".")[:2] >= godot.MIN_VERSION
    assert any(p.startswith("godot=") for p in stamp["packages"])


@pytest.mark.godot
def test_version_and_exit_code_pass_through(prefix: list[str], tmp_path: Path) -> None:
    out = godot.run_godot(["--headless", "--version"], capture=True, timeout=60)
    assert out.returncode == 0 and godot.parse_version(out.stdout)[:2] >= godot.MIN_VERSION
    (tmp_path / "project.godot").write_text("config_version=5\n")
    (tmp_path / "exit7.gd").write_text('extends SceneTree\n\n\nfunc _init() -> void:\n\tprint("ran")\n\tquit(7)\n')
    out = _cli("run", "--", "--headless", "--path", str(tmp_path), "-s", "exit7.gd", timeout=120)
    assert out.returncode == 7, out.stdout + out.stderr
    assert "ran" in out.stdout


@pytest.mark.godot
def test_display_renders_a_screenshot(prefix: list[str], tmp_path: Path) -> None:
    (tmp_path / "project.godot").write_text("config_version=5\n")
    shot = tmp_path / "shot.png"
    (tmp_path / "shot.gd").write_text(f"""extends SceneTree

var frames := 0


func _init() -> void:
\tvar cam := Camera3D.new()
\troot.add_child(cam)
\tvar box := MeshInstance3D.new()
\tbox.mesh = BoxMesh.new()
\tbox.position = Vector3(0, 0, -3)
\troot.add_child(box)
\troot.add_child(DirectionalLight3D.new())


func _process(_delta: float) -> bool:
\tframes += 1
\tif frames < 5:
\t\treturn false
\tvar img := root.get_texture().get_image()
\timg.save_png("{shot}")
\tvar size := img.get_size()
\tprint("centre ", img.get_pixel(size.x / 2, size.y / 2).to_html(false))
\tprint("corner ", img.get_pixel(4, 4).to_html(false))
\treturn true
""")
    out = _cli("run", "--display", "--", "--rendering-driver", "opengl3", "--audio-driver", "Dummy",
               "--path", str(tmp_path), "-s", "shot.gd", timeout=180)
    assert out.returncode == 0, out.stdout + out.stderr
    assert shot.is_file(), out.stdout + out.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = dict(line.split() for line in out.stdout.splitlines() if line.startswith(("centre ", "corner ")))
    assert pixels["centre"] != pixels["corner"], "the box in the middle was not rendered"
