"""The first-load benchmark's pieces on a real file (no timing is asserted: figures are for people)."""

from __future__ import annotations

import pytest
from core_ifc_facts import DUPLEX

from pyagent import load_bench
from pyagent.link.streaming import HOLD_ENV
from pyagent.tessellate import BOOLEANS_ENV


def test_measure_reports_a_first_view_before_the_full_load(monkeypatch: pytest.MonkeyPatch) -> None:
    # the rest of duplex can come within a second, before the stand-in engine's hello is answered: held back
    # so that the serve measurement sees both parts (it measures; this checks what it reports)
    monkeypatch.setenv(HOLD_ENV, "3")
    monkeypatch.setenv(BOOLEANS_ENV, "0")  # duplex's boolean bodies in a second part: it streams
    f = load_bench.measure(DUPLEX, runs=1)
    assert f.name == DUPLEX.name and f.elements > 0
    assert 0.0 < f.first_view_s <= f.full_s and f.peak_mb > 0.0 and f.glb_mb > 0.0
    # the baseline: the same meshes, one mesh per element, written in the same process
    assert f.unshared_mb > f.glb_mb and f.write_glb_s > 0.0 and f.write_unshared_s > 0.0
    assert (f.web_ifc_s is None) == (load_bench.web_ifc_note() is not None)
    # through serve: the engine holds the first view before the whole building (duplex streams a second part)
    assert f.serve_first_s is not None and f.serve_full_s is not None
    assert 0.0 < f.serve_first_s < f.serve_full_s and f.pending > 0
    table = load_bench.format_table([f])
    assert DUPLEX.name in table and ("web-ifc" in table) and "unshared" in table
    lines = load_bench.check_targets([f])
    assert any("first view" in line for line in lines)


def test_files_are_the_shipped_ones_first() -> None:
    names = [p.name for p in load_bench.files()]
    assert names[:3] == ["AC20-FZK-Haus.ifc", "duplex.ifc", "MiniProject.ifc"]
    assert all(p.is_file() for p in load_bench.files())
