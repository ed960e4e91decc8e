"""Regular expressions compiled once for the life of the process.

The ``re`` module keeps only its last 512 patterns, and (up to Python 3.11) its last 512 replacement
templates. The front end uses more than that (the parser's own, the phrasing data's ~800 rewrites, each
building's words), so a pattern or a ``\\g<x>`` template written inline in a hot function would be
parsed again and again: before templates were kept here, reading them again was four fifths of the
parse time. These functions behave like ``re``'s, with caches large enough for all of them.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from types import ModuleType
from typing import Any

PatternLike = str | re.Pattern[str]
Pattern = re.Pattern


def compiled(pattern: PatternLike, flags: int = 0) -> re.Pattern[str]:
    """``pattern`` compiled (once)."""
    return _compiled(pattern, flags)


@lru_cache(maxsize=16384)
def _compiled(pattern: PatternLike, flags: int) -> re.Pattern[str]:
    # one key per (pattern, flags) however the caller wrote the flags: ``lru_cache`` keys ``f(p)`` and
    # ``f(p, 0)`` apart, so patterns compiled ahead of use (``precompile``) were compiled again on first use
    return pattern if isinstance(pattern, re.Pattern) else re.compile(pattern, flags)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "b": "\b", "\\": "\\"}
_TEMPLATE_PART = re.compile(r"\\(?:g<([^>]*)>|([1-7][0-7]{2}|[1-9][0-9]?|0[0-7]{0,2})|(.))", re.DOTALL)


@lru_cache(maxsize=16384)
def template(pattern: re.Pattern[str], repl: str) -> Callable[[re.Match[str]], str] | str:
    """``repl`` (a replacement as ``re.sub`` reads it: ``\\1``, ``\\g<name>``, ``\\n`` ...) read once
    into a function of the match, so that using it again costs no parsing. Unmatched groups give "".
    Raises ``re.error`` for what ``re.sub`` rejects: an unknown group, a bad escape. A replacement
    without a backslash is returned as it is (``re`` uses such a string without reading it)."""
    if "\\" not in repl:
        return repl
    parts: list[str | int] = []
    at = 0
    for m in _TEMPLATE_PART.finditer(repl):
        parts.append(repl[at:m.start()])
        at = m.end()
        name, number, other = m.groups()
        if number is not None and (number.startswith("0") or len(number) == 3):
            parts.append(chr(int(number, 8)))
        elif number is not None or name is not None:
            ref = number if number is not None else name
            if ref.isdigit():
                group = int(ref)
            elif ref in pattern.groupindex:
                group = pattern.groupindex[ref]
            else:
                raise re.error(f"unknown group name {ref!r} in {repl!r}")
            if group > pattern.groups:
                raise re.error(f"invalid group reference {group} in {repl!r}")
            parts.append(group)
        elif other in _ESCAPES:
            parts.append(_ESCAPES[other])
        elif other.isascii() and other.isalpha():
            raise re.error(f"bad escape \\{other} in {repl!r}")
        else:
            parts.append("\\" + other)
    parts.append(repl[at:])
    pieces = tuple(p for p in parts if p != "")

    def expand(m: re.Match[str]) -> str:
        return "".join(p if isinstance(p, str) else (m.group(p) or "") for p in pieces)

    return expand


def sub(pattern: PatternLike, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0,
        flags: int = 0) -> str:
    p = compiled(pattern, flags)
    return p.sub(template(p, repl) if isinstance(repl, str) else repl, string, count=count)


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


_CALLS = frozenset({"sub", "search", "match", "fullmatch", "findall", "finditer", "split", "compile", "compiled"})


def precompile(modules: Iterable[ModuleType]) -> int:
    """Compile ahead of first use every pattern written as a literal in a call ``re.<fn>("...", ...)`` (with
    ``re`` this module) of these modules' source, and read its replacement template where that is a literal
    too: a request's first use of a path then costs no compiling. Calls with flags are left to their first
    use. Returns how many patterns were compiled."""
    n = 0
    for module in modules:
        try:
            tree = ast.parse(inspect.getsource(module))
        except (OSError, TypeError, SyntaxError):
            continue  # no source to read (a frozen build): each pattern is compiled on first use as before
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                    and node.func.attr in _CALLS and node.args and not node.keywords
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                continue
            if node.func.attr in ("compile", "compiled") and len(node.args) > 1:
                continue
            try:
                pattern = compiled(node.args[0].value)
                if node.func.attr == "sub" and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) \
                        and isinstance(node.args[1].value, str):
                    template(pattern, node.args[1].value)
            except (re.error, IndexError):
                continue  # a pattern only ever used with flags, or not a pattern: left to its own use
            n += 1
    return n
