"""Answers as plain sentences for a reviewer: names said as the building has them, with their
everyday meaning when known ("Küche (kitchen)"), and no catalogue numbers in material names
("Leichtbeton 102890359" -> "Leichtbeton (lightweight concrete)"). The meanings are data
(``wording.json``), as are the names of changes in undo/redo answers."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pyagent.model import Building

WORDING_FILE = Path(__file__).with_name("wording.json")
# A trailing catalogue or database number on a material name ("Leichtbeton 102890359").
_CATALOGUE_NUMBER = re.compile(r"[\s_-]+\d{5,}$")
_WORD_SPLIT = re.compile(r"[\s/+&,_-]+")


@lru_cache(maxsize=1)
def _wording() -> dict[str, dict[str, str]]:
    return dict(json.loads(WORDING_FILE.read_text(encoding="utf-8")))


def meanings() -> dict[str, str]:
    """Lower-case word -> everyday English meaning."""
    return _wording()["words"]


def change_words(label: str) -> str:
    """An undo/redo label ("color, select") in words ("painting and the selection")."""
    table = _wording()["changes"]
    words: list[str] = []
    for op in (part.strip() for part in label.split(",")):
        word = table.get(op, op.replace("_", " "))
        if word not in words:
            words.append(word)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def plain_material(name: str) -> str:
    """A material name without a trailing catalogue number."""
    return _CATALOGUE_NUMBER.sub("", name.strip()) or name.strip()


def meaning_of(name: str) -> str | None:
    """The everyday English meaning of a name made of known words ("Wohnen/Essen" -> "living,
    dining"), or None when a word is unknown or the name is already English."""
    words = [w for w in _WORD_SPLIT.split(plain_material(name).lower()) if w]
    if not words:
        return None
    table = meanings()
    if not all(w in table for w in words):
        return None
    meaning = ", ".join(table[w] for w in words)
    return None if meaning == " ".join(words) else meaning


def glossed(name: str, material: bool = False) -> str:
    """``name`` followed by its meaning when known: "Küche (kitchen)"; a material's name also
    loses its catalogue number."""
    plain = plain_material(name) if material else name
    meaning = meaning_of(plain)
    return f"{plain} ({meaning})" if meaning else plain


@dataclass(frozen=True)
class Glossary:
    """The names of one building that answers should say with their meaning (rooms, storeys,
    materials), longest first so a name inside a longer one is not glossed twice."""

    names: tuple[tuple[str, str], ...]  # (as in the file, as said)

    @staticmethod
    def of(building: Building) -> Glossary:
        found: dict[str, str] = {}
        candidates = [(s.name, False) for s in building.storeys]
        for el in building.elements.values():
            if el.ifc_class == "IfcSpace":
                candidates += [(el.long_name, False), (el.name, False)]
            candidates += [(m, True) for m in el.materials]
        for name, material in candidates:
            if not name or name in found:
                continue
            said = glossed(name, material)
            if said != name:
                found[name] = said
        return Glossary(tuple(sorted(found.items(), key=lambda kv: -len(kv[0]))))

    def explain(self, text: str) -> str:
        """``text`` with each known name glossed at its first mention (later mentions as they are)."""
        taken: list[tuple[int, int]] = []
        edits: list[tuple[int, int, str]] = []
        for name, said in self.names:
            for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
                if any(a < m.end() and m.start() < b for a, b in taken):
                    continue
                taken.append((m.start(), m.end()))
                first = not any(s == said for _, _, s in edits)
                edits.append((m.start(), m.end(), said if first else said.split(" (")[0]))
        for start, end, said in sorted(edits, reverse=True):
            text = text[:start] + said + text[end:]
        return text
