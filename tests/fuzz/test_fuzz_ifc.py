"""Broken and hostile IFC files: each is refused with one clear error or loads without what is broken;
none crashes or hangs the agent. Loading runs in a child process, so a crash in the geometry kernel
would show up as a failed test instead of taking the test run down."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fuzz_ifc_files import tiny_ifc, variants
from persist_helpers import ROOT

from pyagent.ifccheck import reference_cycle
from pyagent.ifcfile import IfcLoadError, open_ifc

REFUSED = {
    "truncated": "truncated", "no_end": "truncated", "wrong_schema": "schema", "other_step_schema": "schema",
    "garbage": "cannot be read", "empty": "empty", "json": "not an IFC file", "no_project": "IfcProject",
    "placement_loop": "loop", "placement_self_loop": "loop", "boolean_loop": "loop", "huge": "limit",
    "deep_placement": "nested more than",  # issue 14.6: a 20,000-deep chain crashed the geometry kernel
}
LOADED = {
    "deep_nesting": "", "huge_coordinates": "could not be tessellated",
    "degenerate_profile": "could not be tessellated", "wrong_types": "could not be tessellated",
    "dangling_reference": "", "duplicate_globalid": "duplicate GlobalId",
}


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bad-ifc")
    return variants(tiny_ifc(folder / "tiny.ifc"), folder)


def run_agent(*args: str, cache: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYAGENT_CACHE": str(cache), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "pyagent", *args], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=180, env=env)


def test_every_variant_is_covered(bad_files: dict[str, Path]) -> None:
    assert set(bad_files) == set(REFUSED) | set(LOADED)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_bad_files_are_refused_with_a_clear_error(bad_files: dict[str, Path], name: str, tmp_path: Path) -> None:
    r = run_agent("load", str(bad_files[name]), cache=tmp_path)
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert r.stderr.startswith("error: ") and REFUSED[name] in r.stderr and "Traceback" not in r.stderr
    if name != "huge":
        with pytest.raises(IfcLoadError):
            open_ifc(bad_files[name])


@pytest.mark.parametrize("name", sorted(LOADED))
def test_damaged_parts_are_skipped_with_a_warning(bad_files: dict[str, Path], name: str, tmp_path: Path) -> None:
    r = run_agent("load", str(bad_files[name]), cache=tmp_path)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert LOADED[name] in r.stdout and "Traceback" not in r.stderr


def test_a_scripted_session_on_a_bad_file_exits_cleanly(bad_files: dict[str, Path], tmp_path: Path) -> None:
    r = run_agent("script", "--ifc", str(bad_files["placement_loop"]), cache=tmp_path, stdin='{"state": true}\n')
    assert r.returncode == 2 and "loop" in r.stderr and "Traceback" not in r.stderr and r.stdout == ""


def test_the_shipped_files_have_no_reference_loops() -> None:
    import ifcopenshell

    for name in ("AC20-FZK-Haus.ifc", "duplex.ifc"):
        assert reference_cycle(ifcopenshell.open(str(ROOT / "ifc" / name))) is None


def test_a_reference_written_inside_a_string_is_not_followed(tmp_path: Path) -> None:
    """The check reads references from each instance's STEP text: a name such as 'Body #12' (here the
    representation's own number, and a quote written twice before it) is text, not a loop."""
    import ifcopenshell

    model = ifcopenshell.open(str(ROOT / "ifc" / "duplex.ifc"))
    rep = model.by_type("IfcShapeRepresentation")[0]
    placement = model.by_type("IfcLocalPlacement")[0]
    rep.RepresentationType = f"it''s #{rep.id()} and #{placement.id()}"
    assert reference_cycle(model) is None
    placement.PlacementRelTo = placement  # a real loop is still found
    assert reference_cycle(model) is not None


def test_the_level_by_level_check_agrees_with_the_search_at_the_depth_limit() -> None:
    """``ifccheck._sound`` (numpy, level by level) says sound exactly where the depth-first search finds
    nothing: a chain of ten placements is sound up to a limit of ten, not nine; a loop is never sound."""
    import ifcopenshell

    from pyagent import ifccheck

    model = ifcopenshell.file(schema="IFC4")
    placement = None
    for _ in range(10):
        point = model.createIfcCartesianPoint((0.0, 0.0, 0.0))
        placement = model.createIfcLocalPlacement(placement, model.createIfcAxis2Placement3D(point, None, None))
    # each placement refers to its axis placement too: the chain is 10 placements and 1 axis placement deep
    assert ifccheck._sound(model, 11) and ifccheck.reference_problem(model, 11) is None
    assert not ifccheck._sound(model, 10)
    assert "nested more than 10" in (ifccheck.reference_problem(model, 10) or "")
    first = model.by_type("IfcLocalPlacement")[0]
    first.PlacementRelTo = placement
    assert not ifccheck._sound(model, 1 << 30) and "loop" in (ifccheck.reference_problem(model) or "")
