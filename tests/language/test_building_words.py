from pathlib import Path

from pyagent.language.building_words import building_words, normalise, unknown_word_reply

IFC = Path(__file__).resolve().parents[2] / "ifc"


def test_normalise_splits_and_expands() -> None:
    assert normalise("MECH_RM 1.02") == ["mechanical", "room"]
    assert normalise("StairFlight") == ["stair", "flight"]
    assert normalise("Küche") == ["kuche"]


def test_duplex_vocabulary_from_data() -> None:
    words = building_words(IFC / "duplex.ifc").words
    assert "door" in words and "wall" in words
    assert "type" in words["door"]


def test_german_building_gets_english_words() -> None:
    words = building_words(IFC / "AC20-FZK-Haus.ifc").words
    assert any(source.startswith("glossary:") for sources in words.values() for source in sources)


def test_unknown_word_names_closest() -> None:
    vocab = building_words(IFC / "duplex.ifc")
    assert unknown_word_reply("door", vocab) is None
    reply = unknown_word_reply("doors", vocab)
    assert reply is not None and reply.startswith("There is no 'doors' here; the closest are: ")
    assert "door?" in reply
