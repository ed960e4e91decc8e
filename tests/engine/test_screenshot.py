"""The screenshot scene renders a loaded building to a PNG on a machine without a display."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from engine_support import REPO
from png_read import read_png

from pyagent.godot import run_godot

pytestmark = pytest.mark.godot


def _shot(glb: Path, out: Path, *, display: bool, size: str = "320x180") -> tuple[int, str]:
    args = ["--path", str(REPO), "--xr-mode", "off"]
    args = [*args, "--rendering-driver", "opengl3"] if display else ["--headless", *args]
    args += ["res://scenes/screenshot.tscn", "--", "--no-agent", "--glb", str(glb), "--out", str(out),
             "--size", size]
    proc = run_godot(args, display=display, cwd=REPO, capture=True, timeout=300)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (apt-get install xvfb)")
def test_screenshot_shows_the_house(godot: list[str], tmp_path: Path) -> None:
    from pyagent.session import Session

    session = Session.open(str(REPO / "ifc" / "AC20-FZK-Haus.ifc"))
    glb = session.glb_path
    session.close()
    out = tmp_path / "house.png"
    code, log = _shot(glb, out, display=True)
    assert code == 0, log[-3000:]
    img = read_png(out)[..., :3].astype(float)
    assert img.shape == (180, 320, 3)
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 100, "too few colours: nothing drawn"
    assert img.std() > 20, f"flat picture (std {img.std():.1f})"
    # The building fills the middle: most pixels there differ from the sky at the top.
    sky = np.median(img[:10].reshape(-1, 3), axis=0)
    middle = img[60:120, 110:210]
    differs = np.abs(middle - sky).max(axis=-1) > 40
    assert differs.mean() > 0.8, f"the middle looks like sky ({differs.mean():.0%} differs)"


def test_screenshot_headless_says_it_cannot(godot: list[str], tmp_path: Path) -> None:
    from glb_fixture import sample_boxes, write_glb

    out = tmp_path / "none.png"
    code, log = _shot(write_glb(tmp_path / "b.glb", sample_boxes()), out, display=False)
    assert code == 1 and not out.exists()
    assert "nothing was rendered" in log, log[-2000:]
