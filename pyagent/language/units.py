"""Units of length in requests, by pint: the words the parser reads after a number ("2 m", "30
centimetres", "4 feet") and their size in metres. The unit names are data (``data/units.yaml``); each
name's symbol ("cm", "ft") comes from pint's registry and its plural ("feet", "inches") from the
inflection library, so no table of words and factors is kept here."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from pyagent.vocabulary import plural_noun

_DATA = Path(__file__).parent / "data" / "units.yaml"


@lru_cache(maxsize=1)
def registry() -> Any:
    """pint's unit registry (about half a second to make: once per process)."""
    import pint

    return pint.UnitRegistry()


@lru_cache(maxsize=1)
def length_units() -> dict[str, float]:
    """Every word for a unit of length -> metres per unit: "m", "metre", "metres", "cm", ..., "in"."""
    ureg = registry()
    names: list[str] = yaml.safe_load(_DATA.read_text(encoding="utf-8"))["length"]
    out: dict[str, float] = {}
    for name in names:
        metres = float(f"{ureg.Quantity(1.0, name).to('meter').magnitude:.12g}")  # 0.3048, not 0.30479999...
        for word in (name, plural_noun(name), str(ureg.get_symbol(name))):
            out.setdefault(word, metres)
    return out


def metres(value: float, unit: str) -> float | None:
    """``value`` ``unit`` in metres (any unit pint knows: "yard", "mile"), None for a word that is not a
    unit of length."""
    known = length_units().get(unit)
    if known is not None:
        return value * known
    ureg = registry()
    try:
        quantity = ureg.Quantity(value, unit)
        return float(quantity.to("meter").magnitude)
    except Exception:  # noqa: BLE001 - pint raises several unrelated types for words it does not know
        return None
