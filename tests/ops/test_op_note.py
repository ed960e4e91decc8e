"""``note``: a review note on the selected elements, stored once the program succeeded."""

from __future__ import annotations

from pathlib import Path

from ops_support import FZK, step

from pyagent.session import Session


def test_a_note_on_the_stair_is_kept(tmp_path: Path) -> None:
    s = Session.open(FZK, journal_dir=tmp_path / "j")
    stair = {"class": ["IfcStair"]}
    r = step(s, "note", text="the stair is too steep", target=stair)
    assert r.ok and r.answer == "Noted: the stair is too steep"
    topics = s.persistence.topics.topics
    assert len(topics) == 1 and topics[0].title.startswith("the stair is too steep")


def test_a_note_on_nothing_is_refused_and_not_kept(tmp_path: Path) -> None:
    s = Session.open(FZK, journal_dir=tmp_path / "j")
    r = step(s, "note", text="hello", target={"class": ["IfcRamp"]})
    assert not r.ok and s.persistence.topics.topics == []
