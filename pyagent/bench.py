"""``python -m pyagent bench [--quick]``: load times and pose-relative query latency, with ratios.

For each shipped IFC file and the generated ~10,000-element building (``pyagent.synth``) it measures:
cold load (no cache), cached load, scene-graph build, spatial-index build, and p50/p99 latency of
pose-relative queries over many poses inside the building:

- relation: the nearest door in front of the user (selector resolution: the spatial query itself),
- relation+do: the same as a whole program through ``Session.do`` (validation, scratch state, answer),
- visible: the windows the user can see (field of view plus line of sight),

each also as a ratio against a plain numpy baseline timed in the same run (brute-force distances
from the eye to every element centre and the nearest one), because these machines are noisy.
Targets from DESIGN.md are checked on the largest building.

Cold loads write into a temporary cache; ``--quick`` skips the cold loads of the two large buildings
and takes fewer poses (their cached load then comes from the project cache, filled on first use).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import math
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pyagent import load_bench
from pyagent.actions.selectors import Context, Resolver
from pyagent.loader import LoadedBuilding, load
from pyagent.model import Building, Pose
from pyagent.paths import PROJECT_ROOT
from pyagent.scenegraph import build_scene_graph
from pyagent.session import Session
from pyagent.spatial import SpatialIndex
from pyagent.synth import SynthSpec, synth_path

SHIPPED = ("ifc/AC20-FZK-Haus.ifc", "ifc/duplex.ifc", "ifc/MiniProject.ifc")
LARGE = ("MiniProject.ifc",)  # cold load skipped with --quick
RELATION = {"class": ["IfcDoor"], "relations": [{"rel": "in_front"}], "order": "nearest", "limit": 1}
VISIBLE = {"class": ["IfcWindow"], "relations": [{"rel": "visible"}]}
TARGETS_MS = {"relation": 1.0, "visible": 10.0}  # p99 at 10,000 elements
TARGET_CACHED_S = 0.5


@dataclass
class Stats:
    p50_ms: float
    p99_ms: float
    n: int
    hits: int = 0  # queries that returned something (a benchmark of empty answers proves little)

    @classmethod
    def of(cls, samples_s: list[float], hits: int = 0) -> Stats:
        ms = np.array(samples_s) * 1e3
        return cls(float(np.percentile(ms, 50)), float(np.percentile(ms, 99)), len(ms), hits)


@dataclass
class Figures:
    name: str
    elements: int
    products: int
    cold_s: float | None
    cold_note: str
    cached_s: float
    graph_s: float
    spatial_s: float
    queries: dict[str, Stats] = field(default_factory=dict)


def _median_time(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def bench_poses(b: Building, n: int, seed: int = 7) -> list[Pose]:
    """Eye positions inside rooms (or over the ground storey when there are none), random headings."""
    rng = np.random.default_rng(seed)
    spaces = [s for s in b.spaces() if s.has_geometry]
    poses: list[Pose] = []
    if spaces:
        for _ in range(n):
            sp = spaces[int(rng.integers(len(spaces)))]
            lo, hi = sp.bbox_min, sp.bbox_max
            xy = lo[:2] + (hi[:2] - lo[:2]) * rng.uniform(0.25, 0.75, 2)
            poses.append(Pose(np.array([xy[0], xy[1], lo[2] + 1.6]), float(rng.uniform(-180, 180)), 0.0))
        return poses
    products = b.products()
    lo = np.min([e.bbox_min for e in products], axis=0)
    hi = np.max([e.bbox_max for e in products], axis=0)
    storey = b.storey(b.ground_storey)
    z = (storey.elevation if storey else lo[2]) + 1.6
    for _ in range(n):
        xy = lo[:2] + (hi[:2] - lo[:2]) * rng.uniform(0.1, 0.9, 2)
        poses.append(Pose(np.array([xy[0], xy[1], z]), float(rng.uniform(-180, 180)), 0.0))
    return poses


def measure_queries(session: Session, poses: list[Pose]) -> dict[str, Stats]:
    sp = session.spatial
    centres = sp.centre.copy()

    def baseline(p: Pose) -> int:
        return int(np.argmin(np.linalg.norm(centres - p.position, axis=1)))

    def resolve(sel: dict[str, Any]) -> Callable[[Pose], int]:
        def run(p: Pose) -> int:
            session.scene.pose = p
            return len(Resolver(Context(session.building, session.graph, sp, session.scene)).resolve(sel))
        return run

    def do(sel: dict[str, Any]) -> Callable[[Pose], int]:
        program = {"steps": [{"op": "list", "target": sel}]}

        def run(p: Pose) -> int:
            session.scene.pose = p
            r = session.do(program)
            if not r.ok:
                raise RuntimeError(f"benchmark query failed: {r.error}")
            return len(r.value or [])
        return run

    cases: dict[str, Callable[[Pose], int]] = {
        "baseline": baseline, "relation": resolve(RELATION), "relation+do": do(RELATION),
        "visible": resolve(VISIBLE), "visible+do": do(VISIBLE),
    }
    out: dict[str, Stats] = {}
    for name, fn in cases.items():
        for p in poses[:5]:
            fn(p)  # warm caches and lazy imports
        samples, hits = [], 0
        for p in poses:
            t = time.perf_counter()
            got = fn(p)
            samples.append(time.perf_counter() - t)
            hits += bool(got) if name != "baseline" else 1
        out[name] = Stats.of(samples, hits)
    return out


def bench_building(path: Path, name: str, cold: bool, n_poses: int, repeat: int, tmp: Path) -> Figures:
    cold_s: float | None = None
    note = ""
    if cold:
        t = time.perf_counter()
        load(path, cache=tmp, use_cache=False)
        cold_s = time.perf_counter() - t
        cache: Path | None = tmp
    else:
        cache = None  # the project cache; the first use is a cold load
        first = load(path)
        note = "skipped" if first.cached else f"first use {first.timings.get('total', 0.0):.1f} s"
    cached_s, lb = _median_time(lambda: load(path, cache=cache), repeat)
    assert isinstance(lb, LoadedBuilding) and lb.cached
    graph_s, graph = _median_time(lambda: build_scene_graph(lb.building, lb.meshes), repeat)
    spatial_s, spatial = _median_time(lambda: SpatialIndex.build(lb.building, lb.meshes), repeat)
    session = Session(lb, graph, spatial)
    queries = measure_queries(session, bench_poses(lb.building, n_poses))
    return Figures(name, len(lb.building.elements), len(lb.building.products()), cold_s, note, cached_s, graph_s,
                   spatial_s, queries)


def profile_queries(path: Path, n_poses: int, top: int = 18) -> str:
    """cProfile of the relation and visibility queries on one building, top functions by own time."""
    lb = load(path)
    session = Session(lb, build_scene_graph(lb.building, lb.meshes), SpatialIndex.build(lb.building, lb.meshes))
    poses = bench_poses(lb.building, n_poses)
    report = io.StringIO()
    for label, sel in (("relation", RELATION), ("visible", VISIBLE)):
        prof = cProfile.Profile()
        prof.enable()
        for p in poses:
            session.scene.pose = p
            Resolver(Context(session.building, session.graph, session.spatial, session.scene)).resolve(sel)
        prof.disable()
        report.write(f"\n--- profile: {label} query, {len(poses)} poses, {Path(path).name} ---\n")
        pstats.Stats(prof, stream=report).sort_stats("tottime").print_stats(top)
    return report.getvalue()


# ---- output ----------------------------------------------------------------------------------------------
def _s(v: float | None) -> str:
    return "-" if v is None or not math.isfinite(v) else f"{v:.3f}"


def format_tables(figs: list[Figures]) -> str:
    lines = []
    head = f"{'building':<34} {'elements':>8} {'cold s':>8} {'cached s':>9} {'graph s':>8} {'spatial s':>9}"
    lines += ["Loading (seconds, median of repeats; cold = no cache)", head, "-" * len(head)]
    for f in figs:
        cold = _s(f.cold_s) if f.cold_s is not None else f.cold_note or "-"
        lines.append(f"{f.name:<34} {f.elements:>8} {cold:>8} {_s(f.cached_s):>9} {_s(f.graph_s):>8} "
                     f"{_s(f.spatial_s):>9}")
    lines.append("")
    names = ["relation", "relation+do", "visible", "visible+do"]
    head = f"{'building':<34} {'baseline p50/p99':>17} " + " ".join(f"{n + ' p50/p99 (x base)':>32}" for n in names)
    lines += ["Pose-relative queries (milliseconds; ratio = query / numpy baseline in the same run)", head,
              "-" * len(head)]
    for f in figs:
        base = f.queries["baseline"]
        cells = []
        for n in names:
            q = f.queries[n]
            ratio = f"{q.p50_ms / base.p50_ms:5.0f}x/{q.p99_ms / base.p99_ms:5.0f}x"
            cells.append(f"{q.p50_ms:7.3f}/{q.p99_ms:7.3f} ({ratio})")
        lines.append(f"{f.name:<34} {base.p50_ms:8.4f}/{base.p99_ms:7.4f} " + " ".join(f"{c:>32}" for c in cells))
    hits = ", ".join(f"{f.name}: {f.queries['relation'].hits}/{f.queries['relation'].n} door, "
                     f"{f.queries['visible'].hits}/{f.queries['visible'].n} windows" for f in figs)
    lines += ["", f"poses with a non-empty answer: {hits}"]
    return "\n".join(lines)


def check_targets(big: Figures) -> list[str]:
    out = []
    for name, limit in TARGETS_MS.items():
        p99 = big.queries[name].p99_ms
        out.append(f"{'ok  ' if p99 < limit else 'MISS'} {name} p99 {p99:.3f} ms (target < {limit:g} ms at "
                   f"{big.elements} elements)")
    ok = big.cached_s < TARGET_CACHED_S
    out.append(f"{'ok  ' if ok else 'MISS'} cached load {big.cached_s:.3f} s (target < {TARGET_CACHED_S} s at "
               f"{big.elements} elements)")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pyagent bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer poses, no cold load of the large buildings")
    parser.add_argument("--poses", type=int, help="poses per query (default 300, --quick 60)")
    parser.add_argument("--no-synth", action="store_true", help="skip the generated 10,000-element building")
    parser.add_argument("--only", help="bench only files whose name contains this")
    parser.add_argument("--profile", action="store_true", help="cProfile the queries on the largest building")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    parser.add_argument("--no-load", action="store_true", help="skip the first-load table (cold loads vs web-ifc)")
    parser.add_argument("--load-only", action="store_true", help="only the first-load table")
    parser.add_argument("--install-web-ifc", action="store_true", help="install web-ifc into .cache/web-ifc first")
    parser.add_argument("--check-sharing", action="store_true",
                        help="only check that tessellating repeated shapes once gives the same elements and boxes")
    args = parser.parse_args(argv)
    if args.check_sharing:
        results = [load_bench.check_sharing(p) for p in load_bench.files()
                   if not args.only or args.only.lower() in p.name.lower()]
        for r in results:
            print(r.line(), flush=True)
        return 0 if all(r.line().startswith("ok") for r in results) else 1
    if args.install_web_ifc:
        load_bench.install_web_ifc()
    if not args.no_load:
        load_figs = []
        for path in load_bench.files():
            if args.only and args.only.lower() not in path.name.lower():
                continue
            print(f"first load of {path.name} ...", flush=True)
            load_figs.append(load_bench.measure(path))
        print()
        print(load_bench.format_table(load_figs))
        print()
        print("First-load targets (issue 11):")
        for line in load_bench.check_targets(load_figs):
            print("  " + line)
        print()
        if args.load_only:
            return 0
    n_poses = args.poses or (60 if args.quick else 300)
    repeat = 3

    buildings: list[tuple[Path, str, bool]] = []
    for rel in SHIPPED:
        p = PROJECT_ROOT / rel
        buildings.append((p, p.name, not (args.quick and p.name in LARGE)))
    if not args.no_synth:
        t = time.perf_counter()
        spec = SynthSpec()
        sp = synth_path(spec)
        print(f"generated building: {sp.name} ({spec.element_count()} elements, {time.perf_counter() - t:.1f} s)",
              flush=True)
        buildings.append((sp, f"synth ({spec.element_count()})", not args.quick))
    if args.only:
        buildings = [b for b in buildings if args.only.lower() in b[1].lower()]
    figs: list[Figures] = []
    with tempfile.TemporaryDirectory(prefix="pyagent-bench-") as tmp:
        for path, name, cold in buildings:
            print(f"benching {name} ...", flush=True)
            figs.append(bench_building(path, name, cold, n_poses, repeat, Path(tmp)))
    print()
    print(format_tables(figs))
    if figs:
        big = max(figs, key=lambda f: f.elements)
        print()
        print("Targets (DESIGN.md), on the largest building:")
        for line in check_targets(big):
            print("  " + line)
        if args.profile:
            print(profile_queries(next(p for p, n, _ in buildings if n == big.name), min(n_poses, 100)))
    if args.json:
        args.json.write_text(json.dumps([asdict(f) for f in figs], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
