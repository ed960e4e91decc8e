"""The review view in the engine with states the agent computed: scale model on a table, sun study,
section plane (scene test); and a section really removes geometry in a rendered picture."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from engine_support import REPO, assert_passed, run_scene_test
from png_read import read_png

pytestmark = pytest.mark.godot

POSE = {"position": [4.0, 4.5, 1.6], "yaw": 30.0, "pitch": 0.0}


def _states() -> tuple[dict[str, dict], Path]:
    from pyagent.model import Pose
    from pyagent.session import Session

    session = Session.open(str(REPO / "ifc" / "AC20-FZK-Haus.ifc"))
    try:
        session.set_pose(Pose.from_json(POSE))
        out: dict[str, dict] = {}
        for key, text in (("table", "show me the model on the table"),
                          ("sun", "show the shadows on the 21st of June at 3 pm"),
                          ("section", "cut the building at 1.2 metres")):
            session.say("reset")
            r = session.say(text)
            assert r.ok, (text, r.answer)
            out[key] = session.state()
        return out, session.glb_path
    finally:
        session.close()


def test_review_view_in_the_engine(godot: list[str], tmp_path: Path) -> None:
    states, glb = _states()
    assert states["table"]["view_scale"] and states["sun"]["sun"] and states["section"]["sections"]
    path = tmp_path / "states.json"
    path.write_text(json.dumps(states))
    assert_passed(run_scene_test("tests/godot/test_review.gd", ["--glb", str(glb), "--states", str(path)]))


def _building_mask(img: np.ndarray) -> np.ndarray:
    """Pixels of the building: unlike the background (sky or ground) at the left edge of their row,
    which this view keeps clear of the building."""
    rgb = img[..., :3].astype(float)
    background = np.median(rgb[:, :16], axis=1)  # (rows, 3)
    return np.abs(rgb - background[:, None, :]).max(axis=-1) > 40


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (apt-get install xvfb)")
def test_a_section_removes_the_geometry_above_the_cut(godot: list[str], tmp_path: Path) -> None:
    from pyagent.godot import run_godot_checked
    from pyagent.session import Session

    session = Session.open(str(REPO / "ifc" / "AC20-FZK-Haus.ifc"))
    glb = session.glb_path
    plain = session.state()
    r = session.say("cut the building at 1.2 metres")
    assert r.ok, r.answer
    cut = session.state()
    session.close()
    shots = {}
    for name, state in (("plain", plain), ("cut", cut)):
        state_file = tmp_path / f"{name}.json"
        state_file.write_text(json.dumps(state))
        out = tmp_path / f"{name}.png"
        code, log = run_godot_checked(
            ["--path", str(REPO), "--rendering-driver", "opengl3", "res://scenes/screenshot.tscn", "--",
             "--no-agent", "--glb", str(glb), "--state", str(state_file), "--from", "-1,0.5,1.3",
             "--size", "480x270", "--out", str(out)], display=True, timeout=240)
        assert code == 0, log[-3000:]
        shots[name] = read_png(out)
    plain_mask, cut_mask = _building_mask(shots["plain"]), _building_mask(shots["cut"])
    rows_plain = np.nonzero(plain_mask.sum(axis=1) > 3)[0]
    rows_cut = np.nonzero(cut_mask.sum(axis=1) > 3)[0]
    assert len(rows_plain) and len(rows_cut), "nothing drawn"
    # The roof and the upper storey are gone: much less of the building, its silhouette starts lower.
    assert cut_mask.sum() < 0.8 * plain_mask.sum(), (int(cut_mask.sum()), int(plain_mask.sum()))
    assert rows_cut[0] > rows_plain[0] + 15, (int(rows_plain[0]), int(rows_cut[0]))
