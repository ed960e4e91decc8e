"""The scripted-session contract (DESIGN.md): JSON lines in, one JSON line out per input line.

Whatever arrives on stdin (bytes that are not UTF-8, numbers of thousands of digits, lone surrogates,
lines of any length) and whatever fails inside (a full disk while saving) gives one JSON error line, and
the session goes on.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterable, Iterator
from typing import IO, Any

from pyagent.jsonsafe import JsonInputError, loads
from pyagent.model import Pose
from pyagent.session import Session

MAX_LINE = 1 << 20
log = logging.getLogger("pyagent.script")


def _error(message: str) -> dict[str, Any]:
    return {"ok": False, "program": None, "answer": message, "value": None, "error": message}


def _clean(value: Any) -> Any:
    """JSON-safe values (no NaN/inf, numpy scalars become floats)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item"):
        return _clean(value.item())
    return value


def handle_line(session: Session, line: str) -> dict[str, Any]:
    """One input line -> one output object. Never raises for bad input."""
    if len(line) > MAX_LINE:
        return _error(f"line too long ({len(line)} bytes; the limit is {MAX_LINE})")
    try:
        msg = loads(line)
    except JsonInputError as exc:
        return _error(f"the line is not acceptable JSON: {exc}" if "JSON" not in str(exc) else str(exc))
    if not isinstance(msg, dict) or len(msg) != 1:
        return _error("each line must be a JSON object with exactly one of: pose, say, do, select, state")
    (key, arg), = msg.items()
    if key == "pose":
        if not isinstance(arg, dict) or "position" not in arg:
            return _error("pose needs {\"position\": [x, y, z], \"yaw\": degrees, \"pitch\": degrees}")
        try:
            session.set_pose(Pose.from_json(arg))
        except (TypeError, ValueError, KeyError) as exc:
            return _error(f"bad pose: {exc}")
        return {"ok": True}
    if key == "say":
        if not isinstance(arg, str) or not arg.strip():
            return _error("say needs a non-empty string")
        return _clean(session.say(arg).to_json())
    if key == "do":
        return _clean(session.do(arg).to_json())
    if key == "select":
        if not isinstance(arg, list) or not all(isinstance(g, str) for g in arg):
            return _error("select needs a list of GlobalIds")
        r = session.select(arg)
        return {"ok": True} if r.ok else _error(r.error or r.answer)
    if key == "state":
        return _clean(session.state())
    return _error(f"unknown command '{key}': use pose, say, do, select or state")


def _lines(stream: IO[bytes]) -> Iterator[bytes | None]:
    """Lines of a byte stream, each at most ``MAX_LINE`` bytes; None stands for a longer line (skipped)."""
    while True:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while (rest := stream.readline(MAX_LINE)) and not rest.endswith(b"\n"):
                pass  # drop the rest of the over-long line without holding it
            yield None
            continue
        yield raw


def answer(session: Session, raw: bytes | str | None) -> dict[str, Any] | None:
    """The answer to one raw input line (None for a blank line). Never raises."""
    if raw is None:
        return _error(f"line too long (the limit is {MAX_LINE} bytes)")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return _error(f"the line is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})")
    line = raw.strip(" \t\r\n")  # JSON's whitespace only: a control character is input, not blank
    if not line:
        return None
    try:
        return handle_line(session, line)
    except Exception as exc:  # noqa: BLE001 - one failing request must not end the session
        log.exception("a script line failed")
        return _error(f"internal error: {type(exc).__name__}: {str(exc)[:200]}")


def _encode(out: dict[str, Any]) -> bytes:
    try:
        text = json.dumps(out, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        text = json.dumps(_error(f"internal error: the answer cannot be written as JSON ({exc})"))
    return text.encode("utf-8", errors="backslashreplace") + b"\n"


def run_script(session: Session, lines: IO[bytes] | Iterable[bytes | str], out: IO[bytes]) -> int:
    """Answer every line of ``lines`` (a byte stream, or an iterable of lines) on ``out`` (bytes)."""
    count = 0
    source = _lines(lines) if isinstance(lines, IO) or hasattr(lines, "readline") else iter(lines)  # type: ignore[arg-type]
    for raw in source:
        result = answer(session, raw)
        if result is None:
            continue
        out.write(_encode(result))
        out.flush()
        count += 1
    return count
