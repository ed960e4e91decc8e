"""English answer text for the ops in this package, kept as data (``answers.en.json``)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

ANSWERS = Path(__file__).with_name("answers.en.json")


@lru_cache(maxsize=1)
def _templates() -> dict[str, str]:
    data: dict[str, str] = json.loads(ANSWERS.read_text(encoding="utf-8"))
    return data


def say(key: str, **values: Any) -> str:
    """The sentence ``key`` with ``values`` filled in (``str.format`` fields)."""
    return _templates()[key].format(**values)


#: The unit a quantity is said in, by its everyday key (anything else is said as a bare number).
UNITS = {"height": "m", "width": "m", "depth": "m", "length": "m", "thickness": "m", "elevation": "m", "tall": "m",
         "wide": "m", "deep": "m", "perimeter": "m", "area": "m²", "floor_area": "m²", "surface_area": "m²",
         "volume": "m³",
         # IFC measures whose unit is fixed (SI, whatever the file's length unit)
         "thermaltransmittance": "W/(m²·K)", "weight": "kg", "mass": "kg"}


#: How a property the file names in CamelCase is said in an answer ("ThermalTransmittance": "U value").
SAID_AS = {"thermaltransmittance": "U value", "firerating": "fire rating", "acousticrating": "acoustic rating",
           "loadbearing": "load-bearing flag", "isexternal": "external flag"}


def said_as(prop: str) -> str:
    """A property's name as an answer says it: the everyday word for some IFC names, else as given."""
    return SAID_AS.get(prop.strip().lower().replace(" ", "").replace("_", ""), prop)


def unit_of(prop: str) -> str:
    """"m", "m²", "m³" or "" for a quantity key ("height", "area", "floor area", ...); W/(m²·K) for a thermal
    transmittance (a U value)."""
    return UNITS.get(prop.strip().lower().replace(" ", "_"), "")


def metres(v: float) -> str:
    return f"{v:.2f} m"


def signed_cm(v: float) -> str:
    cm = round(abs(v) * 100)
    return f"{cm} cm" if cm < 100 else f"{abs(v):.2f} m"


def join_names(names: list[str], limit: int = 8) -> str:
    """``a, b, c`` (at most ``limit`` names, then ``and N more``)."""
    if len(names) > limit:
        return ", ".join(names[:limit]) + f" and {len(names) - limit} more"
    return ", ".join(names)


def join_distinct(names: list[str], limit: int = 8) -> str:
    """Like :func:`join_names`, a name that several things share said once with how many ("Bedroom 2 (2 of
    them)"), so that tied rooms of two flats do not read as a repetition."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return join_names([name if k == 1 else f"{name} ({k} of them)" for name, k in counts.items()], limit)

