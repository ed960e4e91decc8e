"""Benchmark: draw calls of the main scene's desktop view per shipped IFC file, batched (the
default: a few merged meshes with per-element state, BimVoiceBuildingBatches) against one object
per element (``--no-batches``), both measured in the same run on this machine (Xvfb, Mesa, the
opengl3 renderer, the quality the app picks for it).

    .venv/bin/python tests/bench/bench_draw_calls.py [--quality high] [ifc/*.ifc ...]

``--quality`` is handed to the app (``auto`` by default: no shadows on a software renderer;
``high`` or ``fixed`` draws the sun's shadows as on a GPU, as the issue's figures were taken).

Prints one line ``draw calls: <file> <N>`` per file (the issue's target: <= 300 for every
shipped file), then a table with the per-element baseline and the ratio.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from pyagent import godot  # noqa: E402

SHIPPED = ("ifc/AC20-FZK-Haus.ifc", "ifc/duplex.ifc", "ifc/MiniProject.ifc")
TARGET = 300


def measure(glb: Path, batched: bool, display: str, quality: str) -> dict:
    args = ["--path", str(REPO), "--rendering-driver", "opengl3", "--xr-mode", "off", "-s",
            "res://tests/bench/bench_draw_calls.gd", "--", "--no-agent", "--desktop", "--glb", str(glb),
            "--quality", quality]
    if not batched:
        args.append("--no-batches")
    proc = godot.start_godot(args, display=display, cwd=REPO, stdout=-1, stderr=-1)
    out, err = proc.communicate(timeout=600)
    for line in out.splitlines():
        if line.startswith("DRAWCALLS "):
            return json.loads(line[len("DRAWCALLS "):])
    raise RuntimeError(f"{glb}: no figures\n{(out + err)[-3000:]}")


def main(argv: list[str]) -> int:
    from pyagent.loader import load

    quality = "auto"
    if "--quality" in argv:
        at = argv.index("--quality")
        quality = argv[at + 1]
        argv = argv[:at] + argv[at + 2:]
    files = [Path(a) for a in argv] or [REPO / f for f in SHIPPED]
    godot.import_project(REPO)
    rows = []
    with godot.virtual_display() as display:
        for ifc in files:
            glb = load(ifc).glb_path
            per_element = measure(glb, False, display, quality)
            batched = measure(glb, True, display, quality)
            rows.append((ifc.name, per_element, batched))
            print(f"draw calls: {ifc.name} {batched['draw_calls']}", flush=True)
    print(f"\n{'file':<22} {'elements':>8} {'per element':>11} {'batched':>8} {'ratio':>7} {'batches':>7} "
          f"{'batch build ms':>14}  target <= {TARGET}")
    worst = 0
    for name, per_element, batched in rows:
        ratio = batched["draw_calls"] / max(1, per_element["draw_calls"])
        worst = max(worst, batched["draw_calls"])
        print(f"{name:<22} {batched['elements']:>8} {per_element['draw_calls']:>11} {batched['draw_calls']:>8} "
              f"{ratio:>6.3f}x {batched['batches']:>7} {batched['batch_build_ms']:>14.0f}  "
              f"{'met' if batched['draw_calls'] <= TARGET else 'NOT met'}")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
