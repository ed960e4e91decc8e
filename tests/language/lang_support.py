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

#: The buildings the language tests stand in, by one name each (paths as cases write them).
TOYO = "real/tekla_TOYO_INK_Legkezelo.ifc"
THREE_ROOMS = "buildings/blenderbim_3rooms-heater-table.ifc"
GRETHE = "buildings/revit2019_grethes-hus.ifc"
FIVE_ZONE = "buildings/revit2022_5zone-office.ifc"
MINI = "MiniProject.ifc"
HOM = "buildings/blenderbim_example-hom.ifc"
BPI = "buildings/autocadarch2012_bpi-office.ifc"
QUANTITIES = "buildings/revit2008_quantities.ifc"
JASMIN = "buildings/archicad9_jasmin-sun.ifc"
SMILEY_ARCHICAD = "buildings/archicad11_smiley-west.ifc"
RENGA = "buildings/renga_house.ifc"
FRENCH_LAB = "buildings/revit2017fra_rue-marc-antoine-petit.ifc"
SENSOR = "buildings/revit2022deu_sensor-versuchsstand.ifc"
NIEDRIHA = "buildings/archicad9_niedriha.ifc"
IFC_ENGINE = "buildings/ifcengine_example.ifc"
