"""The outcome of one request (``Session.say``, ``Session.do``, the language front end)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Result:
    """The outcome of one request, as the scripted-session contract prints it."""

    ok: bool
    program: dict[str, Any] | None
    answer: str
    value: Any = None
    error: str | None = None
    source: str = ""  # "parser", "llm", "program"
    timings: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "program": self.program, "answer": self.answer, "value": self.value,
                "error": self.error}
