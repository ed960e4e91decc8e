"""The language benchmark (tests/language/benchmark.jsonl): the data is sound, the gold programs do what
the cases say, the comparison is strict where it should be, and (run on its own with ``-k accuracy``)
the front end reaches the target accuracy with the parser path.

    python -m pytest tests/language -k "not accuracy"   # the benchmark itself
    python -m pytest tests/language -k accuracy         # the parser against it (target >= 0.90)
    python -m pyagent.language.evaluate --verbose       # the full report
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from gold_checks import check_gold_case

from pyagent.language import evaluate as ev

CASES = ev.load_cases()
TARGET = 0.90


@pytest.fixture(scope="module")
def sessions() -> ev.Sessions:
    return ev.Sessions(use_llm=False)


# ---- the data -----------------------------------------------------------------------------------
def test_enough_cases_balanced_over_categories_difficulties_and_files() -> None:
    assert len(CASES) >= 150
    cats = Counter(c.category for c in CASES)
    for cat in ev.CATEGORIES:
        assert 0.28 <= cats[cat] / len(CASES) <= 0.39, cats
    cells = Counter((c.category, c.difficulty) for c in CASES)
    for cat in ev.CATEGORIES:
        for diff in ev.DIFFICULTIES:
            assert cells[(cat, diff)] >= 25, cells
    files = Counter(c.ifc for c in CASES)
    assert set(files) == set(ev.FILES) and min(files.values()) >= 40, files
    assert len({c.say.lower() for c in CASES}) >= 0.8 * len(CASES), "too many repeated utterances"


def test_case_file_rejects_bad_cases(tmp_path) -> None:
    good = json.loads(ev.DEFAULT_CASES.read_text(encoding="utf-8").splitlines()[0])
    path = tmp_path / "cases.jsonl"
    for bad in ({**good, "category": "other"}, {**good, "check": "maybe"}, {**good, "pose": {"yaw": 3}},
                {**good, "setup": [{"say": "hide it"}]}, {**good, "extra": 1}):
        path.write_text(json.dumps(bad) + "\n", encoding="utf-8")
        with pytest.raises(ValueError):
            ev.load_cases(path)
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="duplicate"):
        ev.load_cases(path)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gold_program_is_valid_and_runs_as_expected(case: ev.Case, sessions: ev.Sessions) -> None:
    check_gold_case(case, sessions)


# ---- the comparison -----------------------------------------------------------------------------
def test_values_compare_by_contract(sessions: ev.Sessions) -> None:
    b = sessions.fresh("AC20-FZK-Haus.ifc").building
    door = next(e for e in b.elements.values() if e.name == "Haustuer")
    kitchen = next(e for e in b.elements.values() if e.long_name == "Küche")
    assert ev.values_equal(9, 9, b) and not ev.values_equal(9, 10, b)
    assert not ev.values_equal(1949, 1950, b), "counts are exact"
    assert ev.values_equal(2.01, 2.025, b) and not ev.values_equal(2.01, 2.05, b)
    assert ev.values_equal(100.0, 100.9, b) and not ev.values_equal(100.0, 101.5, b)
    assert ev.values_equal(True, True, b) and not ev.values_equal(True, 1, b)
    assert ev.values_equal("küche", "Küche", b)
    assert ev.values_equal([door.id, kitchen.id], [kitchen.id, door.id], b)
    assert not ev.values_equal([door.id, kitchen.id], [door.id], b)
    assert ev.values_equal([door.id], ["Haustuer"], b), "an id and the element's name are the same answer"
    assert ev.values_equal(kitchen.id, "Küche", b)
    assert ev.values_equal([1.2, 2.0], [2.0, 1.2], b)
    assert not ev.values_equal(None, 0, b) and ev.values_equal(None, None, b)


def test_colours_match_as_people_name_them() -> None:
    red, green, light_grey = [1, 0, 0, 1], [0, 0.6, 0, 1], [0.8, 0.8, 0.8, 1]
    assert ev.colors_match(red, [0.85, 0.1, 0.1, 1])
    assert ev.colors_match(green, [0, 1, 0, 1]) and ev.colors_match(green, [0.13, 0.55, 0.13, 1])
    assert not ev.colors_match(red, [1, 0.5, 0, 1]), "orange is not red"
    assert ev.colors_match(light_grey, [0.75, 0.75, 0.75, 1])
    assert not ev.colors_match(light_grey, [1, 1, 1, 1]) and not ev.colors_match(light_grey, [0.5, 0.5, 0.5, 1])
    assert not ev.colors_match([0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 1.0]), "transparency counts"


def test_states_compare_within_tolerances() -> None:
    pose = {"position": [1.0, 2.0, 1.6], "yaw": 90.0, "pitch": 0.0}
    base = {"hidden": ["a"], "colors": {}, "transforms": {}, "deleted": [], "selected": [], "props": [],
            "pose": pose}
    assert ev.state_diff(base, dict(base)) == []
    assert ev.state_diff(base, {**base, "hidden": ["a", "b"]})
    moved = {"x": {"translation": [0.5, 0.0, 0.0], "rotation_deg": [0.0, 0.0, 90.0]}}
    assert ev.state_diff({**base, "transforms": moved},
                         {**base, "transforms": {"x": {"translation": [0.51, 0.0, 0.0],
                                                       "rotation_deg": [0.0, 0.0, 90.4]}}}) == []
    assert ev.state_diff({**base, "transforms": moved},
                         {**base, "transforms": {"x": {"translation": [0.0, 0.5, 0.0],
                                                       "rotation_deg": [0.0, 0.0, 90.0]}}})
    prop = {"id": "p1", "asset": "sofa", "position": [3.0, 3.0, 0.0], "yaw": 0.0}
    nearby = {**prop, "id": "q", "position": [3.3, 3.2, 0]}
    assert ev.state_diff({**base, "props": [prop]}, {**base, "props": [nearby]}) == []
    assert ev.state_diff({**base, "props": [prop]}, {**base, "props": [{**prop, "asset": "chair"}]})
    assert ev.state_diff(base, {**base, "pose": {**pose, "position": [1.2, 2.1, 1.6], "yaw": 95.0}}) == []
    assert ev.state_diff(base, {**base, "pose": {**pose, "yaw": 120.0}})
    assert ev.state_diff(base, {**base, "pose": {**pose, "position": [2.0, 2.0, 1.6]}})


def test_refusals_and_wrong_outcomes_are_judged(sessions: ev.Sessions) -> None:
    by_id = {c.id: c for c in CASES}
    count_case = by_id["fzk-g01"]  # how many windows on the ground floor: 9
    session = sessions.fresh(count_case.ifc)
    gold = ev.run_case(sessions, count_case, gold=True)
    assert ev.compare(count_case, gold, gold, session)[0]
    wrong = ev.Outcome(True, 11, gold.state, gold.before)
    assert not ev.compare(count_case, gold, wrong, session)[0]
    refused = ev.Outcome(False, None, gold.state, gold.before, error="did not understand")
    assert not ev.compare(count_case, gold, refused, session)[0]
    fail_case = next(c for c in CASES if c.check == "fail")
    fail_session = sessions.fresh(fail_case.ifc)
    fail_gold = ev.run_case(sessions, fail_case, gold=True)
    assert ev.compare(fail_case, fail_gold, fail_gold, fail_session)[0]
    did_it = ev.Outcome(True, None, fail_gold.state, fail_gold.before)
    assert not ev.compare(fail_case, fail_gold, did_it, fail_session)[0]
    changed = ev.Outcome(False, None, {**fail_gold.before, "hidden": ["x"]}, fail_gold.before)
    assert not ev.compare(fail_case, fail_gold, changed, fail_session)[0], "a refusal must change nothing"
    crashed = ev.Outcome(False, None, fail_gold.before, fail_gold.before, crashed="KeyError: 'x'")
    assert not ev.compare(fail_case, fail_gold, crashed, fail_session)[0], "a crash is not a refusal"


def test_teleports_can_be_judged_by_room(sessions: ev.Sessions) -> None:
    case = next(c for c in CASES if c.id == "dup-c11")  # take me to the kitchen (of this unit)
    session = sessions.fresh(case.ifc)
    gold = ev.run_case(sessions, case, gold=True)
    place = ev.place_of(session)
    elsewhere_in_kitchen = json.loads(json.dumps(gold.state))
    elsewhere_in_kitchen["pose"]["position"][0] += 1.0
    assert ev.state_diff(gold.state, elsewhere_in_kitchen, place) == []
    other_unit = json.loads(json.dumps(gold.state))
    other_unit["pose"]["position"] = [3.3, -11.5, 1.61]  # the other unit's kitchen, same name
    assert ev.state_diff(gold.state, other_unit, place)


def test_report_command_prints_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert ev.main(["--file", "duplex", "--id", "dup-g01", "--id", "dup-c01", "--verbose"]) == 0
    out = capsys.readouterr().out
    for word in ("change", "general", "spatial", "easy", "hard", "duplex.ifc", "p95", "OVERALL"):
        assert word in out


# ---- the front end against the benchmark (run alone with -k accuracy) ---------------------------
def test_parser_accuracy(sessions: ev.Sessions) -> None:
    report = ev.evaluate(CASES, sessions)
    text = ev.format_report(report, verbose=True)
    print(text)
    assert report.accuracy >= TARGET, text[-4000:]
