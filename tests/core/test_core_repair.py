"""Files that write ``*`` (derived) where the schema wants a value still load whole (pyagent/ifcrepair.py)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import ifcopenshell
import ifcopenshell.geom
import pytest

from pyagent.ifcrepair import clear_misplaced_derived, top_level_arguments
from pyagent.loader import load
from pyagent.paths import PROJECT_ROOT

RENGA = PROJECT_ROOT / "tests" / "language" / "buildings" / "renga_house.ifc"


def test_arguments_split_at_top_level_only() -> None:
    spf = "#1=IFCX('a,''b)',(1,(2,3)),*,$,.T.)"
    assert top_level_arguments(spf) == ["'a,''b)'", "(1,(2,3))", "*", "$", ".T."]


def test_derived_names_are_cleared_and_the_kernel_accepts_the_door() -> None:
    model = ifcopenshell.open(str(RENGA))
    door = model.by_type("IfcDoor")[0]
    settings = ifcopenshell.geom.settings()
    with pytest.raises(RuntimeError, match="derived"):
        ifcopenshell.geom.create_shape(settings, door)
    report = clear_misplaced_derived(model)
    assert report.cleared > 0 and report.instances > 0
    assert ",*" not in door.to_string()
    assert ifcopenshell.geom.create_shape(settings, door) is not None
    # redeclared derived attributes elsewhere stay as they are
    sub = model.by_type("IfcGeometricRepresentationSubContext")
    assert not sub or "*" in sub[0].to_string()


def test_renga_house_loads_its_doors_windows_and_slabs(tmp_path: Path) -> None:
    lb = load(RENGA, cache=tmp_path)
    counts = Counter(e.ifc_class for e in lb.building.elements.values())
    ifc = ifcopenshell.open(str(RENGA))
    for cls in ("IfcDoor", "IfcWindow", "IfcSlab"):
        assert counts[cls] == len(ifc.by_type(cls)) > 0, cls
    assert any("'*'" in w for w in lb.building.warnings)


def test_a_clean_file_is_left_alone() -> None:
    model = ifcopenshell.open(str(PROJECT_ROOT / "ifc" / "AC20-FZK-Haus.ifc"))
    assert clear_misplaced_derived(model).cleared == 0
