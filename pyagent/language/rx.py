"""Regular expressions compiled once for the life of the process.

The ``re`` module keeps only its last 512 patterns. The front end uses more than that (the parser's own,
the phrasing data's, each building's words), so a pattern written inline in a hot function would be
compiled again and again. These functions behave like ``re``'s, with a cache large enough for all of
them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

PatternLike = str | re.Pattern[str]
Pattern = re.Pattern


@lru_cache(maxsize=16384)
def compiled(pattern: PatternLike, flags: int = 0) -> re.Pattern[str]:
    """``pattern`` compiled (once)."""
    return pattern if isinstance(pattern, re.Pattern) else re.compile(pattern, flags)


def sub(pattern: PatternLike, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0,
        flags: int = 0) -> str:
    return compiled(pattern, flags).sub(repl, string, count=count)


def search(pattern: PatternLike, string: str, flags: int = 0) -> re.Match[str] | None:
    return compiled(pattern, flags).search(string)


def match(pattern: PatternLike, string: str, flags: int = 0) -> re.Match[str] | None:
    return compiled(pattern, flags).match(string)


def fullmatch(pattern: PatternLike, string: str, flags: int = 0) -> re.Match[str] | None:
    return compiled(pattern, flags).fullmatch(string)


def findall(pattern: PatternLike, string: str, flags: int = 0) -> list[Any]:
    return compiled(pattern, flags).findall(string)


def finditer(pattern: PatternLike, string: str, flags: int = 0) -> Iterator[re.Match[str]]:
    return compiled(pattern, flags).finditer(string)


def split(pattern: PatternLike, string: str, maxsplit: int = 0, flags: int = 0) -> list[str]:
    return compiled(pattern, flags).split(string, maxsplit=maxsplit)


escape = re.escape
compile = compiled  # noqa: A001  (the name ``re`` users expect)
Match = re.Match
IGNORECASE = re.IGNORECASE
