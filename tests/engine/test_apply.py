"""The change applier against a small building: node state after states and deltas."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from engine_support import REPO, assert_passed, run_scene_test
from glb_fixture import Box, write_glb

pytestmark = pytest.mark.godot


def _schema_validator(name: str) -> jsonschema.protocols.Validator:
    schema = json.loads((REPO / "pyagent" / "actions" / "action.schema.json").read_text())
    sub = {"$ref": f"#/$defs/{name}", "$defs": schema["$defs"]}
    return jsonschema.Draft202012Validator(sub)


def test_apply_states_and_deltas(godot: list[str], sample_building: tuple[Path, Path], tmp_path: Path) -> None:
    glb, ids = sample_building
    props = tmp_path / "props"
    write_glb(props / "chair.glb", [Box("chair", (0.0, 0.45, 0.0), (0.45, 0.9, 0.5))], root_name="chair")
    dump = tmp_path / "dump.json"
    proc = run_scene_test("tests/godot/test_apply.gd", [
        "--glb", str(glb), "--ids", str(ids), "--props-dir", str(props), "--dump", str(dump)])
    assert_passed(proc)
    # What the test fed the applier agrees with the schema: accepted input is valid, refused
    # input (where it is JSON at all) is invalid.
    validators = {"delta": _schema_validator("engine_delta"), "state": _schema_validator("engine_state")}
    entries = json.loads(dump.read_text())
    assert sum(e["good"] for e in entries) >= 20 and sum(not e["good"] for e in entries) >= 10
    for entry in entries:
        errors = list(validators[entry["kind"]].iter_errors(entry["value"]))
        if entry["good"]:
            assert not errors, (entry["value"], [e.message for e in errors])
        else:
            assert errors, f"the engine refused a schema-valid {entry['kind']}: {entry['value']}"


def test_apply_under_a_frame_budget(godot: list[str], tmp_path: Path) -> None:
    from glb_fixture import grid_boxes

    glb = write_glb(tmp_path / "grid.glb", grid_boxes(300))
    assert_passed(run_scene_test("tests/godot/test_budget.gd", ["--glb", str(glb)]))


def test_prop_library_with_the_agents_props(godot: list[str], tmp_path: Path) -> None:
    from pyagent.props import write_prop_assets

    folder = tmp_path / "props"
    assert len(write_prop_assets(folder)) >= 10
    assert_passed(run_scene_test("tests/godot/test_props.gd", ["--props-dir", str(folder)]))
