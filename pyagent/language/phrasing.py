"""Phrasing data (``data/phrasing.yaml``): rewrites of restrictive and decorative words, degrees of
see-through, asides, storey nouns. Run ``python -m pyagent.language.phrasing`` to check the file."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from pyagent.language import rx
from pyagent.language.building_words import GLOSSARY

_FILE = Path(__file__).parent / "data" / "phrasing.yaml"


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    with _FILE.open(encoding="utf-8") as fh:
        data: dict[str, Any] = yaml.safe_load(fh) or {}
    return data


Replacement = str | Callable[[re.Match[str]], str]


def _compiled(rules: list[list[str]]) -> list[tuple[re.Pattern[str], Replacement]]:
    """Patterns compiled and replacements read once (``rx.template``): each is used on every request."""
    out: list[tuple[re.Pattern[str], Replacement]] = []
    for pattern, repl in rules:
        p = re.compile(pattern)
        out.append((p, rx.template(p, repl)))
    return out


@lru_cache(maxsize=1)
def _rewrites() -> list[tuple[re.Pattern[str], Replacement]]:
    return _compiled(_data().get("rewrites", []))


@lru_cache(maxsize=1)
def _politeness() -> list[tuple[re.Pattern[str], Replacement]]:
    return _compiled(_data().get("politeness", []))


@lru_cache(maxsize=1)
def fragments() -> list[tuple[re.Pattern[str], str]]:
    """What may follow a thing named first, cut short, and the whole question it stands for."""
    return [(re.compile(pattern), template) for pattern, template in _data().get("fragments", [])]


@lru_cache(maxsize=1)
def _asides() -> list[re.Pattern[str]]:
    return [re.compile(p) for p in _data().get("asides", [])]


def ready() -> int:
    """Every pattern of the phrasing data compiled now (each list is otherwise compiled on its first use, in a
    request); returns how many."""
    return len(_rewrites()) + len(_politeness()) + len(fragments()) + len(_asides())


def rewrite(text: str) -> str:
    """``text`` (normalised) with the rewrites applied in order."""
    for pattern, repl in _rewrites():
        text = pattern.sub(repl, text)
    return re.sub(r"\s+", " ", text).strip()


def polite(text: str) -> str:
    """``text`` (lower case, punctuation as said) without the politeness and hedges around what it asks."""
    for pattern, repl in _politeness():
        text = pattern.sub(repl, text)
    return re.sub(r"\s+", " ", text).strip()


def is_aside(clause: str) -> bool:
    """Does the clause only say why (to be dropped when other clauses carry the request)?"""
    return any(p.fullmatch(clause.strip(" ,")) for p in _asides())


@lru_cache(maxsize=1)
def see_through_degrees() -> dict[str, float]:
    """Words for how much one sees through -> alpha (1 opaque, 0 invisible)."""
    return {str(k): float(v) for k, v in (_data().get("see_through_degrees") or {}).items()}


@lru_cache(maxsize=1)
def storey_nouns() -> frozenset[str]:
    """Nouns for a storey, with their glossary translations ("floor" -> "geschoss")."""
    words = {str(w) for w in _data().get("storey_nouns", [])}
    return frozenset(words | {GLOSSARY[w] for w in words if w in GLOSSARY})


def main() -> int:
    _rewrites()
    _asides()
    fragments()
    print(f"{len(_politeness())} politeness patterns, {len(_rewrites())} rewrites, {len(fragments())} fragments, "
          f"{len(_asides())} asides, {len(see_through_degrees())} degrees, "
          f"storey nouns: {', '.join(sorted(storey_nouns()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
