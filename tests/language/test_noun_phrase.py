"""The noun-phrase grammar: every sample in ``data/noun_phrase_samples.yaml`` is read by the grammar (not the
pattern fallback) into the selector listed there; every rule of ``noun_phrase.lark`` has a sample; the
tagger's tokens come from the building's words and the closed-class data."""

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
LEFT: list[dict[str, Any]] = DATA["left_to_patterns"]


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
    # And the parser's own entry point gives the same (the grammar is what it uses first).
    assert parser.selector(normalise(sample["say"]), _ctx(parser, sample.get("user_room"))) == sample["selector"]


def _rules_in(tree: Tree[Any]) -> set[str]:
    return {str(t.data) for t in tree.iter_subtrees()}


def test_every_rule_of_the_grammar_has_a_sample(parser: Parser) -> None:
    text = GRAMMAR.read_text(encoding="utf-8")
    rules = set(re.findall(r"^(\w+):", text, flags=re.M)) | set(re.findall(r"->\s*(\w+)", text))
    rules -= {"np", "relation"}  # every np is headed or headless, every relation one of its three aliases
    seen: set[str] = set()
    for sample in SAMPLES + LEFT:
        tokens = parser.noun_phrases.tagger.tokens(normalise(sample["say"]))
        tree = _tree_of(tuple(t.type for t in tokens))
        assert tree is not None
        seen |= _rules_in(tree)
    assert rules - seen == set(), "rules without a sample"


@pytest.mark.parametrize("sample", LEFT, ids=[s["say"] for s in LEFT])
def test_what_the_grammar_leaves_to_the_patterns_is_parsed_but_not_decided(parser: Parser,
                                                                             sample: dict[str, Any]) -> None:
    phrase = parser.noun_phrases.read(normalise(sample["say"]))
    assert phrase is not None
    with pytest.raises(NotCovered):
        selector_of(phrase, parser, _ctx(parser))


def test_tokens_come_from_the_building_and_the_closed_class_data(parser: Parser) -> None:
    types = {t.text: t.type for t in parser.noun_phrases.tagger.tokens("the doors on the ground floor in the kitchen")}
    assert types == {"the": "ARTICLE", "doors": "CLASS", "on": "LOCATIVE", "ground floor": "STOREY",
                     "in": "LOCATIVE", "kitchen": "ROOM"}
    # The building's own storey and room names, in its language.
    kinds = [(t.type, t.text) for t in parser.noun_phrases.tagger.tokens("die küche im erdgeschoss")]
    assert ("ROOM", "küche") in kinds and ("STOREY", "erdgeschoss") in kinds
    assert [t.type for t in parser.noun_phrases.tagger.tokens("the gizmos")] == ["ARTICLE", "WORD"]


def test_what_the_grammar_does_not_cover_falls_back_to_the_patterns(parser: Parser) -> None:
    ctx = _ctx(parser)
    # An unknown word after the head: the grammar parses it but does not decide what it means.
    phrase = parser.noun_phrases.read("the doors lead somewhere")
    assert phrase is not None and phrase.words_after == ("lead", "somewhere")
    with pytest.raises(NotCovered):
        selector_of(phrase, parser, ctx)
    # A phrase of no known word at all names nothing: None, from either reading.
    assert parser.selector("the gizmos", ctx) is None


def test_a_relation_takes_its_own_noun_phrase_and_the_storey_stays_with_the_head(parser: Parser) -> None:
    sel = parser.selector(normalise("the window next to the kitchen door on the ground floor"), _ctx(parser))
    assert sel is not None
    assert sel["class"] == ["IfcWindow"] and sel["storey"] == "Erdgeschoss"
    anchor = sel["relations"][0]["of"]
    assert anchor["class"] == ["IfcDoor"] and anchor["relations"][0]["rel"] == "in"
