"""What the language front end needs of a session, as a protocol (``pyagent.session.Session`` is one):
the language package never imports the session, so that the session can import it."""

from __future__ import annotations

from typing import Any, Protocol

from pyagent.actions.executor import Executor
from pyagent.language.dialogue import Dialogue
from pyagent.language.scene_view import SceneView
from pyagent.model import Building, Pose
from pyagent.result import Result


class Host(Protocol):
    @property
    def building(self) -> Building: ...

    @property
    def pose(self) -> Pose: ...

    @property
    def executor(self) -> Executor:
        """For the language model's looks before it answers (query steps, dialogue memory kept)."""
        ...

    @property
    def dialogue(self) -> Dialogue: ...

    def view(self) -> SceneView:
        """The scene now, read-only, for one parse."""
        ...

    def do(self, program: Any, source: str = "program") -> Result: ...
