"""The scripted-session line parser under bad input: every line gets one JSON answer, a refused line
changes nothing, and a flood of lines neither loses changes nor grows memory."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fuzz_session import IDS, fresh_session, observable
from fuzz_strategies import any_json, programs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from persist_helpers import DEEP_JSON, FZK, MALFORMED, change_lines, copy_ifc

from pyagent.script import handle_line
from pyagent.session import Session

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

lines = st.one_of(
    st.text(max_size=200),
    any_json.map(json.dumps),
    st.builds(lambda k, v: json.dumps({k: v}), st.sampled_from(["pose", "say", "do", "select", "state", "x"]),
              any_json),
    programs(IDS).map(lambda p: json.dumps({"do": p})),
    st.builds(lambda p: json.dumps({"pose": p}), st.fixed_dictionaries(
        {"position": st.lists(st.floats(), min_size=0, max_size=4), "yaw": st.floats(), "pitch": st.floats()})),
    st.lists(st.sampled_from(list(IDS) + ["x", "", "../x"]), max_size=4).map(lambda ids: json.dumps({"select": ids})),
)


def check_answer(out: Any) -> None:
    assert isinstance(out, dict)
    json.dumps(out, allow_nan=False)  # always valid JSON for the other side


@FUZZ
@given(lines)
def test_every_line_gets_one_json_answer_and_a_refusal_changes_nothing(line: str) -> None:
    s = fresh_session()
    before = observable(s)
    out = handle_line(s, line)
    check_answer(out)
    if out.get("ok") is False:
        assert out.get("error"), out
        assert observable(s) == before


@pytest.mark.parametrize("line", MALFORMED)
def test_malformed_lines_are_refused_with_a_message(line: str) -> None:
    s = fresh_session()
    before = observable(s)
    out = handle_line(s, line)
    check_answer(out)
    assert out["ok"] is False and isinstance(out["error"], str) and out["error"]
    assert observable(s) == before


@pytest.mark.parametrize("line", DEEP_JSON)
def test_deeply_nested_json_lines_are_refused(line: str) -> None:
    s = fresh_session()
    out = handle_line(s, line)
    assert out["ok"] is False


def rss_kb() -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def test_a_flood_of_lines_loses_nothing_and_does_not_grow(tmp_path: Path) -> None:
    """1500 lines, a third malformed: each is answered; the state equals that of the valid lines alone
    (also after a restart), and memory after the flood is about what it was after a warm-up."""
    ifc = copy_ifc(FZK, tmp_path / "model")
    s = Session.open(ifc, journal_dir=tmp_path / "j", pose_interval_s=0.0)
    ref = Session.open(ifc)
    rng = random.Random(5)
    valid = [json.dumps(x) for x in change_lines(s.building, rng, 1000)]
    flood = valid + [rng.choice(MALFORMED) for _ in range(500)]
    rng.shuffle(flood)
    valid_set = set(valid)
    answered = 0
    warm = 0
    for i, line in enumerate(flood):
        check_answer(handle_line(s, line))
        answered += 1
        if line in valid_set:
            handle_line(ref, line)
        if i == 300:
            warm = rss_kb()
    grown_kb = rss_kb() - warm
    assert answered == len(flood)
    assert s.state() == ref.state()
    assert grown_kb < 64 * 1024, grown_kb  # the undo history is capped; nothing else accumulates
    s.close()
    assert Session.open(ifc, journal_dir=tmp_path / "j").state() == ref.state()
