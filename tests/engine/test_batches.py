"""Batched rendering (BimVoiceBuildingBatches) draws what one object per element draws.

The same agent states of a real building (FZK-Haus: as loaded; then hidden, painted, see-through,
moved, selected and cut by a section, all from spoken commands) are rendered by the screenshot
scene twice under Xvfb: merged batches with per-element state (the default) and one object per
element (``--no-batches``). The pictures must agree pixel for pixel up to rasterisation noise, and
the changed state must look clearly different from the plain one (so the comparison cannot pass by
drawing nothing or ignoring the state). Both renderers the app uses are checked, since they treat
colours differently: opengl3 (Compatibility, the desktop app on Mesa) and Vulkan (Forward+, as in
the headset; Mesa's lavapipe from the XR runtime's private root). The paints are mid colours,
whose sRGB and linear values differ (pure red would hide a colour-space error).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from engine_support import REPO
from png_read import read_png

from pyagent import xr
from pyagent.godot import run_godot_checked, virtual_display

pytestmark = pytest.mark.godot

COMMANDS = (
    "hide the slabs on the upper floor",
    "paint the walls on the upper floor light green",
    "paint the slabs on the ground floor light blue",
    "make the windows transparent",
    "move the front door 2 metres up",
    "select the walls on the ground floor",
    "cut the building at 4 metres",
)


def _render(glb: Path, state: dict, out: Path, batched: bool, driver: str) -> np.ndarray:
    state_file = out.with_suffix(".json")
    state_file.write_text(json.dumps(state))
    args = ["--path", str(REPO), "--rendering-driver", driver, "--xr-mode", "off", "res://scenes/screenshot.tscn",
            "--", "--no-agent", "--glb", str(glb), "--state", str(state_file), "--from", "-1,0.7,1.3",
            "--size", "480x270", "--out", str(out)]
    if not batched:
        args.append("--no-batches")
    if driver == "opengl3":
        code, log = run_godot_checked(args, display=True, timeout=240)
    else:
        with virtual_display() as display:
            proc = subprocess.run(xr.godot_prefix() + args, env=xr.client_env(display=display),
                                  capture_output=True, text=True, timeout=300)
        code, log = proc.returncode, proc.stdout + proc.stderr
    assert code == 0 and out.is_file(), log[-3000:]
    return read_png(out)[..., :3].astype(np.int16)


def _differing(a: np.ndarray, b: np.ndarray, level: int = 40) -> float:
    """Fraction of pixels whose colour differs by more than ``level`` in some channel."""
    return float((np.abs(a - b).max(axis=2) > level).mean())


@pytest.fixture(scope="module")
def states() -> tuple[Path, dict, dict]:
    """FZK-Haus's glb, its state as loaded and after the spoken changes."""
    from pyagent.session import Session

    session = Session.open(str(REPO / "ifc" / "AC20-FZK-Haus.ifc"))
    try:
        plain = session.state()
        for command in COMMANDS:
            r = session.say(command)
            assert r.ok, (command, r.answer)
        return session.glb_path, plain, session.state()
    finally:
        session.close()


@pytest.mark.parametrize("driver", ["opengl3", "vulkan"])
def test_batches_draw_what_elements_draw(godot: list[str], states: tuple[Path, dict, dict], driver: str,
                                         tmp_path: Path) -> None:
    if driver == "vulkan" and not xr.installed():
        pytest.skip("Vulkan (lavapipe) comes with the XR runtime: python -m pyagent xr install")
    glb, plain, changed = states
    assert changed["hidden"] and changed["colors"] and changed["transforms"] and changed["selected"]
    assert changed["sections"]
    pictures = {}
    for name, state in (("plain", plain), ("changed", changed)):
        for batched in (True, False):
            out = tmp_path / f"{name}-{'batched' if batched else 'elements'}.png"
            pictures[name, batched] = _render(glb, state, out, batched, driver)
    # The changed state looks different from the plain one (in both ways of drawing).
    assert _differing(pictures["plain", False], pictures["changed", False]) > 0.03
    assert _differing(pictures["plain", True], pictures["changed", True]) > 0.03
    # Batched and per-element pictures agree (edges may rasterise a pixel apart).
    for name in ("plain", "changed"):
        diff = _differing(pictures[name, True], pictures[name, False], level=24)
        assert diff < 0.01, f"{driver}, {name}: {diff:.2%} of pixels differ between batched and per-element drawing"
