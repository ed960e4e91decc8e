"""Files in IFC2X and IFC2X2 (schemas ifcopenshell does not have) are read as IFC2X3 (pyagent/ifcrepair.py):
the header's schema name is rewritten in memory, the user's file is left as it is, the cache key stays
the file's content hash, and the styles IFC2X2 lists directly on a styled item are grouped as IFC2X3 wants.
The real Allplan file (IFC2X_FINAL) is used where the shared folder of public buildings is present."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import ifcopenshell
import ifcopenshell.api.aggregate
import ifcopenshell.api.context
import ifcopenshell.api.geometry
import ifcopenshell.api.owner.settings
import ifcopenshell.api.project
import ifcopenshell.api.root
import ifcopenshell.api.spatial
import ifcopenshell.api.style
import ifcopenshell.api.unit
import pytest
from core_ifc_facts import MINI, ROOT

from pyagent.ifcfile import IfcLoadError, file_sha256, open_ifc
from pyagent.ifcrepair import header_schema
from pyagent.loader import is_cached, load

SHARED = next((f / "shared" / "ifc" / "real" for f in ROOT.parents if (f / "shared" / "ifc" / "real").is_dir()),
              ROOT.parent / "shared" / "ifc" / "real")
SMILEY = SHARED / "allplan_Smiley-West_IFC2X.ifc"
needs_smiley = pytest.mark.skipif(not SMILEY.is_file(), reason="the shared folder of real buildings is absent")


def with_schema(src: Path, dst: Path, schema: str) -> Path:
    """``src`` with its header's FILE_SCHEMA name replaced."""
    data = src.read_bytes()
    named = header_schema(data[:16384])
    assert named is not None
    dst.write_bytes(data[:named[1]] + schema.encode() + data[named[2]:])
    return dst


def test_header_schema_is_read_from_the_header_only() -> None:
    head = b"ISO-10303-21;\nHEADER;\nFILE_SCHEMA (( 'ifc2x2_final' ));\nENDSEC;\nDATA;\n#1=IFCLABEL('x');\n"
    name, start, end = header_schema(head) or ("", 0, 0)
    assert (name, head[start:end]) == ("IFC2X2_FINAL", b"ifc2x2_final")
    assert header_schema(b"HEADER;\nENDSEC;\nDATA;\n#1=IFCX('FILE_SCHEMA((''IFC2X''))');\n") is None


@pytest.mark.parametrize("schema", ["IFC2X", "IFC2X_FINAL", "IFC2X2", "IFC2X2_FINAL"])
def test_an_older_schema_name_reads_as_ifc2x3(schema: str, tmp_path: Path) -> None:
    path = with_schema(MINI, tmp_path / "mini.ifc", schema)
    before = path.read_bytes()
    warnings: list[str] = []
    model = open_ifc(path, warnings)
    assert model.schema == "IFC2X3"
    assert len(warnings) == 1 and warnings[0].startswith("read as IFC2X3:") and schema in warnings[0]
    assert path.read_bytes() == before  # the user's file is never edited
    reference = ifcopenshell.open(str(MINI))
    assert Counter(p.is_a() for p in model.by_type("IfcProduct")) == Counter(
        p.is_a() for p in reference.by_type("IfcProduct"))


def test_ordinary_files_get_no_warning() -> None:
    warnings: list[str] = []
    assert open_ifc(MINI, warnings).schema == "IFC2X3" and warnings == []


@pytest.mark.parametrize("schema", ["IFC2X9", "IFC3", "IFC2X2X"])
def test_other_schemas_are_refused_clearly(schema: str, tmp_path: Path) -> None:
    path = with_schema(MINI, tmp_path / "bad.ifc", schema)
    with pytest.raises(IfcLoadError, match=f"schema {schema} is not supported"):
        load(path, cache=tmp_path)
    assert not list(tmp_path.glob("buildings/*/building.json"))


def test_entities_ifc2x3_lacks_are_counted_in_the_warning(tmp_path: Path) -> None:
    path = with_schema(MINI, tmp_path / "extra.ifc", "IFC2X2_FINAL")
    data = path.read_bytes()
    end = data.rfind(b"ENDSEC;")
    text = data[:end] + b"#999901=IFCOLDTHING('a');\n#999902=IFCOLDTHING('b');\n" + data[end:]
    assert text.count(b"IFCOLDTHING") == 2
    path.write_bytes(text)
    warnings: list[str] = []
    model = open_ifc(path, warnings)
    assert "2 instances" in warnings[0] and "IFCOLDTHING (2)" in warnings[0]
    assert len(model.by_type("IfcProject")) == 1


def styled_wall_ifc2x2(path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """One red wall in a storey, written as IFC2X3 and then turned into IFC2X2's form: the styled item
    lists the surface style itself, with no IfcPresentationStyleAssignment around it."""
    m = ifcopenshell.api.project.create_file(version="IFC2X3")
    user = m.create_entity("IfcPersonAndOrganization", m.create_entity("IfcPerson", FamilyName="tester"),
                           m.create_entity("IfcOrganization", Name="tests"))
    app = m.create_entity("IfcApplication", user.TheOrganization, "1", "pyagent tests", "pyagent-tests")
    monkeypatch.setattr(ifcopenshell.api.owner.settings, "get_user", lambda _f: user)
    monkeypatch.setattr(ifcopenshell.api.owner.settings, "get_application", lambda _f: app)
    project = ifcopenshell.api.root.create_entity(m, ifc_class="IfcProject", name="old")
    ifcopenshell.api.unit.assign_unit(m, length={"is_metric": True, "raw": "METERS"})
    ctx = ifcopenshell.api.context.add_context(m, context_type="Model")
    body = ifcopenshell.api.context.add_context(m, context_type="Model", context_identifier="Body",
                                                target_view="MODEL_VIEW", parent=ctx)
    building = ifcopenshell.api.root.create_entity(m, ifc_class="IfcBuilding", name="building")
    ifcopenshell.api.aggregate.assign_object(m, products=[building], relating_object=project)
    storey = ifcopenshell.api.root.create_entity(m, ifc_class="IfcBuildingStorey", name="EG")
    ifcopenshell.api.aggregate.assign_object(m, products=[storey], relating_object=building)
    wall = ifcopenshell.api.root.create_entity(m, ifc_class="IfcWall", name="red wall")
    rep = ifcopenshell.api.geometry.add_wall_representation(m, context=body, length=4, height=3, thickness=0.2)
    ifcopenshell.api.geometry.assign_representation(m, product=wall, representation=rep)
    ifcopenshell.api.spatial.assign_container(m, products=[wall], relating_structure=storey)
    style = ifcopenshell.api.style.add_style(m, name="red")
    ifcopenshell.api.style.add_surface_style(m, style=style, ifc_class="IfcSurfaceStyleShading",
                                             attributes={"SurfaceColour": {"Name": None, "Red": 1.0, "Green": 0.0,
                                                                           "Blue": 0.0}})
    ifcopenshell.api.style.assign_representation_styles(m, shape_representation=rep, styles=[style])
    m.write(str(path))
    text = path.read_text()
    inner = dict(re.findall(r"#(\d+)=IFCPRESENTATIONSTYLEASSIGNMENT\((\([^)]*\))\);", text))
    assert len(inner) == 1
    text, n = re.subn(r"(IFCSTYLEDITEM\([^,]*,)\(#(\d+)\)", lambda mm: mm.group(1) + inner[mm.group(2)], text)
    assert n == 1
    path.write_text(text.replace("FILE_SCHEMA(('IFC2X3'))", "FILE_SCHEMA(('IFC2X2_FINAL'))"))
    return path


def test_ifc2x2_styles_are_grouped_and_colour_the_element(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = styled_wall_ifc2x2(tmp_path / "styled.ifc", monkeypatch)
    lb = load(path, cache=tmp_path)
    wall = next(e for e in lb.building.elements.values() if e.ifc_class == "IfcWall")
    assert wall.has_geometry and wall.color is not None
    assert wall.color[:3] == pytest.approx((1.0, 0.0, 0.0), abs=0.02)
    assert "styles of 1 styled items were grouped" in lb.building.warnings[0]


@pytest.fixture(scope="module")
def smiley(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    if not SMILEY.is_file():
        pytest.skip("the shared folder of real buildings is absent")
    return load(SMILEY, cache=tmp_path_factory.mktemp("smiley"))


@needs_smiley
def test_smiley_west_loads_as_ifc2x3(smiley) -> None:  # noqa: ANN001
    b = smiley.building
    assert b.schema == "IFC2X3"
    assert b.warnings[0].startswith("read as IFC2X3:") and "IFC2X_FINAL" in b.warnings[0]
    assert b.file_hash == file_sha256(SMILEY)  # the cache key is the user's bytes, not the rewritten text


@needs_smiley
def test_smiley_west_storeys_and_rooms(smiley) -> None:  # noqa: ANN001
    b = smiley.building
    reference = open_ifc(SMILEY)
    assert [s.name for s in b.storeys] == ["Kellergeschoss", "Erdgeschoss", "1.Obergeschoss", "Dachgeschoss", "Dach"]
    assert [round(s.elevation, 2) for s in b.storeys] == [-2.56, 0.18, 2.96, 5.66, 8.18]  # millimetres in the file
    spaces = b.spaces()
    assert len(spaces) == len(reference.by_type("IfcSpace")) == 70
    assert all(sp.name and sp.long_name and sp.storey for sp in spaces)
    assert {sp.long_name for sp in spaces} >= {"Wohnen", "WC", "Bad", "Flur", "Kellerraum", "Schlafen-1"}


@needs_smiley
def test_smiley_west_elements_are_tessellated(smiley) -> None:  # noqa: ANN001
    b, meshes = smiley.building, smiley.meshes
    reference = open_ifc(SMILEY)
    with_body = {p.GlobalId for p in reference.by_type("IfcProduct")
                 if p.Representation is not None and not p.is_a("IfcOpeningElement")}
    assert with_body and with_body <= set(meshes.ids)  # every product with a shape has its mesh
    counts = Counter(e.ifc_class for e in b.elements.values())
    for cls in ("IfcWallStandardCase", "IfcSlab", "IfcDoor", "IfcColumn", "IfcRailing", "IfcSpace"):
        assert counts[cls] == len({p.GlobalId for p in reference.by_type(cls)}) > 0, cls
    walls = [e for e in b.elements.values() if e.ifc_class == "IfcWallStandardCase"]
    assert all(w.materials and w.storey for w in walls)
    assert all(sp.properties.get("Pset_name.Ortscode_Geschoßbezeichnung") for sp in b.spaces())
    assert all(sp.quantities.get("area", 0) > 1 for sp in b.spaces())
    assert all(e.host for e in b.elements.values() if e.ifc_class == "IfcDoor")


@needs_smiley
def test_smiley_west_second_load_is_cached(smiley, tmp_path: Path) -> None:  # noqa: ANN001
    cache = smiley.glb_path.parents[2]
    assert is_cached(SMILEY, cache)
    again = load(SMILEY, cache=cache)
    assert again.cached and len(again.building.elements) == len(smiley.building.elements)
