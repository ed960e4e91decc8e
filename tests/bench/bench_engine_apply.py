"""Benchmark: applying a 1,000-element change batch in the engine vs plain property loops.

    .venv/bin/python tests/bench/bench_engine_apply.py [--elements 2000] [--batch 1000] [--display]
        [--no-batches]

Writes a building glb of small boxes, runs tests/bench/bench_engine_apply.gd in Godot (headless,
or with ``--display`` under Xvfb with the OpenGL renderer, so material and visibility changes
reach a real rendering server) and prints per-batch costs and ratios to the baseline.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "engine"))

from glb_fixture import grid_boxes, write_glb  # noqa: E402

from pyagent.godot import run_godot  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elements", type=int, default=2000)
    ap.add_argument("--batch", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--display", action="store_true", help="render with OpenGL under Xvfb")
    ap.add_argument("--no-batches", action="store_true",
                    help="draw one object per element (the building's default is merged batches)")
    ns = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        glb = write_glb(Path(tmp) / "bench.glb", grid_boxes(ns.elements))
        args = ["--path", str(REPO), "--xr-mode", "off"]
        args = [*args, "--rendering-driver", "opengl3"] if ns.display else ["--headless", *args]
        args += ["-s", "res://tests/bench/bench_engine_apply.gd", "--", "--glb", str(glb),
                 "--batch", str(ns.batch), "--rounds", str(ns.rounds), "--no-agent"]
        if ns.no_batches:
            args.append("--no-batches")
        proc = run_godot(args, display=ns.display, cwd=REPO, capture=True, timeout=900)
    lines = [ln for ln in proc.stdout.splitlines() if not ln.startswith("Godot Engine")]
    print("\n".join(lines))
    if proc.returncode != 0:
        print(proc.stderr[-3000:], file=sys.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
