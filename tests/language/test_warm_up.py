"""Warming the parser when a building opens: it parses the warm-up requests and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pyagent.language import front
from pyagent.session import Session

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def session() -> Session:
    s = Session.open(str(REPO / "ifc" / "AC20-FZK-Haus.ifc"))
    yield s
    s.close()


def test_warm_up_requests_are_data_and_all_parse(session: Session) -> None:
    texts = yaml.safe_load((REPO / "pyagent" / "language" / "data" / "warm_up.yaml").read_text())
    assert texts and all(isinstance(t, str) and t.strip() for t in texts)
    fe = front.FrontEnd(session, use_llm=False)
    for text in texts:  # a warm-up request the parser cannot read would warm nothing
        parsed = fe.parser.parse(text, session.view(), front.Dialogue())
        assert parsed.program is not None, text


def test_warming_changes_nothing_and_happens_once(session: Session) -> None:
    fe = front.FrontEnd(session, use_llm=False)
    before = session.state()
    r = session.say("hide the doors")
    assert r.ok
    hidden = session.state()
    remembered = vars(session.dialogue).copy()
    assert fe.warm_s is None
    took = fe.warm_parser()
    assert took > 0 and fe.warm_s == took
    assert fe.warm_parser() == took  # once per front end
    assert session.state() == hidden  # nothing ran: the doors stay hidden, nothing else changed
    assert vars(session.dialogue) == remembered  # the dialogue did not hear the warm-up
    assert session.say("undo").ok and session.state() == before  # undo still undoes the user's request


def test_warm_in_background_then_requests_work(session: Session) -> None:
    fe = front.FrontEnd(session, use_llm=False)
    thread = fe.warm_in_background()
    r = fe.handle(session, "how many doors are there")  # may run while warming: one parse at a time
    thread.join(timeout=60)
    assert not thread.is_alive() and fe.warm_s is not None
    assert r.ok and r.value == 5


def test_after_warming_a_first_request_compiles_no_phrasing_pattern(session: Session,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The phrasing data's lists (rewrites, politeness, fragments, asides) are compiled when the parser is warmed,
    not in a user's first request that reaches them."""
    from pyagent.language import phrasing

    lists = (phrasing._rewrites, phrasing._politeness, phrasing.fragments, phrasing._asides)
    for listed in lists:
        listed.cache_clear()
    monkeypatch.setattr(front, "_process_warmed", False)  # as in a new process
    fe = front.FrontEnd(session, use_llm=False)
    fe.warm_parser()
    for listed in lists:
        assert listed.cache_info().currsize == 1, listed.__name__
    assert phrasing.ready() > 900
