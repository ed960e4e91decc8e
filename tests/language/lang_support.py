"""Shared by the language tests that say things on real files: a session standing somewhere."""

from __future__ import annotations

from typing import Any

from pyagent.language import evaluate as ev
from pyagent.model import Pose


def standing_at(sessions: ev.Sessions, ifc: str, x: float, y: float, z: float, yaw: float = 0.0) -> Any:
    """A fresh session on ``ifc`` with the user standing at (x, y, z) (IFC frame, eye height) facing ``yaw``."""
    s = sessions.fresh(ifc)
    s.set_pose(Pose.from_json({"position": [x, y, z], "yaw": yaw, "pitch": 0.0}))
    return s
