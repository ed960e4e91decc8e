"""Real crashes: ``python -m pyagent script --journal`` is killed with SIGKILL in the middle of a session;
the restarted agent has every acknowledged change (and the line in flight either fully or not at all),
and then carries on exactly like an agent that never crashed."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from persist_helpers import FZK, MALFORMED, ScriptProcess, change_lines, copy_ifc

from pyagent.script import handle_line
from pyagent.session import Session

SAYS = [{"say": "hide the walls"}, {"say": "undo"}, {"say": "turn around"}, {"say": "make it red"},
        {"say": "show everything"}, {"say": "how many windows are on the ground floor?"}, {"say": "redo"}]


def mixed_lines(building: Any, seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    lines = [json.dumps(x) for x in change_lines(building, rng, n)]
    for _ in range(n // 5):
        lines.insert(rng.randrange(len(lines)), rng.choice(MALFORMED))
        lines.insert(rng.randrange(len(lines)), json.dumps(rng.choice(SAYS)))
    return [x for x in lines if x.strip()]


def reference(ifc: Path, lines: list[str]) -> Session:
    """An agent that never crashed, fed the same lines."""
    s = Session.open(ifc)
    for line in lines:
        handle_line(s, line)
    return s


@pytest.mark.parametrize("seed", [11, 22, 33])
def test_sigkill_loses_no_acknowledged_change(tmp_path: Path, seed: int) -> None:
    ifc = copy_ifc(FZK, tmp_path / "model")
    journal = tmp_path / "journal"
    ref = Session.open(ifc)
    lines = mixed_lines(ref.building, seed, 45)
    rng = random.Random(seed)
    done = 0
    for _round in range(2):
        proc = ScriptProcess(ifc, journal)
        try:
            assert proc.state() == ref.state(), "the restarted agent does not have the acknowledged state"
            kill_at = min(len(lines) - 1, done + rng.randint(8, 18))
            for line in lines[done:kill_at]:
                got = proc.ask(line)
                want = handle_line(ref, line)
                assert got == want, line
            done = kill_at
            acknowledged = ref.state()
            proc.send_raw(lines[done])  # in flight when the process dies
            proc.kill()
        finally:
            if proc.proc.poll() is None:
                proc.kill()
        handle_line(ref, lines[done])
        with_inflight = ref.state()
        restored = ScriptProcess(ifc, journal)
        state = restored.state()
        restored.close()
        assert state in (acknowledged, with_inflight)
        if state == with_inflight:
            done += 1
        else:
            ref = reference(ifc, lines[:done])
    # The survivor carries on like the reference, undo history included.
    proc = ScriptProcess(ifc, journal)
    for line in lines[done:] + [json.dumps({"do": {"steps": [{"op": "undo", "count": 3}]}}),
                                json.dumps({"do": {"steps": [{"op": "redo", "count": 2}]}})]:
        assert proc.ask(line) == handle_line(ref, line), line
    assert proc.state() == ref.state()
    err = proc.close()
    assert "restored" in err


def test_a_killed_fresh_session_starts_from_the_file(tmp_path: Path) -> None:
    ifc = copy_ifc(FZK, tmp_path / "model")
    journal = tmp_path / "journal"
    proc = ScriptProcess(ifc, journal)
    assert proc.ask({"do": {"steps": [{"op": "hide", "target": {"class": ["IfcWindow"]}}]}})["ok"]
    proc.kill()
    proc = ScriptProcess(ifc, journal, "--fresh")
    assert proc.state()["hidden"] == []
    proc.close()
    assert list(journal.glob("journal.*.previous.jsonl"))
