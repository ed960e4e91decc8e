"""Storeys addressed by number: "level two", "the second level", "2F", "second floor", "2. Geschoss"."""

from __future__ import annotations

import re

from text_to_num import alpha2digit

from pyagent.ingest import ground_storey
from pyagent.model import Storey

_NUMBER = re.compile(r"(?<![\d.])(\d+)(?:st|nd|rd|th|\.|f)?(?![\d.])", re.IGNORECASE)


def storey_number(phrase: str, language: str = "en") -> int | None:
    """The number in ``phrase`` (words or digits, ordinal or cardinal), or None."""
    digits = alpha2digit(phrase, language, threshold=0)
    found = _NUMBER.search(digits)
    return int(found.group(1)) if found else None


def resolve_storey(phrase: str, storeys: list[Storey], language: str = "en") -> Storey | None:
    """The storey ``phrase`` names: one whose name carries that number ("Level 2") first; otherwise
    the Nth storey by elevation counting the ground storey (``ingest.ground_storey``) as the first."""
    number = storey_number(phrase, language)
    if number is None or not storeys:
        return None
    for storey in storeys:
        names = (storey.name, storey.long_name)
        if any(storey_number(name, language) == number for name in names if name):
            return storey
    ordered = sorted(storeys, key=lambda st: st.elevation)
    ground = ground_storey(ordered)
    base = next(i for i, st in enumerate(ordered) if st.id == ground)
    target = base + number - 1
    return ordered[target] if 0 <= target < len(ordered) else None
