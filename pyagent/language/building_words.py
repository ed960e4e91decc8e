"""Vocabulary of a building derived from its IFC data (names, types, materials), normalised.

Run ``python -m pyagent.language.building_words FILE`` to print it for review.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import yaml
from rapidfuzz import fuzz, process

if TYPE_CHECKING:
    from pyagent.model import Building

_DATA = Path(__file__).parent / "data"
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_SPLIT = re.compile(r"[\s_\-/.,:;()]+")


def _load(name: str) -> dict[str, str]:
    with (_DATA / name).open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    return {str(k).lower(): str(v).lower() for k, v in data.items()}


ABBREVIATIONS = _load("abbreviations.yaml")
GLOSSARY = _load("glossary.yaml")
PROPERTY_WORDS = _load("property_words.yaml")


def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_TRANSLATIONS = {
    **{en: _fold(de) for en, de in GLOSSARY.items()},
    **{_fold(de): en for en, de in GLOSSARY.items()},
}


def normalise(text: str) -> list[str]:
    """Words of ``text``: CamelCase and ``_`` split, lower case, umlauts folded, abbreviations expanded."""
    spaced = _CAMEL.sub(" ", text)
    words: list[str] = []
    for raw in _SPLIT.split(spaced):
        word = _fold(raw)
        if not word or word.isdigit():
            continue
        words.append(ABBREVIATIONS.get(word, word))
    return words


@dataclass
class BuildingWords:
    """Words of one building, each mapped to the sources it came from."""

    words: dict[str, set[str]] = field(default_factory=dict)

    def add(self, text: object, source: str) -> None:
        if not isinstance(text, str) or not text.strip():
            return
        for word in normalise(text):
            self.words.setdefault(word, set()).add(source)
            other = _TRANSLATIONS.get(word)
            if other:
                self.words.setdefault(other, set()).add(f"glossary:{word}")


def closest(word: str, choices: list[str], limit: int = 3) -> list[str]:
    """The ``limit`` choices nearest to ``word`` in spelling (rapidfuzz WRatio on folded words); words of
    fewer than three letters (a drawing's "m", "b") are no suggestion."""
    folded = {_fold(c): c for c in choices if len(c) >= 3}
    matches = process.extract(_fold(word), list(folded), scorer=fuzz.WRatio, limit=limit)
    return [folded[name] for name, _score, _index in matches]


def unknown_word_reply(word: str, vocab: BuildingWords, limit: int = 3) -> str | None:
    """None when ``word`` is in the building; else a reply naming the closest words it has."""
    key = _fold(word)
    if key in vocab.words:
        return None
    matches = closest(key, list(vocab.words), limit)
    if not matches:
        return f"There is no '{word}' here."
    return f"There is no '{word}' here; the closest are: {', '.join(f'{name}?' for name in matches)}"


def from_building(b: Building) -> BuildingWords:
    """The vocabulary of a loaded building (``model.Building``): names, types, classes, materials and
    property names of its elements and storeys."""
    from pyagent.vocabulary import class_name_words

    texts: set[tuple[str, str]] = set()
    for el in b.elements.values():
        texts.update((getattr(el, attr, ""), attr) for attr in ("name", "long_name", "object_type", "type_name"))
        texts.add((class_name_words(el.ifc_class), "type"))
        texts.update((material, "material") for material in el.materials)
        texts.update((key.rsplit(".", 1)[-1], "property") for key in el.properties)
    for st in b.storeys:
        texts.update(((st.name, "storey"), (st.long_name, "storey")))
    result = BuildingWords()
    for text, source in sorted(texts):
        result.add(text, source)
    return result


def building_words(path: Path) -> BuildingWords:
    """Read ``path`` with ifcopenshell and collect its vocabulary."""
    import ifcopenshell

    model = ifcopenshell.open(str(path))
    result = BuildingWords()
    for element in model.by_type("IfcObjectDefinition"):
        for attr in ("Name", "LongName", "ObjectType", "PredefinedType"):
            result.add(getattr(element, attr, None), attr)
        result.add(element.is_a()[3:], "type")
    for material in model.by_type("IfcMaterial"):
        result.add(material.Name, "material")
    for ref in model.by_type("IfcClassificationReference"):
        result.add(getattr(ref, "Name", None), "classification")
    return result


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m pyagent.language.building_words FILE", file=sys.stderr)
        return 2
    vocab = building_words(Path(argv[0]))
    for word in sorted(vocab.words):
        print(f"{word}\t{', '.join(sorted(vocab.words[word]))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
