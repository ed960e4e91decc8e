"""The user moving relative to where they stand and look, by patterns kept as data
(``data/relative_moves.yaml``): "move forward two metres", "step back a bit", "take two steps to the left"
-> ``walk``; "go up one floor", "go down a floor" -> ``change_floor``. Turning is the general parser's.

Lengths are read like the review tools read them (text2num for number words, pint's units: ``units``); a step
without a length is ``default_m``, "a bit" is the list's value, a pace ``pace_m``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from text_to_num import alpha2digit

from pyagent.language.units import length_units

if TYPE_CHECKING:
    from pyagent.language.parser import ParseContext

DATA = Path(__file__).with_name("data") / "relative_moves.yaml"
MAX_WALK_M = 100.0  # the schema's bound on one walk

Step = dict[str, Any]


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return data


@lru_cache(maxsize=1)
def _words() -> dict[str, dict[str, str]]:
    return {name: {str(w): str(value) for value, words in values.items() for w in words}
            for name, values in _data()["lists"].items()}


def _amount(suffix: str) -> str:
    units = "|".join(re.escape(u) for u in sorted(length_units(), key=len, reverse=True))
    return rf"(?P<n{suffix}>\d+(?:\.\d+)?) ?(?P<unit{suffix}>{units})\b"


def _compile(pattern: str) -> re.Pattern[str]:
    """A data pattern as a regex: each {list} a named group of its words, {amount} a length; a placeholder
    used twice gets the group name with a suffix ("amount", then "amount2")."""
    seen: dict[str, int] = {}

    def expand(m: re.Match[str]) -> str:
        name = m.group(1)
        seen[name] = seen.get(name, 0) + 1
        suffix = "" if seen[name] == 1 else str(seen[name])
        if name == "amount":
            return _amount(suffix)
        words = sorted(_words()[name], key=len, reverse=True)
        return f"(?P<{name}{suffix}>" + "|".join(re.escape(w) for w in words) + ")"

    return re.compile(re.sub(r"\{(\w+)\}", expand, pattern))


@lru_cache(maxsize=1)
def rules() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(kind, compiled pattern) for every pattern of the data file, in the file's order."""
    return tuple((kind, _compile(pattern)) for kind, patterns in _data()["patterns"].items() for pattern in patterns)


def _metres(g: dict[str, str | None]) -> float | None:
    for suffix in ("", "2"):
        if g.get(f"n{suffix}"):
            return float(str(g[f"n{suffix}"])) * length_units()[str(g[f"unit{suffix}"])]
    return None


def clause(text: str, ctx: ParseContext | None = None, so_far: list[Step] | None = None) -> list[Step] | None:
    """The parser's clause hook: the steps of a relative move, None when the clause is not one."""
    if text in _data().get("not_moves", ()):
        return None
    spelled = re.search(r"[a-z]+ (meters?|cm|feet|foot|steps?|paces?)", text)  # "two steps": words left by normalise
    t = alpha2digit(text, "en", threshold=0) if spelled else text
    for kind, regex in rules():
        m = regex.fullmatch(t)
        if m is None:
            continue
        g = m.groupdict()
        if kind in ("walk", "walk_on"):
            step = _walk(g, "forward" if kind == "walk_on" else "back")
        else:
            step = _change_floor(g)
        if step is not None:
            return [step]
    return None


def _walk(g: dict[str, str | None], default: str = "back") -> Step | None:
    """A walk; with no direction said, ``default`` ("back up": back; "walk three metres": on, forward)."""
    w = _words()
    direction = w["direction"][str(g["direction"])] if g.get("direction") else default
    metres = _metres(g)
    if metres is None and g.get("steps"):
        metres = float(w["steps"][str(g["steps"])]) * float(_data()["pace_m"])
    if metres is None and g.get("bit"):
        metres = float(w["bit"][str(g["bit"])])
    if metres is None:
        metres = float(_data()["default_m"])
    if not 0 < metres <= MAX_WALK_M:
        return None
    return {"op": "walk", "direction": direction, "distance": round(metres, 4)}


def _change_floor(g: dict[str, str | None]) -> Step | None:
    w = _words()
    n = int(w["floors"][str(g["floors"])])
    up = w["updown"][str(g["updown"])] == "up"
    return {"op": "change_floor", "by": n if up else -n}
