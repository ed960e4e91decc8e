"""Bad input: broken files, buildings without storeys or rooms, unknown ids, malformed programs.
Each gives a clear error (exception, exit code or ok:false), changes nothing and shows no traceback."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import ifcopenshell
import ifcopenshell.api.aggregate
import ifcopenshell.api.context
import ifcopenshell.api.geometry
import ifcopenshell.api.project
import ifcopenshell.api.root
import ifcopenshell.api.spatial
import ifcopenshell.api.unit
import pytest
from core_ifc_facts import FZK, ROOT
from core_support import Loaded, pose

from pyagent.ifcfile import IfcLoadError
from pyagent.loader import load
from pyagent.script import handle_line
from pyagent.session import Session

PY = sys.executable


def cli(*args: str, stdin: str = "", cache: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if cache is not None:
        env["PYAGENT_CACHE"] = str(cache)
    return subprocess.run([PY, "-m", "pyagent", *args], input=stdin, capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=300)


def tiny_ifc(path: Path, storey: bool, space: bool) -> Path:
    """A two-wall IFC4 model, with or without a storey and a space, written with ifcopenshell.api."""
    m = ifcopenshell.api.project.create_file(version="IFC4")
    project = ifcopenshell.api.root.create_entity(m, ifc_class="IfcProject", name="tiny")
    ifcopenshell.api.unit.assign_unit(m, length={"is_metric": True, "raw": "METERS"})
    ctx = ifcopenshell.api.context.add_context(m, context_type="Model")
    body = ifcopenshell.api.context.add_context(m, context_type="Model", context_identifier="Body",
                                                target_view="MODEL_VIEW", parent=ctx)
    site = ifcopenshell.api.root.create_entity(m, ifc_class="IfcSite", name="site")
    building = ifcopenshell.api.root.create_entity(m, ifc_class="IfcBuilding", name="building")
    ifcopenshell.api.aggregate.assign_object(m, products=[site], relating_object=project)
    ifcopenshell.api.aggregate.assign_object(m, products=[building], relating_object=site)
    holder = building
    if storey:
        holder = ifcopenshell.api.root.create_entity(m, ifc_class="IfcBuildingStorey", name="EG")
        ifcopenshell.api.aggregate.assign_object(m, products=[holder], relating_object=building)
    for i in range(2):
        wall = ifcopenshell.api.root.create_entity(m, ifc_class="IfcWall", name=f"wall {i}")
        rep = ifcopenshell.api.geometry.add_wall_representation(m, context=body, length=4, height=3, thickness=0.2)
        ifcopenshell.api.geometry.assign_representation(m, product=wall, representation=rep)
        ifcopenshell.api.geometry.edit_object_placement(m, product=wall, matrix=_translation(0.0, 4.0 * i, 0.0))
        ifcopenshell.api.spatial.assign_container(m, products=[wall], relating_structure=holder)
    if space:
        sp = ifcopenshell.api.root.create_entity(m, ifc_class="IfcSpace", name="R1")
        sp.LongName = "Room one"
        rep = ifcopenshell.api.geometry.add_wall_representation(m, context=body, length=4, height=3, thickness=3.6)
        ifcopenshell.api.geometry.assign_representation(m, product=sp, representation=rep)
        ifcopenshell.api.geometry.edit_object_placement(m, product=sp, matrix=_translation(0.0, 0.2, 0.0))
        ifcopenshell.api.aggregate.assign_object(m, products=[sp], relating_object=holder)
    m.write(str(path))
    return path


def _translation(x: float, y: float, z: float):  # noqa: ANN202
    import numpy as np

    t = np.eye(4)
    t[:3, 3] = (x, y, z)
    return t


# ---- broken files ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("broken")
    data = FZK.read_bytes()
    files = {
        "text": b"this is a shopping list, not a building\n",
        "empty": b"",
        "truncated_half": data[: len(data) // 2],
        "truncated_tail": data[:-40],
        "truncated_header": data[:300],
        "binary": bytes(range(256)) * 40,
        "bad_schema": b"ISO-10303-21;\nHEADER;\nFILE_SCHEMA(('IFC9'));\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n",
        "no_project": (b"ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION((''),'2;1');\nFILE_NAME('','',(''),(''),'','','');\n"
                       b"FILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\n#1=IFCCARTESIANPOINT((0.,0.,0.));\nENDSEC;\n"
                       b"END-ISO-10303-21;\n"),
    }
    out = {}
    for name, content in files.items():
        p = d / f"{name}.ifc"
        p.write_bytes(content)
        out[name] = p
    out["missing"] = d / "does-not-exist.ifc"
    out["directory"] = d
    return out


EXPECTED_MESSAGE = {
    "text": "not an IFC file", "empty": "empty", "truncated_half": "truncated", "truncated_tail": "truncated",
    "truncated_header": "truncated", "binary": "not an IFC file", "bad_schema": "cannot be read",
    "no_project": "no IfcProject", "missing": "no such file", "directory": "no such file",
}


@pytest.mark.parametrize("name", sorted(EXPECTED_MESSAGE))
def test_load_refuses_broken_files(broken: dict[str, Path], name: str, tmp_path: Path) -> None:
    with pytest.raises(IfcLoadError) as info:
        load(broken[name], cache=tmp_path)
    assert EXPECTED_MESSAGE[name] in str(info.value)
    assert not list(tmp_path.glob("buildings/*/building.json"))  # nothing half-written into the cache


@pytest.mark.parametrize("name", ["text", "truncated_half", "bad_schema", "missing"])
def test_cli_load_and_script_report_broken_files(broken: dict[str, Path], name: str, tmp_path: Path) -> None:
    for args in (["load", str(broken[name])], ["script", "--ifc", str(broken[name])]):
        r = cli(*args, stdin='{"state": true}\n', cache=tmp_path)
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr.startswith("error: ") and EXPECTED_MESSAGE[name] in r.stderr
        assert "Traceback" not in r.stderr and r.stdout == ""


def test_cli_load_prints_a_summary() -> None:
    r = cli("load", str(FZK))
    assert r.returncode == 0, r.stderr
    assert "Erdgeschoss" in r.stdout and "<- ground floor" in r.stdout and "IfcDoor" in r.stdout
    assert "true north: 40.0" in r.stdout


# ---- buildings without storeys or rooms ------------------------------------------------------------------
def test_building_without_storeys(tmp_path: Path) -> None:
    s = Session.open(tiny_ifc(tmp_path / "nostorey.ifc", storey=False, space=False), cache=tmp_path)
    b = s.building
    assert b.storeys == [] and b.ground_storey is None
    assert {e.name for e in b.products()} == {"wall 0", "wall 1"}
    assert any("no storeys" in w for w in b.warnings)
    before = copy.deepcopy(s.state())
    r = s.do({"steps": [{"op": "count", "target": {"class": ["IfcWall"], "storey": "ground"}}]})
    assert not r.ok and "no storeys" in r.answer
    r = s.do({"steps": [{"op": "count", "target": {"class": ["IfcWall"]}}]})
    assert r.ok and r.value == 2
    assert s.do({"steps": [{"op": "where_am_i"}]}).ok
    assert s.state() == before


def test_building_without_spaces(tmp_path: Path) -> None:
    s = Session.open(tiny_ifc(tmp_path / "nospace.ifc", storey=True, space=False), cache=tmp_path)
    assert s.building.spaces() == [] and len(s.building.storeys) == 1
    assert any("no spaces" in w for w in s.building.warnings)
    before, rev = copy.deepcopy(s.state()), s.revision
    for program, words in (
        ({"steps": [{"op": "teleport", "target": {"room": "kitchen"}}]}, "no room called 'kitchen'"),
        ({"steps": [{"op": "route", "to": {"room": "kitchen"}}]}, "no room called"),
        ({"steps": [{"op": "hide", "target": {"class": ["IfcWall"], "relations": [{"rel": "in"}]}}]},
         "not inside a room"),
    ):
        r = s.do(program)
        assert not r.ok and words in r.answer, r.answer
    where = s.do({"steps": [{"op": "where_am_i"}]})
    assert where.ok and "not in a room" in where.answer
    assert s.state() == before and s.revision == rev


def test_tiny_building_with_a_space(tmp_path: Path) -> None:
    """The same two walls with a room between them: the room is found and the walls bound it."""
    s = Session.open(tiny_ifc(tmp_path / "space.ifc", storey=True, space=True), cache=tmp_path)
    (room,) = s.building.spaces()
    assert room.long_name == "Room one"
    assert all(room.id in e.sides for e in s.building.products())
    s.set_pose(pose(0.0, 2.0, 1.6, 90))
    assert s.do({"steps": [{"op": "where_am_i"}]}).value == "Room one"


def test_miniproject_has_no_rooms(mini: Loaded) -> None:
    s = mini.session()
    r = s.do({"steps": [{"op": "count", "target": {"class": ["IfcBeam"], "room": "office"}}]})
    assert not r.ok and "no room called 'office'" in r.answer
    r = s.do({"steps": [{"op": "count", "target": {"class": ["IfcBeam"], "storey": "ground"}}]})
    assert r.ok and r.value == sum(1 for e in s.building.products() if e.ifc_class == "IfcBeam")


# ---- unknown ids, malformed programs -------------------------------------------------------------------------
UNKNOWN = "0000000000000000000000"
BAD_PROGRAMS = [
    None, [], "hide the door", 42, {}, {"steps": []}, {"steps": "hide"},
    {"steps": [{"op": "explode", "target": {}}]},
    {"steps": [{"op": "hide"}]},
    {"steps": [{"op": "hide", "target": {"class": ["Door"]}}]},
    {"steps": [{"op": "hide", "target": {"colour": "red"}}]},
    {"steps": [{"op": "color", "target": {"class": ["IfcDoor"]}, "rgba": [2, 0, 0, 1]}]},
    {"steps": [{"op": "turn", "degrees": "ninety"}]},
    {"steps": [{"op": "hide", "target": {"class": ["IfcDoor"]}}] * 9},
    {"steps": [{"op": "hide", "target": {"class": ["IfcDoor"]}}], "extra": True},
    {"steps": [{"op": "hide", "target": {"ids": ["not-a-globalid"]}}]},
    {"steps": [{"op": "hide", "target": {"ids": [UNKNOWN]}}]},
    {"steps": [{"op": "hide", "target": {"class": ["IfcDoor"]}}, {"op": "undo"}]},
    {"steps": [{"op": "list", "target": {"step": 3}}]},
    {"steps": [{"op": "hide", "target": {"ref": "it"}}]},
    {"steps": [{"op": "teleport", "position": [1e9, 0, 0]}]},
    {"steps": [{"op": "teleport", "position": [50.0, 50.0, 0.0]}]},
]


@pytest.mark.parametrize("program", BAD_PROGRAMS, ids=[json.dumps(p)[:60] for p in BAD_PROGRAMS])
def test_bad_programs_fail_cleanly(fzk: Loaded, program: object) -> None:
    s = fzk.session()
    s.set_pose(pose(2.05, 4.6, 1.6, 90))
    before, rev = copy.deepcopy(s.state()), s.revision
    r = s.do(program)
    assert r.ok is False
    assert isinstance(r.error, str) and r.error and isinstance(r.answer, str) and r.answer
    assert "Traceback" not in r.error
    assert s.state() == before and s.revision == rev


def test_unknown_globalid(fzk: Loaded) -> None:
    s = fzk.session()
    before = copy.deepcopy(s.state())
    r = s.select([UNKNOWN])
    assert not r.ok and UNKNOWN in (r.error or "")
    r = s.do({"steps": [{"op": "hide", "target": {"ids": [UNKNOWN]}}]})
    assert not r.ok and UNKNOWN in (r.error or "")
    out = handle_line(s, json.dumps({"select": [UNKNOWN]}))
    assert out["ok"] is False and UNKNOWN in out["error"]
    assert s.state() == before


BAD_LINES = [
    "{not json", "[]", '"pose"', "42", '{"pose": {"position": [1, 2]}}',
    '{"pose": {"position": [1, 2, "x"]}}', '{"pose": {"position": [1, 2, 3], "yaw": "north"}}',
    '{"pose": {"yaw": 90}}', '{"pose": [1, 2, 3]}', '{"say": ""}', '{"say": 5}', '{"select": "abc"}',
    '{"select": [1, 2]}', '{"do": "hide everything"}', '{"jump": true}',
    '{"pose": {"position": [0, 0, 0]}, "say": "x"}',
    '{"do": {"steps": [{"op": "hide", "target": {"class": ["IfcDoor"]}}, {"op": "hide", "target": {"name": "zzz"}}]}}',
]


@pytest.mark.parametrize("line", BAD_LINES)
def test_bad_script_lines(fzk: Loaded, line: str) -> None:
    s = fzk.session()
    before, rev = copy.deepcopy(s.state()), s.revision
    out = handle_line(s, line)
    assert out["ok"] is False and isinstance(out["error"], str) and out["error"]
    json.dumps(out, allow_nan=False)
    assert s.state() == before and s.revision == rev


def test_nan_pose_is_refused(fzk: Loaded) -> None:
    s = fzk.session()
    before = copy.deepcopy(s.state())
    out = handle_line(s, '{"pose": {"position": [NaN, 0, 1.6], "yaw": 0}}')
    assert out["ok"] is False
    assert s.state() == before


def test_cli_script_answers_every_line(tmp_path: Path) -> None:
    lines = [
        '{"pose": {"position": [2.05, 4.6, 1.6], "yaw": 90, "pitch": 0}}',
        '{"do": {"steps": [{"op": "list", "target": {"class": ["IfcDoor"], "relations": [{"rel": "in_front"}], '
        '"order": "nearest", "limit": 1}}]}}',
        "{broken",
        '{"do": {"steps": [{"op": "fly"}]}}',
        '{"select": ["0000000000000000000000"]}',
        '{"do": {"steps": [{"op": "hide", "target": {"ref": "it"}}]}}',
        '{"state": true}',
    ]
    r = cli("script", "--ifc", str(FZK), stdin="\n".join(lines) + "\n")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(out) == len(lines)
    assert out[0] == {"ok": True}
    assert out[1]["ok"] and out[1]["value"] == ["2qiPPF3FrF8OIqfrKiSUqm"]  # Innentuer-3
    assert [o["ok"] for o in out[2:5]] == [False, False, False]
    assert out[5]["ok"] is True  # "it" is the door the list step talked about
    assert out[6]["hidden"] == ["2qiPPF3FrF8OIqfrKiSUqm"]
    assert out[6]["pose"] == {"position": [2.05, 4.6, 1.6], "yaw": 90.0, "pitch": 0.0}


def test_cli_query_with_a_bad_program_file(tmp_path: Path) -> None:
    bad = tmp_path / "p.json"
    bad.write_text("{oops")
    r = cli("query", "--ifc", str(FZK), str(bad))
    assert r.returncode == 2 and r.stderr.startswith("error:") and "Traceback" not in r.stderr
    good = tmp_path / "q.json"
    good.write_text(json.dumps({"steps": [{"op": "count", "target": {"class": ["IfcWindow"], "storey": "ground"}}]}))
    r = cli("query", "--ifc", str(FZK), str(good))
    assert r.returncode == 0 and json.loads(r.stdout)["value"] == 9
