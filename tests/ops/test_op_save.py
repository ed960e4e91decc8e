"""``save``: the edited model as a new IFC revision, after the whole program succeeded."""

from __future__ import annotations

import shutil
from pathlib import Path

import ifcopenshell
from ops_support import FZK, step

from pyagent.session import Session


def test_writes_a_revision_without_the_deleted_doors(tmp_path: Path) -> None:
    src = tmp_path / FZK.name
    shutil.copy(FZK, src)
    s = Session.open(src)
    assert step(s, "delete", target={"class": ["IfcDoor"]}).ok
    r = step(s, "save")
    saved = tmp_path / f"{src.stem}.rev1.ifc"
    assert r.ok and saved.is_file() and r.answer == f"Saved a new revision: {saved}."
    assert ifcopenshell.open(str(saved)).by_type("IfcDoor") == ()


def test_a_failing_program_saves_nothing(tmp_path: Path) -> None:
    src = tmp_path / FZK.name
    shutil.copy(FZK, src)
    s = Session.open(src)
    r = s.do({"steps": [{"op": "save"}, {"op": "hide", "target": {"class": ["IfcRamp"]}}]})
    assert not r.ok and not list(tmp_path.glob("*.rev*.ifc"))
