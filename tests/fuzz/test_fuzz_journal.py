"""Damaged journals: whatever happens to the file (flipped bits, zeroed blocks, cut short), opening it
never fails, restores a state that was acknowledged, and says so whenever an acknowledged change is not
restored (the damaged file is kept aside). Only a file cut short may go without a word: a cut at a line
end looks like a journal that ended there, and a cut inside the last line like a write that never
completed (so it was never acknowledged)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fuzz_session import fresh_session
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from persist_helpers import element_ids

from pyagent.journal import JOURNAL_FILE


def key(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True)


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, list[str]]:
    """A journal of ten changes and the state after each (the first: before any)."""
    folder = tmp_path_factory.mktemp("journal")
    s = fresh_session()
    s.persistence.open_journal(folder)
    walls = element_ids(s.building, "IfcWall")
    states = [key(s.state())]
    for i in range(10):
        step = {"op": "hide", "target": {"ids": walls[i:i + 1]}} if i % 2 == 0 else \
            {"op": "color", "target": {"ids": walls[i:i + 1]}, "rgba": [i / 10, 0, 0, 1]}
        assert s.do({"steps": [step]}).ok
        states.append(key(s.state()))
    s.close()
    return (folder / JOURNAL_FILE).read_bytes(), states


damage = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(0, 7)),
    st.tuples(st.just("zero"), st.integers(0, 10**6), st.integers(1, 4096)),
    st.tuples(st.just("cut"), st.integers(0, 10**6), st.just(0)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hurt=damage)
def test_damage_is_never_silent(journal: tuple[bytes, list[str]], tmp_path_factory: pytest.TempPathFactory,
                                hurt: tuple[str, int, int]) -> None:
    data, states = journal
    kind, where, amount = hurt
    where %= len(data)
    buf = bytearray(data)
    if kind == "flip":
        buf[where] ^= 1 << amount
    elif kind == "zero":
        buf[where:where + amount] = b"\x00" * len(buf[where:where + amount])
    else:
        del buf[where:]
    folder = tmp_path_factory.mktemp("hurt")
    (folder / JOURNAL_FILE).write_bytes(bytes(buf))
    s = fresh_session()
    report = s.persistence.open_journal(folder)  # never raises on damage
    restored = key(s.state())
    assert restored in states  # an acknowledged state, never a mixture
    if restored != states[-1] and kind != "cut":  # a file cut short at a line end cannot be told apart
        assert report.problems and report.set_aside, (hurt, report.summary())
    s.close()
