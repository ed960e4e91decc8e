"""Benchmark: frames per second of the desktop app on each shipped IFC file, the old fixed
rendering settings (MSAA 2x, sun shadows, full resolution) against `auto` quality (chosen by what
the renderer can do), measured on this machine in a real window under Xvfb.

    .venv/bin/python tests/bench/bench_desktop_fps.py [--seconds 12] [--files ifc/duplex.ifc ...]

For each file the app starts offline (`--no-agent --glb`, the overview of the whole building),
runs for ``--seconds`` and reports the median frame rate of its measuring windows in the second
half of the run (the app's own count, printed with `--fps-log`). Also measured: an empty scene
(no building). Ratios are auto / fixed from the same run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "engine"))

from desktop_app import DesktopApp, display, tools_missing  # noqa: E402

SHIPPED = ("ifc/AC20-FZK-Haus.ifc", "ifc/duplex.ifc", "ifc/MiniProject.ifc")


def measure(disp: str, shots: Path, glb: Path | None, quality: str, seconds: float) -> tuple[float, str]:
    """Median fps over the app's measuring windows in the second half of the run, and the quality."""
    args = ["--no-agent", "--quality", quality, "--fps-log"] + (["--glb", str(glb)] if glb else [])
    app = DesktopApp(disp, shots, args)
    app.start()
    try:
        app.out.wait_for(r"BimVoice: desktop mode", timeout=120)
        start = time.monotonic()
        samples: list[float] = []
        level = ""
        mark = app.out.mark()
        while time.monotonic() - start < seconds or not samples:
            m = app.out.wait_for(r"BimVoice: fps ([\d.]+) at (\w+)", mark, timeout=120)
            mark = app.out.lines.index(m.string, mark) + 1
            level = m.group(2)
            if time.monotonic() - start >= seconds / 2:
                samples.append(float(m.group(1)))
        return statistics.median(samples), level
    finally:
        app.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=12.0, help="run time per file and setting")
    ap.add_argument("--files", nargs="*", default=list(SHIPPED))
    ns = ap.parse_args()
    missing = tools_missing()
    if missing:
        print(f"cannot run: {missing}")
        return 2
    from pyagent.loader import load

    cases: list[tuple[str, Path | None]] = [("(no building)", None)]
    for name in ns.files:
        cases.append((Path(name).name, load(REPO / name).glb_path))
    print(f"{'file':<22} {'fixed fps':>9} {'auto fps':>9} {'ratio':>6}  auto quality")
    with tempfile.TemporaryDirectory() as tmp, display() as disp:
        for label, glb in cases:
            fixed, _ = measure(disp, Path(tmp) / f"{label}-fixed", glb, "fixed", ns.seconds)
            auto, level = measure(disp, Path(tmp) / f"{label}-auto", glb, "auto", ns.seconds)
            ratio = auto / fixed if fixed > 0 else float("inf")
            print(f"{label:<22} {fixed:>9.1f} {auto:>9.1f} {ratio:>5.1f}x  {level}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
