"""The held-out language cases (tests/language/heldout.jsonl): utterances written without looking at the
parser, to measure how well it generalises. These tests check that the data and the gold programs are
sound; they do not assert how well the front end does on them (that is a report, not a gate):

    python -m pyagent.language.evaluate --cases tests/language/heldout.jsonl --verbose
"""

from __future__ import annotations

from collections import Counter

import pytest
from gold_checks import check_gold_case

from pyagent.language import evaluate as ev
from pyagent.paths import PROJECT_ROOT

HELDOUT = PROJECT_ROOT / "tests" / "language" / "heldout.jsonl"
CASES = ev.load_cases(HELDOUT)


@pytest.fixture(scope="module")
def sessions() -> ev.Sessions:
    return ev.Sessions(use_llm=False)


def test_heldout_cases_are_balanced() -> None:
    assert len(CASES) == 60
    cells = Counter((c.category, c.difficulty) for c in CASES)
    for cat in ev.CATEGORIES:
        for diff in ev.DIFFICULTIES:
            assert cells[(cat, diff)] == 10, cells
    files = Counter(c.ifc for c in CASES)
    assert set(files) == set(ev.FILES) and min(files.values()) >= 15, files
    checks = Counter(c.check for c in CASES)
    assert checks["fail"] >= 3 and checks["state"] + checks["both"] >= 15, checks
    assert sum(1 for c in CASES if c.setup) >= 4, "follow-ups need setup lines"
    assert all(c.id.startswith("ho-") for c in CASES)


def test_heldout_utterances_are_new() -> None:
    said = [c.say.strip().casefold() for c in CASES]
    assert len(set(said)) == len(said), "repeated utterances"
    benchmark = {c.say.strip().casefold() for c in ev.load_cases()}
    assert not set(said) & benchmark, "held-out utterances must not repeat the benchmark"
    assert not {c.id for c in CASES} & {c.id for c in ev.load_cases()}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_heldout_gold_program_is_valid_and_runs_as_expected(case: ev.Case, sessions: ev.Sessions) -> None:
    check_gold_case(case, sessions)


def test_evaluate_reads_the_heldout_file(capsys: pytest.CaptureFixture[str]) -> None:
    # --cases loads (and validates) the held-out file; an id that is not there selects nothing, so the
    # front end is not run here.
    assert ev.main(["--cases", str(HELDOUT), "--id", "no-such-case"]) == 0
    assert "no cases selected" in capsys.readouterr().out
    with pytest.raises(FileNotFoundError):
        ev.main(["--cases", str(HELDOUT.with_name("missing.jsonl"))])
