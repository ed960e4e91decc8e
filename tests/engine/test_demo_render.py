"""The demo's engine picture: the result of the conversation, from the user's pose, and never a hang.

A Godot whose scripts do not parse runs on forever without them; the demo must stop it at the first
script error and say so. And the picture must show what the conversation did (a colour the user asked
for), seen from where the user stands.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from engine_support import REPO
from png_read import read_png

from pyagent.godot import run_godot_checked

pytestmark = pytest.mark.godot

needs_xvfb = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (apt-get install xvfb)")


def test_a_script_that_does_not_parse_stops_godot_with_its_error(godot: list[str], tmp_path: Path) -> None:
    project = tmp_path / "broken"
    project.mkdir()
    (project / "project.godot").write_text(
        'config_version=5\n\n[application]\n\nconfig/name="broken"\nrun/main_scene="res://main.tscn"\n')
    (project / "main.gd").write_text("extends Node\n\nfunc _ready() -> void:\n\tthis is not gdscript(\n")
    (project / "main.tscn").write_text(
        '[gd_scene load_steps=2 format=3]\n\n[ext_resource type="Script" path="res://main.gd" id="1"]\n\n'
        '[node name="Main" type="Node"]\nscript = ExtResource("1")\n')
    # Without the check this scene never quits (no script runs to quit it): the timeout would say 124.
    code, log = run_godot_checked(["--headless", "--path", str(project)], timeout=120)
    assert code == 1, log[-2000:]
    assert "stopped: Godot reported a script failure" in log
    assert "main.gd" in log


def _walls_red_share(img: np.ndarray) -> float:
    rgb = img[..., :3].astype(float)
    red = (rgb[..., 0] > 110) & (rgb[..., 0] > rgb[..., 1] * 1.6) & (rgb[..., 0] > rgb[..., 2] * 1.6)
    return float(red.mean())


@needs_xvfb
def test_demo_picture_shows_the_result_from_the_users_pose(godot: list[str], tmp_path: Path) -> None:
    from pyagent.demo import render
    from pyagent.model import Pose
    from pyagent.session import Session

    session = Session.open(str(REPO / "ifc" / "AC20-FZK-Haus.ifc"))
    try:
        # In the living room, looking along +X at its walls.
        session.set_pose(Pose.from_json({"position": [4.0, 4.5, 1.6], "yaw": 0.0, "pitch": 0.0}))
        plain = render(session, tmp_path / "plain.png")
        assert plain is not None
        r = session.say("paint the walls in this room red")
        assert r.ok, r.answer
        painted = render(session, tmp_path / "painted.png")
        assert painted is not None
        overview = session.state()
    finally:
        session.close()
    before, after = read_png(plain), read_png(painted)
    assert _walls_red_share(before) < 0.02, "red before anything was painted"
    assert _walls_red_share(after) > 0.15, f"the red walls are not in the picture ({_walls_red_share(after):.1%})"
    # Only the walls of the room the user stands in were painted: they fill the view from inside, which
    # the overview from outside would not show.
    assert overview["pose"]["position"] == [4.0, 4.5, 1.6]
