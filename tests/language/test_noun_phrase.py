"""The noun-phrase grammar, the only reading of noun phrases: every sample in ``data/noun_phrase_samples.yaml``
is read into the selector listed there, and what the grammar parses but does not decide is refused (None),
never read with words dropped; every rule of ``noun_phrase.lark`` has a sample; the tagger's tokens come from
the building's words and the closed-class data."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from lark import Tree

from pyagent.language.dialogue import Dialogue
from pyagent.language.lexicon import Lexicon
from pyagent.language.noun_phrase import GRAMMAR, _tree_of
from pyagent.language.noun_phrase_selector import NotCovered, selector_of
from pyagent.language.parser import ParseContext, Parser, normalise
from pyagent.language.scene_view import StillScene
from pyagent.loader import load

REPO = Path(__file__).resolve().parents[2]
DATA = yaml.safe_load((REPO / "pyagent" / "language" / "data" / "noun_phrase_samples.yaml").read_text(encoding="utf-8"))
SAMPLES: list[dict[str, Any]] = DATA["samples"]
REFUSED: list[dict[str, Any]] = DATA["refused"]
BUILDINGS = REPO / "tests" / "language" / "buildings"


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser(Lexicon.build(load(str(REPO / DATA["building"])).building))


def _ctx(parser: Parser, room: str | None = None) -> ParseContext:
    return ParseContext(StillScene(storey=parser.building.ground_storey, room=room), Dialogue())


@pytest.mark.parametrize("sample", SAMPLES, ids=[f"{s['rule']}:{s['say']}" for s in SAMPLES])
def test_every_sample_is_read_by_the_grammar_into_its_selector(parser: Parser, sample: dict[str, Any]) -> None:
    phrase = parser.noun_phrases.read(normalise(sample["say"]))
    assert phrase is not None, f"the grammar does not parse {sample['say']!r}"
    got = selector_of(phrase, parser, _ctx(parser, sample.get("user_room")))
    assert got == sample["selector"]
    # And the parser's own entry point gives the same (the grammar is all it uses).
    assert parser.selector(normalise(sample["say"]), _ctx(parser, sample.get("user_room"))) == sample["selector"]


def _rules_in(tree: Tree[Any]) -> set[str]:
    return {str(t.data) for t in tree.iter_subtrees()}


def test_every_rule_of_the_grammar_has_a_sample(parser: Parser) -> None:
    text = GRAMMAR.read_text(encoding="utf-8")
    rules = set(re.findall(r"^(\w+):", text, flags=re.M)) | set(re.findall(r"->\s*(\w+)", text))
    rules -= {"np", "relation"}  # every np is headed or headless, every relation one of its three aliases
    seen: set[str] = set()
    for sample in SAMPLES + REFUSED:
        tokens = parser.noun_phrases.tagger.tokens(normalise(sample["say"]))
        tree = _tree_of(tuple(t.type for t in tokens))
        assert tree is not None
        seen |= _rules_in(tree)
    assert rules - seen == set(), "rules without a sample"


@pytest.mark.parametrize("sample", REFUSED, ids=[s["say"] for s in REFUSED])
def test_what_the_grammar_parses_but_does_not_decide_names_nothing(parser: Parser, sample: dict[str, Any]) -> None:
    phrase = parser.noun_phrases.read(normalise(sample["say"]))
    assert phrase is not None
    with pytest.raises(NotCovered):
        selector_of(phrase, parser, _ctx(parser))
    assert parser.selector(normalise(sample["say"]), _ctx(parser)) is None


def test_tokens_come_from_the_building_and_the_closed_class_data(parser: Parser) -> None:
    types = {t.text: t.type for t in parser.noun_phrases.tagger.tokens("the doors on the ground floor in the kitchen")}
    assert types == {"the": "ARTICLE", "doors": "CLASS", "on": "LOCATIVE", "ground floor": "STOREY",
                     "in": "LOCATIVE", "kitchen": "ROOM"}
    # The building's own storey and room names, in its language.
    kinds = [(t.type, t.text) for t in parser.noun_phrases.tagger.tokens("die küche im erdgeschoss")]
    assert ("ROOM", "küche") in kinds and ("STOREY", "erdgeschoss") in kinds
    assert [t.type for t in parser.noun_phrases.tagger.tokens("the gizmos")] == ["ARTICLE", "WORD"]


def test_what_the_grammar_does_not_cover_names_nothing(parser: Parser) -> None:
    ctx = _ctx(parser)
    # An unknown word after the head: the grammar parses it but does not decide what it means.
    phrase = parser.noun_phrases.read("the doors lead somewhere")
    assert phrase is not None and phrase.words_after == ("lead", "somewhere")
    assert parser.selector("the doors lead somewhere", ctx) is None
    # A phrase of no known word at all, or one the grammar does not parse, names nothing either.
    assert parser.selector("the gizmos", ctx) is None
    assert parser.noun_phrases.read("the doors next to") is None
    assert parser.selector("the doors next to", ctx) is None


def test_a_relation_takes_its_own_noun_phrase_and_the_storey_stays_with_the_head(parser: Parser) -> None:
    sel = parser.selector(normalise("the window next to the kitchen door on the ground floor"), _ctx(parser))
    assert sel is not None
    assert sel["class"] == ["IfcWindow"] and sel["storey"] == "Erdgeschoss"
    anchor = sel["relations"][0]["of"]
    assert anchor["class"] == ["IfcDoor"] and anchor["relations"][0]["rel"] == "in"


def test_a_size_word_picks_among_rooms_of_one_name() -> None:
    duplex = Parser(Lexicon.build(load(str(REPO / "ifc" / "duplex.ifc")).building))
    ctx = _ctx(duplex)
    small = duplex.selector("the small bedroom", ctx)
    assert small is not None and small["order"] == "smallest" and small["limit"] == 1 and len(small["ids"]) == 4
    big = duplex.selector("the windows in the big kitchen", ctx)
    assert big is not None and big["class"] == ["IfcWindow"]
    assert big["relations"][0]["of"]["order"] == "largest" and len(big["relations"][0]["of"]["ids"]) == 2


def test_two_room_words_joined_by_to_or_of_name_the_room_both_match() -> None:
    lab = Parser(Lexicon.build(load(str(BUILDINGS / "revit2017fra_rue-marc-antoine-petit.ifc")).building))
    ctx = _ctx(lab)
    entry = next(s.id for s in lab.building.spaces() if s.long_name == "ENTREE LOGEMENTS")
    # "entrance" is a door noun and a word of the foyers (two here); "flats" names the dwellings' rooms.
    tokens = lab.noun_phrases.tagger.tokens("the windows in the entrance to the flats")
    assert [t.type for t in tokens] == ["ARTICLE", "CLASS", "LOCATIVE", "ARTICLE", "ROOM"]
    sel = lab.selector("the windows in the entrance to the flats", ctx)
    assert sel == {"class": ["IfcWindow"], "relations": [{"rel": "in", "of": {"class": ["IfcSpace"], "ids": [entry]}}]}
    # Words that name no room together stay apart (and here name nothing).
    assert lab.selector("the entrance to the bacteriology lab", ctx) is None
