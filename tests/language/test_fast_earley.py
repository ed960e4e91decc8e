"""fast_earley: the noun-phrase grammar's Earley parser with each column's predictions made once gives the very
trees Lark's own predictor gives, for the shapes of every grammar sample read in a real building and for random
token sequences (accepted and refused alike), and it is used by the parser the front end reads with."""

from __future__ import annotations

import random
from typing import Any

import pytest
from lark import Lark
from lark.exceptions import LarkError

from pyagent.language import fast_earley
from pyagent.language.noun_phrase import GRAMMAR, grammar
from pyagent.language.noun_phrase_tokens import NPToken

TERMINALS = sorted({name for line in GRAMMAR.read_text(encoding="utf-8").splitlines() if line.startswith("%declare")
                    for name in line.split()[1:]})


def _parse(lark: Lark, shape: tuple[str, ...]) -> Any:  # noqa: ANN401 - a tree or the refusal's class
    try:
        return lark.parse([NPToken(t, t) for t in shape])  # type: ignore[arg-type]  # the lexer takes these
    except LarkError as error:
        return type(error).__name__


@pytest.fixture(scope="module")
def both() -> tuple[Lark, Lark]:
    return grammar(fast=False), grammar()


@pytest.fixture(scope="module")
def sample_shapes() -> list[tuple[str, ...]]:
    return fast_earley.sample_shapes()


def test_the_front_end_reads_with_the_fast_parser() -> None:
    inner = fast_earley.earley_parser(grammar())
    assert inner is not None and hasattr(inner, "_np_closures")
    assert fast_earley.earley_parser(grammar(fast=False)) is not None
    assert not hasattr(fast_earley.earley_parser(grammar(fast=False)), "_np_closures")


def test_same_trees_for_every_sample_shape(both: tuple[Lark, Lark], sample_shapes: list[tuple[str, ...]]) -> None:
    stock, fast = both
    assert len(sample_shapes) > 40
    parsed = 0
    for shape in sample_shapes:
        expected = _parse(stock, shape)
        assert _parse(fast, shape) == expected, shape
        parsed += not isinstance(expected, str)
    assert parsed > 40  # most sample phrases are grammatical: the comparison is of real trees


def test_same_trees_and_refusals_for_random_sequences(both: tuple[Lark, Lark],
                                                      sample_shapes: list[tuple[str, ...]]) -> None:
    stock, fast = both
    rng = random.Random(20261127)
    shapes = [tuple(rng.choice(TERMINALS) for _ in range(rng.randint(1, 9))) for _ in range(300)]
    # Samples with one token changed, dropped or doubled: near-grammatical sequences, where ambiguity lives.
    for shape in sample_shapes * 2:
        at = rng.randrange(len(shape))
        shapes.append(shape[:at] + (rng.choice(TERMINALS),) + shape[at + 1:])
        shapes.append(shape[:at] + shape[at + 1:])
        shapes.append(shape[:at + 1] + shape[at:])
    accepted = 0
    for shape in shapes:
        if not shape:
            continue
        expected = _parse(stock, shape)
        assert _parse(fast, shape) == expected, shape
        accepted += not isinstance(expected, str)
    assert accepted > 50


def test_an_unknown_parser_shape_is_left_alone() -> None:
    lalr = Lark("start: \"a\"+", parser="lalr")
    assert fast_earley.earley_parser(lalr) is None
    assert not fast_earley.speed_up(lalr)
    assert lalr.parse("aaa").data == "start"
