from pyagent.language.storey_ordinals import resolve_storey, storey_number
from pyagent.model import Storey

NAMED = [Storey("a", "Level 1", 0.0), Storey("b", "Level 2", 3.0), Storey("c", "Roof", 6.0)]
UNNAMED = [Storey("u", "Keller", -3.0), Storey("g", "EG", 0.0), Storey("o", "OG", 3.0)]


def test_numbers_in_words_and_digits() -> None:
    assert storey_number("level two") == 2
    assert storey_number("the second level") == 2
    assert storey_number("2F") == 2
    assert storey_number("zweites Geschoss", "de") == 2
    assert storey_number("the roof") is None


def test_named_storey_wins() -> None:
    for phrase in ("level two", "the second level", "2F", "second floor"):
        found = resolve_storey(phrase, NAMED)
        assert found is not None and found.id == "b"


def test_unnamed_counts_from_ground() -> None:
    first = resolve_storey("first floor", UNNAMED)
    second = resolve_storey("second floor", UNNAMED)
    assert first is not None and first.id == "g"
    assert second is not None and second.id == "o"
    assert resolve_storey("fifth floor", UNNAMED) is None
