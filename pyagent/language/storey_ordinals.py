"""Storeys addressed by number: "level two", "the second level", "2F", "second floor", "2. Geschoss"."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from pathlib import Path

import yaml

from pyagent.ingest import ground_storey
from pyagent.language.spoken_numbers import number_in
from pyagent.model import Building, Storey
from pyagent.vocabulary import class_matches

#: Words that name a ground storey (data/room_words.yaml): where the ground storey is named so, "the first floor"
#: is the one above it.
GROUND_STOREY_NAMES: frozenset[str] = frozenset(str(w) for w in yaml.safe_load(
    (Path(__file__).parent / "data" / "room_words.yaml").read_text(encoding="utf-8"))["ground_storey_names"])

# A name that is an identifier ("ACID00000001-0000-..."), whose digits number nothing.
_ID_LIKE = re.compile(r"\d{5,}|[0-9a-f]{8}-[0-9a-f]{4}", re.IGNORECASE)

#: The languages a storey's own name is read in ("Level Two", "Zweites Obergeschoss"), in this order.
NAME_LANGUAGES = ("en", "de")


def storey_number(phrase: str, language: str = "en") -> int | None:
    """The number in ``phrase`` (words or digits, ordinal or cardinal), or None."""
    return number_in(phrase, (language,))


def roof_storeys(building: Building) -> set[str]:
    """Storeys above the ground storey that hold nothing but the roof (a "Roof" level carrying only the
    roof slab): not floors a person counts ("the second floor", "the top floor"). Read from what the
    storeys contain, never from their names."""
    ground = next((st for st in building.storeys if st.id == building.ground_storey), None)
    contents: dict[str, list[bool]] = {}
    for el in building.products():
        if el.storey and el.has_geometry and not el.is_spatial:
            roof = class_matches(building.schema, el.ifc_class, el.properties.get("PredefinedType"), {"IfcRoof"}) \
                or el.whole_class == "IfcRoof"
            contents.setdefault(el.storey, []).append(roof)
    return {st.id for st in building.storeys
            if ground is not None and st.elevation > ground.elevation and contents.get(st.id)
            and all(contents[st.id])}


def resolve_storey(phrase: str, storeys: list[Storey], language: str = "en",
                   roof_only: Collection[str] = ()) -> Storey | None:
    """The storey ``phrase`` names: one whose name carries that number ("Level 2", "2. OG", "Zweites
    Obergeschoss": names are read in ``NAME_LANGUAGES``) first; otherwise
    the Nth storey by elevation counting the ground storey (``ingest.ground_storey``) as the first.
    ``roof_only`` (see ``roof_storeys``): storeys left out of that count."""
    number = storey_number(phrase, language)
    if number is None or not storeys:
        return None
    for storey in storeys:
        names = (storey.name, storey.long_name)
        if any(number_in(name, NAME_LANGUAGES) == number for name in names if name and not _ID_LIKE.search(name)):
            return storey
    ordered = sorted(storeys, key=lambda st: st.elevation)
    ground = ground_storey(ordered)
    base = next(i for i, st in enumerate(ordered) if st.id == ground)
    floors = ordered[:base] + [st for st in ordered[base:] if st.id not in roof_only or st.id == ground]
    base = next(i for i, st in enumerate(floors) if st.id == ground)
    # "the first floor" of a building whose ground storey is called "Erdgeschoss" is the one above it
    target = base + number - (0 if _named_ground(floors[base]) else 1)
    return floors[target] if 0 <= target < len(floors) else None


def _named_ground(storey: Storey) -> bool:
    """Does the storey's name call it the ground floor ("Erdgeschoss", "EG", "Ground Floor", "Rez-de-chaussée")?"""
    for name in (storey.name, storey.long_name):
        plain = unicodedata.normalize("NFKD", name or "").encode("ascii", "ignore").decode().lower()
        words = re.findall(r"[a-z]+", plain)
        if any(" ".join(words[i:i + n]) in GROUND_STOREY_NAMES for n in (1, 2, 3) for i in range(len(words))) \
                or any(w.startswith(("erdgeschoss", "ground")) for w in words):
            return True
    return False
