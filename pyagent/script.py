"""The scripted-session contract (DESIGN.md): JSON lines in, one JSON line out per input line."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any, TextIO

from pyagent.model import Pose
from pyagent.session import Session

MAX_LINE = 1 << 20


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
        msg = json.loads(line)
    except json.JSONDecodeError as exc:
        return _error(f"not valid JSON: {exc.msg} at column {exc.colno}")
    except RecursionError:
        return _error("the line is nested too deeply")
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


def run_script(session: Session, lines: Iterable[str], out: TextIO) -> int:
    count = 0
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        out.write(json.dumps(handle_line(session, line), ensure_ascii=False) + "\n")
        out.flush()
        count += 1
    return count
