"""The headset path against a real OpenXR runtime: Monado (remote-driven headset and controllers,
null compositor) with Godot's Vulkan renderer on Mesa's lavapipe under Xvfb, and a real agent.

The runtime is unpacked privately by ``python -m pyagent xr install`` (idempotent); the test skips
only when it cannot be installed here (no apt/dpkg or no archive).
"""

from __future__ import annotations

import json
import struct
import subprocess
import zlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from engine_support import REPO
from test_e2e import _door_in_front, agent  # noqa: F401 - agent is a fixture

pytestmark = pytest.mark.godot

#: The left eye of the last run, kept for people and CI artefacts.
LAST_EYE = REPO / ".cache" / "xr" / "last_eye_left.png"


@pytest.fixture(scope="module")
def xr_runtime() -> Iterator[None]:
    from pyagent import xr

    try:
        xr.install()
    except xr.XrUnavailable as exc:
        pytest.skip(f"the OpenXR runtime (Monado) cannot be installed here: {exc}")
    yield


def _run_xr_scene(args: list[str], session, timeout: float) -> subprocess.CompletedProcess[str]:
    from pyagent import godot, xr

    with godot.virtual_display() as display:
        return subprocess.run(
            [*xr.godot_prefix(), "--path", str(REPO), "--rendering-driver", "vulkan", *args],
            env=xr.client_env(session, display), cwd=REPO, capture_output=True, text=True, timeout=timeout,
            check=False,
        )


def test_xr_session_against_monado(godot: list[str], xr_runtime: None, agent: str,  # noqa: F811
                                   tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pyagent import xr

    door, pose, count = _door_in_front()
    expect = tmp_path / "expect.json"
    expect.write_text(json.dumps({"pose": pose, "door": door, "elements": count}))
    out = tmp_path / "out"
    out.mkdir()
    with xr.monado(tmp_path / "monado") as session:
        proc = _run_xr_scene(
            ["-s", "res://tests/godot/test_xr.gd", "--", "--no-agent", "--agent", agent, "--expect", str(expect),
             "--remote", str(session.remote_port), "--monado-pid", str(session.pid), "--out", str(out)],
            session, timeout=300)
        service_log = session.log_text()
    log = proc.stdout + proc.stderr
    (tmp_path / "godot.log").write_text(log)
    context = f"{log[-6000:]}\n--- monado ---\n{service_log[-2000:]}"
    with capsys.disabled():  # the CI log shows the mode lines and the XR view figures
        print("".join(f"\n{line}" for line in proc.stdout.splitlines() if line.startswith(("BimVoice:", "XR view:")))
              + f"\nGodot exit code {proc.returncode}")
    assert "BimVoice: XR mode" in proc.stdout, context
    assert "Running on OpenXR runtime:  Monado" in log, context
    assert "checks, 0 failed" in proc.stdout, context
    assert "BimVoice: XR runtime lost" in proc.stdout, context
    assert proc.returncode == 0, f"Godot exited with {proc.returncode} after the runtime was lost:\n{context}"
    _check_eyes(out)
    LAST_EYE.parent.mkdir(parents=True, exist_ok=True)
    write_png(LAST_EYE, read_ppm(out / "eye_left.ppm"))
    figures = json.loads((out / "figures.json").read_text())
    assert figures["draw_calls"] > 0, figures


def read_ppm(path: Path) -> np.ndarray:
    """A binary 8-bit PPM (P6) as (height, width, 3) uint8."""
    magic, size, maxval, pixels = path.read_bytes().split(b"\n", 3)
    width, height = (int(v) for v in size.split())
    assert magic == b"P6" and maxval == b"255" and width * height > 0, (magic, size, maxval)
    return np.frombuffer(pixels, np.uint8, width * height * 3).reshape(height, width, 3)


def write_png(path: Path, rgb: np.ndarray) -> None:
    """An 8-bit RGB PNG of ``rgb`` (height, width, 3)."""
    height, width, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
                     + chunk(b"IEND", b""))


def _check_eyes(out: Path) -> None:
    """The eyes show the building from the headset: detailed pictures, a stereo pair (the eyes
    differ slightly), and hiding the door in front changes the middle of the view."""
    left = read_ppm(out / "eye_left.ppm").astype(np.int16)
    right = read_ppm(out / "eye_right.ppm").astype(np.int16)
    hidden = read_ppm(out / "eye_hidden_left.ppm").astype(np.int16)
    h, w, _ = left.shape
    assert h >= 100 and w >= 100, left.shape
    colours = len(np.unique(left.reshape(-1, 3), axis=0))
    assert colours >= 20, f"the eye picture is nearly flat ({colours} colours)"
    assert left.std() > 10, "the eye picture has no contrast"
    stereo = np.abs(left - right).mean()
    assert 0.2 < stereo < 40, f"left and right eye should differ a little (parallax), mean diff {stereo:.2f}"
    middle = (slice(h // 3, 2 * h // 3), slice(w // 3, 2 * w // 3))
    changed = np.abs(left[middle] - hidden[middle]).max(axis=2) > 24
    assert changed.mean() > 0.05, f"hiding the door ahead changed {changed.mean():.1%} of the middle third"
