"""Strict JSON for everything a peer or a script sends: one parser, one set of rules.

Python's ``json`` accepts what no other JSON reader does and what later code cannot handle: ``NaN`` and
``Infinity``, ``1e999`` (read as infinity), integers of thousands of digits (``float()`` of them overflows,
and past 4,300 digits ``int()`` itself refuses), and ``"\\ud800"`` escapes that decode to lone surrogates
(which cannot be written back as UTF-8). ``loads`` refuses all of them with ``JsonInputError``, whose
message is short and fit to show to the sender; it never repeats the input.
"""

from __future__ import annotations

import json
import math
from typing import Any

#: The largest integer magnitude accepted anywhere (beyond it a float loses integer precision anyway).
MAX_INT = 2**53
_MAX_INT_DIGITS = len(str(MAX_INT)) + 1  # a sign or one leading zero


class JsonInputError(ValueError):
    """The input is not acceptable JSON; ``str(err)`` is a short, human-readable reason."""


def _constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not a number in JSON (numbers must be finite)")


def _integer(text: str) -> int:
    if len(text) > _MAX_INT_DIGITS or abs(value := int(text)) > MAX_INT:
        raise JsonInputError(f"a number is too large ({len(text.lstrip('-'))} digits; at most ±{MAX_INT})")
    return value


def _float(text: str) -> float:
    if len(text) > 64:
        raise JsonInputError(f"a number is written with too many digits ({len(text)} characters)")
    value = float(text)
    if not math.isfinite(value):
        raise JsonInputError("a number is out of range (numbers must be finite)")
    return value


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def check_strings(value: Any) -> None:
    """Raise ``JsonInputError`` when a string (key or value) inside ``value`` is not valid Unicode text."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if _has_surrogate(v):
                raise JsonInputError("a string holds an unpaired surrogate (\\ud800-\\udfff): not valid Unicode text")
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def loads(text: str | bytes) -> Any:
    """Parse strict JSON; raises ``JsonInputError`` (a ``ValueError``) for anything not acceptable."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonInputError(f"not UTF-8 text (byte 0x{text[exc.start]:02x} at offset {exc.start})") from None
    try:
        value = json.loads(text, parse_constant=_constant, parse_int=_integer, parse_float=_float)
    except JsonInputError:
        raise
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"not valid JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise JsonInputError("nested too deeply") from None
    except ValueError as exc:  # anything else the decoder refuses; never echo the input
        raise JsonInputError(f"not valid JSON: {str(exc)[:120]}") from None
    check_strings(value)
    return value


def finite_number(value: Any) -> bool:
    """True for an int (not bool) or float that is finite and within ±MAX_INT for integers; never raises."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) <= MAX_INT
    return isinstance(value, float) and math.isfinite(value)
