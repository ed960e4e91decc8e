"""Numbers in words (text2num), units (pint) and plurals (lemminflect) as the parser reads them."""

from __future__ import annotations

import pytest

from pyagent.language.parser import normalise
from pyagent.language.spoken_numbers import digits, number_in, ordinal
from pyagent.language.storey_ordinals import resolve_storey
from pyagent.language.units import length_units, metres
from pyagent.model import Storey
from pyagent.vocabulary import CLASS_WORDS, KIND_WORDS, plural, plural_noun, singular_noun


@pytest.mark.parametrize(("said", "written"), [
    ("hide two doors", "hide 2 doors"),
    ("count the twenty one walls", "count the 21 walls"),
    ("within eight hundred and fifty mm", "within 850 mm"),
    ("move it zero point five meters", "move it 0.5 meters"),
    ("the third window", "the third window"),  # ordinals stay words: the parser reads them
    ("first , hide the two doors", "first , hide the 2 doors"),
    ("this one , the one on the left", "this one , the one on the left"),  # a lone "one" is a pronoun
])
def test_cardinal_words_become_digits(said: str, written: str) -> None:
    assert digits(said) == written


def test_ordinals_and_german_numbers() -> None:
    assert [ordinal(t) for t in ("the third door", "2nd window", "north wall", "the twentieth")] == [3, 2, None, 20]
    assert number_in("Zweites Obergeschoss") is None
    assert number_in("Zweites Obergeschoss", ("en", "de")) == 2
    assert number_in("Level Two", ("en", "de")) == 2
    storeys = [Storey("e", "Erdgeschoss", 0.0), Storey("o1", "Erstes Obergeschoss", 3.0),
               Storey("o2", "Zweites Obergeschoss", 6.0)]
    found = resolve_storey("level two", storeys)
    assert found is not None and found.id == "o2"  # the name carries the number, in German words


@pytest.mark.parametrize(("said", "written"), [
    ("move the door two and a half meters left", "move the door 2.5 meters left"),
    ("move it one meter up", "move it 1 meter up"),
    ("rotate it a quarter turn", "rotate it 90 degrees"),
    ("move it half a meter", "move it 0.5 meter"),
])
def test_normalise_reads_amounts(said: str, written: str) -> None:
    assert normalise(said) == written


def test_length_units_come_from_pint() -> None:
    units = length_units()
    assert units["m"] == units["metres"] == units["meter"] == 1.0
    assert units["cm"] == units["centimetres"] == 0.01 and units["mm"] == 0.001
    assert units["ft"] == units["feet"] == units["foot"] == 0.3048
    assert units["in"] == units["inches"] == 0.0254
    assert metres(3, "yard") == pytest.approx(2.7432)
    assert metres(2, "doors") is None


def test_plurals_and_singulars() -> None:
    assert plural("door", 1) == "door" and plural("door", 2) == "doors"
    assert plural_noun("shelf") == "shelves" and plural_noun("shading device") == "shading devices"
    assert plural_noun("furniture") == "furniture" and plural_noun("steps") == "steps"
    assert plural_noun("chest of drawers") == "chests of drawers"
    assert [singular_noun(w) for w in ("doors", "shelves", "stairs", "glass", "this")] == [
        "door", "shelf", "stair", "glass", "this"]
    # Every everyday noun comes back from its plural (the parser reads both).
    for word in sorted(set(CLASS_WORDS) | set(KIND_WORDS) | {w for ws in KIND_WORDS.values() for w in ws}):
        assert singular_noun(plural_noun(word)) == word or plural_noun(word) == word, word


@pytest.mark.parametrize(("said", "written"), [
    ("what is the floor area of room a one oh two", "what is the floor area of room a 102"),
    ("take me to room two zero one", "take me to room 201"),
    ("room one point oh two", "room 1.02"),
    ("hide two three doors", "hide 2 3 doors"),  # no zero said: not a number said digit by digit
    ("move it one oh", "move it one oh"),
])
def test_numbers_said_digit_by_digit(said: str, written: str) -> None:
    assert normalise(said) == written
