"""Shared by the language tests that say things on real files: a session standing somewhere."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pyagent.language import evaluate as ev
from pyagent.model import Pose


def standing_at(sessions: ev.Sessions, ifc: str, x: float, y: float, z: float, yaw: float = 0.0) -> Any:
    """A fresh session on ``ifc`` with the user standing at (x, y, z) (IFC frame, eye height) facing ``yaw``."""
    s = sessions.fresh(ifc)
    s.set_pose(Pose.from_json({"position": [x, y, z], "yaw": yaw, "pitch": 0.0}))
    return s


#: The checkout's root, the language tests' own buildings, and a mark for tests on the shared real buildings.
ROOT = Path(__file__).resolve().parents[2]
BUILDINGS = Path(__file__).resolve().parent / "buildings"
needs_real = pytest.mark.skipif(ev.real_dir() is None, reason="the shared real buildings are not beside this checkout")
