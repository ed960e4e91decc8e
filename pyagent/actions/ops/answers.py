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
