"""A short run of the soak test (tests/bench/soak.py): mixed commands and malformed lines through a real
scripted-session process and through the link, with SIGKILLs in between; nothing acknowledged is lost."""

from __future__ import annotations

import sys
from pathlib import Path

from persist_helpers import FZK, copy_ifc

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from soak import link_phase, make_lines, script_phase  # noqa: E402

from pyagent.session import Session  # noqa: E402


def test_short_soak_loses_nothing(tmp_path: Path) -> None:
    ifc = copy_ifc(FZK, tmp_path / "model")
    lines = make_lines(Session.open(ifc).building, 300, seed=3)
    script = script_phase(ifc, lines, kills=2, seed=3, work=tmp_path)
    assert script.changes_lost == 0 and not script.mismatches, script.mismatches
    assert script.handled == len(lines) - 2 and script.errors > 0 and script.kills == 2
    assert script.growth_mb < 64
    link = link_phase(ifc, 500, seed=3, work=tmp_path)
    assert link.changes_lost == 0 and link.kills == 1 and link.handled == 500 and link.errors > 0


def test_the_harness_forgets_every_lost_in_flight_line(tmp_path: Path) -> None:
    """Issue 14.12: after a kill whose in-flight line was lost, the harness rebuilt its reference from every
    earlier line, earlier lost in-flight lines included, and reported thousands of lost changes for a
    correct product. Every line here is a change, so every in-flight line that is lost matters."""
    import json

    ifc = copy_ifc(FZK, tmp_path / "model")
    building = Session.open(ifc).building
    walls = sorted(e.id for e in building.products() if e.has_geometry)[:40]
    lines = [json.dumps({"do": {"steps": [{"op": "color", "target": {"ids": [walls[i % len(walls)]]},
                                           "rgba": [(i % 7) / 7, 0.5, 0.5, 1]}]}}) for i in range(120)]
    script = script_phase(ifc, lines, kills=4, seed=5, work=tmp_path)
    assert script.kills == 4
    assert script.changes_lost == 0 and not script.mismatches, script.mismatches
