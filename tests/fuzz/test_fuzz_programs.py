"""Property tests for the program validator and the executor: any input gets an answer, never an
exception; a program that fails changes nothing; one that succeeds leaves a valid state."""

from __future__ import annotations

import json
from typing import Any

from fuzz_session import IDS, STATE_OK, fresh_session, observable
from fuzz_strategies import SCHEMA, any_json, conforming, programs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyagent.actions.schema import schema_errors

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(any_json)
def test_the_validator_answers_anything_with_messages(value: Any) -> None:
    errors = schema_errors(value)
    assert isinstance(errors, list) and all(isinstance(e, str) and e for e in errors) and len(errors) <= 5
    if not isinstance(value, dict) or "steps" not in value:
        assert errors


@FUZZ
@given(conforming(SCHEMA, IDS))
def test_programs_made_from_the_schema_validate(program: Any) -> None:
    assert schema_errors(program) == [], program


@FUZZ
@given(st.one_of(programs(IDS), any_json))
def test_the_executor_never_raises_and_a_failure_changes_nothing(program: Any) -> None:
    s = fresh_session()
    s.do({"steps": [{"op": "hide", "target": {"ids": list(IDS[5:8])}}]})  # some history to protect
    before = observable(s)
    r = s.executor.run(program)
    assert isinstance(r.answer, str) and r.answer
    if not r.ok:
        assert r.error and observable(s)[:5] == before[:5]
        return
    state = s.state()
    assert not list(STATE_OK.iter_errors(state)), state
    json.dumps(state, allow_nan=False)
    json.dumps(r.value, allow_nan=False, default=float)


@FUZZ
@given(st.one_of(programs(IDS), any_json))
def test_a_session_answers_every_program_in_the_result_shape(program: Any) -> None:
    s = fresh_session()
    before = observable(s)
    out = s.do(program).to_json()
    assert set(out) == {"ok", "program", "answer", "value", "error"}
    assert (out["error"] is None) == out["ok"]
    if not out["ok"]:
        assert observable(s) == before


def nested(depth: int) -> dict[str, Any]:
    sel: dict[str, Any] = {"class": ["IfcWall"]}
    for _ in range(depth):
        sel = {"class": ["IfcWall"], "except": sel}
    return {"steps": [{"op": "hide", "target": sel}]}


def test_a_deeply_nested_program_is_refused_by_the_session() -> None:
    s = fresh_session()
    before = observable(s)
    r = s.do(nested(2000))
    assert not r.ok and "nested too deeply" in (r.error or "")
    assert observable(s) == before


def test_a_deeply_nested_program_is_refused_by_the_validator() -> None:
    assert schema_errors(nested(2000))
    r = fresh_session().executor.run(nested(2000))
    assert not r.ok
