"""The front end's order: the parser first, the local LLM only when the parser does not understand."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pyagent.actions.schema import schema_errors

HAUS = Path(__file__).resolve().parents[2] / "ifc" / "AC20-FZK-Haus.ifc"


@pytest.fixture()
def session(tmp_path: Path):
    from pyagent.session import Session

    return Session.open(shutil.copy(HAUS, tmp_path / HAUS.name))


def test_parser_first_then_llm(session, tiny_model_dir: Path):
    from pyagent.language.front import FrontEnd

    front = FrontEnd(session, llm_dir=tiny_model_dir)
    parsed = front.handle(session, "how many windows are there")
    assert parsed.source == "parser" and parsed.ok and "llm" not in parsed.timings
    assert parsed.value == 11

    revision = session.revision
    fallback = front.handle(session, "blorp the frobnicator")
    assert fallback.source == "llm"
    assert fallback.timings["llm"] > 0
    assert fallback.program is not None and schema_errors(fallback.program) == []
    if not fallback.ok:
        assert fallback.error and session.revision == revision


def test_without_a_model_the_answer_names_the_fetch_command(session, tmp_path: Path):
    from pyagent.language.front import FrontEnd

    front = FrontEnd(session, llm_dir=tmp_path / "no-model")
    before = session.state()
    result = front.handle(session, "blorp the frobnicator")
    assert not result.ok and result.program is None
    assert "python -m pyagent models fetch llm-qwen2.5-0.5b" in result.error
    assert session.state() == before
