"""What the dialogue remembers between utterances ("the same for the windows", "the other one").

The session owns it (it is journaled with the session's state, see ``pyagent.persistence``); the
parser reads it and the front end updates it after a request has run."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Step = dict[str, Any]


@dataclass
class Dialogue:
    """The steps of the last request that ran (undo, redo, save and notes are not remembered)."""

    last_steps: list[Step] = field(default_factory=list)
