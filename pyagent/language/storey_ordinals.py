"""Storeys addressed by number: "level two", "the second level", "2F", "second floor", "2. Geschoss"."""

from __future__ import annotations

from collections.abc import Collection

from pyagent.ingest import ground_storey
from pyagent.language.spoken_numbers import number_in
from pyagent.model import Building, Storey
from pyagent.vocabulary import class_matches

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
        if any(number_in(name, NAME_LANGUAGES) == number for name in names if name):
            return storey
    ordered = sorted(storeys, key=lambda st: st.elevation)
    ground = ground_storey(ordered)
    base = next(i for i, st in enumerate(ordered) if st.id == ground)
    floors = ordered[:base] + [st for st in ordered[base:] if st.id not in roof_only or st.id == ground]
    base = next(i for i, st in enumerate(floors) if st.id == ground)
    target = base + number - 1
    return floors[target] if 0 <= target < len(floors) else None
