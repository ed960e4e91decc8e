"""Benchmark: agent changes to many elements, end to end, as main-thread cost per engine frame.

    .venv/bin/python tests/bench/bench_engine_e2e.py [--ifc ifc/MiniProject.ifc] [--class IfcBeam]
                                                     [--rounds 5]

Starts ``python -m pyagent serve`` on the file, runs the real project headless with the BimVoice
runtime connected to it (tests/bench/bench_engine_e2e.gd), and sends programs that hide, paint and
move every element of one class, each followed by an undo. For each, every frame from sending the
program until its result is in and its delta applied is timed (link poll + apply, the runtime's
per-frame work); the delta is parsed on a worker thread. Prints per kind: elements touched, frames,
the worst frame, the summed main-thread cost, the request's wall time, and the bare engine setters
for the same nodes measured in the same run (the baseline) with the ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "link"))

from link_client import free_port, start_agent, stop_agent  # noqa: E402

from pyagent.godot import run_godot  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ifc", type=Path, default=REPO / "ifc" / "MiniProject.ifc")
    ap.add_argument("--class", dest="ifc_class", default="IfcBeam")
    ap.add_argument("--rounds", type=int, default=5)
    ns = ap.parse_args()
    port = free_port()
    agent = start_agent(ns.ifc, port)
    try:
        proc = run_godot(["--headless", "--path", str(REPO), "-s", "res://tests/bench/bench_engine_e2e.gd", "--",
                          "--agent", f"tcp://127.0.0.1:{port}", "--desktop", "--class", ns.ifc_class,
                          "--rounds", str(ns.rounds)], cwd=REPO, capture=True, timeout=900)
    finally:
        stop_agent(agent)
    bench = next((json.loads(ln[6:]) for ln in proc.stdout.splitlines() if ln.startswith("BENCH ")), None)
    if bench is None:
        print(proc.stdout[-3000:], proc.stderr[-3000:], file=sys.stderr)
        return 1
    print(f"{ns.ifc.name}: {bench['elements']} elements in the engine; every {ns.ifc_class} changed, "
          f"{ns.rounds} rounds; medians")
    print(f"{'':14} {'elements':>8} {'frames':>6} {'worst frame ms':>14} {'main thread ms':>14} "
          f"{'request ms':>10} {'setters ms':>10} {'x setters':>9}")
    kinds: dict[str, list[dict]] = {}
    for row in bench["rows"]:
        kinds.setdefault(row["kind"], []).append(row)
    for kind, rows in kinds.items():
        def med(key: str, rows: list[dict] = rows) -> float:
            return statistics.median(r[key] for r in rows)
        print(f"{kind:14} {med('elements'):8.0f} {med('frames'):6.0f} {med('max_ms'):14.3f} {med('sum_ms'):14.3f} "
              f"{med('request_ms'):10.1f} {med('base_ms'):10.3f} {med('sum_ms') / max(med('base_ms'), 1e-6):9.1f}")
    worst = max(r["max_ms"] for r in bench["rows"])
    print(f"worst single frame over all {len(bench['rows'])} requests: {worst:.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
