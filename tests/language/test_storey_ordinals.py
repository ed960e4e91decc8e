from pyagent.language.storey_ordinals import resolve_storey, storey_number
from pyagent.model import Storey

NAMED = [Storey("a", "Level 1", 0.0), Storey("b", "Level 2", 3.0), Storey("c", "Roof", 6.0)]
UNNAMED = [Storey("u", "Cellar", -3.0), Storey("g", "Main", 0.0), Storey("o", "Upper", 3.0)]
# A ground storey named as such ("Erdgeschoss", "EG"): its floors are counted the European way.
GROUND_NAMED = [Storey("u", "Keller", -3.0), Storey("g", "EG", 0.0), Storey("o", "OG", 3.0), Storey("d", "DG", 6.0)]


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


def test_a_ground_storey_named_so_is_not_the_first_floor() -> None:
    first = resolve_storey("first floor", GROUND_NAMED)
    second = resolve_storey("the second floor", GROUND_NAMED)
    assert first is not None and first.id == "o"
    assert second is not None and second.id == "d"
    ground = resolve_storey("floor zero", GROUND_NAMED)
    assert ground is not None and ground.id == "g"


def test_an_identifier_as_a_name_numbers_nothing() -> None:
    """ArchiCAD writes identifiers as storeys' long names ("ACID00000001-0000-..."): their digits are no number."""
    storeys = [Storey("g", "Erdgeschoss", 0.0, long_name="ACID00000001-0000-0000-0000-000000000000"),
               Storey("d", "Dachgeschoss", 2.7, long_name="ACID00000002-0000-0000-0000-000000000000")]
    first = resolve_storey("first floor", storeys)
    assert first is not None and first.id == "d"
