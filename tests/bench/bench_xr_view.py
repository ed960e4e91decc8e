"""Benchmark: draw calls and CPU frame time of the XR view, per shipped IFC file.

    .venv/bin/python tests/bench/bench_xr_view.py [ifc/*.ifc ...]

Each file's glb (from the agent's loader) is shown by the main scene in XR mode against Monado
(remote headset, null compositor) on Mesa's lavapipe under Xvfb; tests/bench/bench_xr_view.gd
places the user outside the building and samples 60 frames. Frame *time* on a software renderer
paced by a 20 Hz null compositor says nothing about a headset at 90 Hz, so only draw calls (both
eyes), visible objects and the CPU time spent recording the view and setting up the frame are
reported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from pyagent import godot, xr  # noqa: E402


def measure(ifc: Path) -> dict:
    from pyagent.session import Session

    session = Session.open(str(ifc))
    try:
        glb = session.glb_path
    finally:
        session.close()
    with xr.monado() as service, godot.virtual_display() as display:
        proc = subprocess.run(
            [*xr.godot_prefix(), "--path", str(REPO), "--rendering-driver", "vulkan", "-s",
             "res://tests/bench/bench_xr_view.gd", "--", "--no-agent", "--glb", str(glb)],
            env=xr.client_env(service, display), cwd=REPO, capture_output=True, text=True, timeout=600,
            check=False)
    for line in proc.stdout.splitlines():
        if line.startswith("XRVIEW "):
            return json.loads(line[len("XRVIEW "):])
    raise RuntimeError(f"{ifc.name}: no figures\n{(proc.stdout + proc.stderr)[-3000:]}")


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or sorted((REPO / "ifc").glob("*.ifc"))
    xr.install()
    godot.import_project(REPO)
    print(f"{'file':<24} {'elements':>8} {'draw calls':>10} {'objects':>8} {'render CPU ms':>14} "
          f"{'setup CPU ms':>13}  (median / p95)")
    for ifc in files:
        f = measure(ifc)
        print(f"{ifc.name:<24} {f['elements']:>8} {f['draw_calls_median']:>10.0f} {f['objects_median']:>8.0f} "
              f"{f['render_cpu_ms_median']:>6.2f} / {f['render_cpu_ms_p95']:<5.2f} "
              f"{f['frame_setup_cpu_ms_median']:>5.2f} / {f['frame_setup_cpu_ms_p95']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
