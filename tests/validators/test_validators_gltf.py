"""Every glb the product writes for the shipped files passes the Khronos glTF validator with no error and
no warning: the building of each shipped IFC file, the prop library, and a saved revision's building;
and the buildings of real files whose repeated geometry is drawn through shared, turned meshes."""

from __future__ import annotations

from pathlib import Path

import pytest
from gltf_tool import install, installed, node, validate
from persist_helpers import FZK, copy_ifc, element_ids

from pyagent.loader import load
from pyagent.session import Session

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "ifc").glob("*.ifc"))
PROPS = sorted((ROOT / "addons" / "bimvoice" / "props").glob("*.glb"))

pytestmark = pytest.mark.skipif(node() is None, reason="node is not installed, so the Khronos glTF validator "
                                "(npm gltf-validator) cannot run; install nodejs to run these tests")


@pytest.fixture(scope="module", autouse=True)
def validator() -> None:
    if not installed():
        install()  # what `make setup` does: npm install into .cache/node


def assert_valid(files: list[Path]) -> None:
    reports = validate(files)
    assert [r["file"] for r in reports] == [str(f) for f in files]
    bad = {r["file"]: r["messages"] for r in reports if r["errors"] or r["warnings"]}
    assert not bad, bad


def test_the_shipped_buildings_glbs_are_valid() -> None:
    assert len(SHIPPED) >= 3
    assert_valid([load(path).glb_path for path in SHIPPED])


def test_buildings_with_shared_turned_meshes_are_valid(tmp_path: Path) -> None:
    from pyagent.glb import read_glb, write_glb
    from pyagent.language.evaluate import real_dir
    from pyagent.loader import _glb_parts

    real = real_dir()
    paths = [SHIPPED[0]] + ([real / "tekla_TOYO_INK_Legkezelo.ifc", real / "revit2021_tested_sample_project.ifc"]
                            if real is not None else [])
    out = []
    for path in [p for p in paths if p.is_file()]:
        lb = load(path)
        turned = sum("matrix" in n for n in read_glb(lb.glb_path)[0]["nodes"])
        assert turned > 0, path.name
        out.append(lb.glb_path)
        unshared = tmp_path / f"{path.stem}-unshared.glb"
        write_glb(_glb_parts(lb.building, lb.meshes), lb.meshes.materials, unshared, share=False)
        out.append(unshared)
    assert_valid(out)


def test_the_prop_library_is_valid() -> None:
    assert len(PROPS) >= 5
    assert_valid(PROPS)


def test_a_saved_revisions_glb_is_valid(tmp_path: Path) -> None:
    s = Session.open(copy_ifc(FZK, tmp_path / "model"))
    b = s.building
    room = max(b.spaces(), key=lambda e: e.quantities.get("area", 0.0)).id
    for step in ({"op": "delete", "target": {"ids": element_ids(b, "IfcWindow")[:2]}},
                 {"op": "add_prop", "asset": "table", "anchor": {"ids": [room]}, "placement": "in"},
                 {"op": "color", "target": {"ids": element_ids(b, "IfcDoor")[:2]}, "rgba": [0, 0.5, 1, 0.4]}):
        assert s.do({"steps": [step]}).ok, step
    assert s.say("save").ok
    assert_valid([load(s.persistence.last_save.path, cache=tmp_path / "cache").glb_path])
