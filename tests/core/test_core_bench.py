"""The benchmark's own pieces (no timing is asserted: figures are for people, ratios for the issue note)."""

from __future__ import annotations

import numpy as np
from core_support import Loaded

from pyagent.bench import Figures, Stats, bench_poses, check_targets, format_tables, measure_queries


def test_poses_stand_inside_rooms(fzk: Loaded) -> None:
    s = fzk.session()
    poses = bench_poses(s.building, 40)
    assert len(poses) == 40 and poses[0].to_json() == bench_poses(s.building, 40)[0].to_json()
    for p in poses:
        floor = p.position.copy()
        floor[2] -= 1.6 - 0.5
        assert s.graph.room_at(floor) is not None, p.to_json()


def test_poses_without_rooms_stay_over_the_building(mini: Loaded) -> None:
    b = mini.loaded.building
    lo = np.min([e.bbox_min for e in b.products()], axis=0)
    hi = np.max([e.bbox_max for e in b.products()], axis=0)
    for p in bench_poses(b, 20):
        assert np.all(p.position[:2] >= lo[:2]) and np.all(p.position[:2] <= hi[:2])


def test_measure_queries_runs_real_queries(fzk: Loaded) -> None:
    s = fzk.session()
    stats = measure_queries(s, bench_poses(s.building, 30))
    assert set(stats) == {"baseline", "relation", "relation+do", "visible", "visible+do"}
    for st in stats.values():
        assert st.n == 30 and 0 < st.p50_ms <= st.p99_ms
    # The queries must find something from most poses, or the benchmark measures empty answers.
    assert stats["relation"].hits >= 5 and stats["visible"].hits >= 10
    assert stats["relation"].hits == stats["relation+do"].hits
    assert s.state()["hidden"] == [] and s.executor.history.undo == []


def test_tables_and_targets() -> None:
    q = {n: Stats(0.5, 2.0, 10, 3) for n in ("relation", "relation+do", "visible", "visible+do")}
    q["baseline"] = Stats(0.01, 0.02, 10, 10)
    fig = Figures("synth (10325)", 10325, 9000, None, "skipped", 0.4, 1.0, 0.1, q)
    text = format_tables([fig])
    assert "synth (10325)" in text and "skipped" in text and "50x" in text and "100x" in text
    lines = check_targets(fig)
    assert lines[0].startswith("MISS relation p99 2.000 ms")
    assert lines[1].startswith("ok   visible p99 2.000 ms")
    assert lines[2].startswith("ok   cached load 0.400 s")
