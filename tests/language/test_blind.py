"""The blind language sets (tests/language/blind/*.jsonl, first-run scores in LEDGER.md): every case's
data and gold program are sound. How well the front end does on them is a report, not a gate:

    python -m pyagent.language.evaluate --cases tests/language/blind/<set>.jsonl --verbose

Sets on the public sample buildings beside the checkout (``real/<file>``) are checked where that folder
is present.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gold_checks import check_gold_case

from pyagent.language import evaluate as ev
from pyagent.paths import PROJECT_ROOT

BLIND = PROJECT_ROOT / "tests" / "language" / "blind"
SETS = sorted(BLIND.glob("*.jsonl"))
CASES = [(path, case) for path in SETS for case in ev.load_cases(path)]
LEDGER = (BLIND / "LEDGER.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sessions() -> ev.Sessions:
    return ev.Sessions(use_llm=False)


@pytest.mark.parametrize("path", SETS, ids=[p.stem for p in SETS])
def test_every_blind_set_has_its_first_score_in_the_ledger(path: Path) -> None:
    assert f"`tests/language/blind/{path.name}`" in LEDGER, f"{path.name}: log its first-run score in LEDGER.md"
    cases = ev.load_cases(path)
    assert len(cases) >= 30
    assert len({c.say.strip().casefold() for c in cases}) == len(cases), "repeated utterances"


def test_blind_ids_are_unique_across_sets() -> None:
    ids = [case.id for _, case in CASES]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(("path", "case"), CASES, ids=[f"{p.stem}:{c.id}" for p, c in CASES])
def test_blind_gold_program_is_valid_and_runs_as_expected(path: Path, case: ev.Case, sessions: ev.Sessions) -> None:
    if case.ifc.startswith(ev.REAL_PREFIX) and ev.real_dir() is None:
        pytest.skip("the shared sample buildings (../shared/ifc/real) are not beside this checkout")
    check_gold_case(case, sessions)


def test_evaluate_prints_one_line_per_blind_set(tmp_path: Path, sessions: ev.Sessions) -> None:
    review = next(p for p in SETS if p.name == "review-1.jsonl")
    lines = review.read_text(encoding="utf-8").splitlines()[:2]
    (tmp_path / "mini-set.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = ev.format_blind(sessions, tmp_path)
    line = next(x for x in out.splitlines() if "mini-set.jsonl" in x)
    assert "(2/2)" in line or "(1/2)" in line or "(0/2)" in line
    assert "AC20-FZK-Haus" in line or "duplex" in line
