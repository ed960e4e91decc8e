"""Everyday requests from templates in data (pyagent/language/core_intents.py + data/core_intents.yaml):
every sample sentence listed in the data parses, through the whole front end, to its program, and is
answered by the template of its intent; clauses whose noun phrase means nothing here are left to the
general parser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pyagent.language import core_intents
from pyagent.language.dialogue import Dialogue
from pyagent.language.parser import ParseContext, normalise
from pyagent.session import Session

IFC = Path(__file__).resolve().parents[2] / "ifc"
BUILDING, SAMPLES = core_intents.samples()


@pytest.fixture(scope="module")
def house() -> Session:
    return Session.open(IFC / BUILDING)


def fresh(house: Session) -> Session:
    return Session(house.loaded, house.graph, house.spatial)


def test_every_intent_has_samples_and_sentences() -> None:
    listed = {name for name, _ in core_intents.sentences()}
    sampled = {intent for intent, _, _ in SAMPLES}
    assert listed == sampled  # each template intent carries at least one sample, and no sample names a stray one
    assert all("{" not in text or "}" in text for _, text in core_intents.sentences())


@pytest.mark.parametrize(("intent", "say", "program"), SAMPLES, ids=[f"{i}:{s}" for i, s, _ in SAMPLES])
def test_sample_parses_to_its_program(house: Session, intent: str, say: str, program: dict[str, Any]) -> None:
    session = fresh(house)
    result = session.say(say)
    assert result.program == program, result.answer
    assert result.ok or not (result.error or "").startswith("invalid program"), result.error  # undo: nothing to undo
    assert session.front_end().core.heard[intent] >= 1  # the template answered, not the general parser


@pytest.mark.parametrize("say", ["take me to the moon", "hide the unicorns", "paint the xyzzy red",
                                 "show me the way to the kitchen", "hide the doors and the windows"])
def test_noun_phrases_that_mean_nothing_or_read_otherwise_fall_through(house: Session, say: str) -> None:
    session = fresh(house)
    front = session.front_end()
    ctx = ParseContext(session.view(), Dialogue(), say)
    assert front.core.clause(normalise(say), ctx, []) is None


def test_try_and_list_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert core_intents.main(["--try", "paint the walls light green", "--ifc", str(IFC / BUILDING)]) == 0
    out = capsys.readouterr().out
    assert "Color" in out and "'color': 'light green'" in out and "'op': 'color'" in out
    assert core_intents.main(["--list"]) == 0
    out = capsys.readouterr().out
    assert "Teleport\ttake me to {target}" in out
