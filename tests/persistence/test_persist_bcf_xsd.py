"""Every BCF file the product writes is valid against buildingSMART's BCF 2.1 schemas (the XSDs in
shared/schemas/bcf-2.1 beside the repository): notes with and without hidden elements, with a section,
with characters XML cannot hold, and the remembered views exported as viewpoint topics."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from pyagent.bcf import read_bcfzip
from pyagent.model import Pose
from pyagent.session import Session

REPO = Path(__file__).resolve().parents[2]
XSD_DIR = REPO.parent / "shared" / "schemas" / "bcf-2.1"
SCHEMAS = {".bcfv": "visinfo.xsd", "markup.bcf": "markup.xsd", "bcf.version": "version.xsd",
           "project.bcfp": "project.xsd"}

etree = pytest.importorskip("lxml.etree")
pytestmark = pytest.mark.skipif(not XSD_DIR.is_dir(), reason=f"the BCF 2.1 XSDs are not at {XSD_DIR}")


def _schema(name: str):  # noqa: ANN202 - lxml's XMLSchema
    return etree.XMLSchema(etree.parse(str(XSD_DIR / name)))


def _validate_archive(path: Path) -> int:
    checked = 0
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            xsd = next((x for suffix, x in SCHEMAS.items() if name.endswith(suffix)), None)
            if xsd is None:
                continue
            doc = etree.fromstring(z.read(name))
            schema = _schema(xsd)
            assert schema.validate(doc), f"{name}: {schema.error_log.last_error}"
            checked += 1
    return checked


def test_exported_notes_and_views_are_valid_bcf_2_1(tmp_path: Path) -> None:
    src = tmp_path / "house.ifc"
    shutil.copy(REPO / "ifc" / "AC20-FZK-Haus.ifc", src)
    s = Session.open(src, journal_dir=tmp_path / "j", save_dir=tmp_path / "out")
    try:
        s.set_pose(Pose.from_json({"position": [4.0, 4.5, 1.6], "yaw": 0.0, "pitch": 0.0}))
        # Nothing hidden: no empty <Exceptions/>, which the schema refuses.
        assert s.do({"steps": [{"op": "note", "text": "Check the \"Flur\" width",
                                "target": {"class": ["IfcDoor"], "limit": 1, "order": "nearest"}}]}).ok
        # A section, hidden walls, and control characters that XML 1.0 cannot hold.
        assert s.say("cut the building at 1.2 metres").ok
        assert s.do({"steps": [{"op": "hide", "target": {"class": ["IfcWindow"]}}]}).ok
        assert s.do({"steps": [{"op": "note", "text": "Too low\x01 here\x0b, see \x1fsection"}]}).ok
        assert s.say("remember this view as Entrance").ok
        path = s.persistence.export_bcf(tmp_path / "notes.bcfzip")
    finally:
        s.close()
    assert _validate_archive(path) == 2 + 3 * 2  # version, project, and a markup and a viewpoint per topic
    data = read_bcfzip(path)
    topics = data["topics"]
    assert len(topics) == 3
    titles = sorted(t["title"] for t in topics)
    assert any("Too low" in t for t in titles) and "View: entrance" in titles
    cut = [t for t in topics if "Too low" in t["title"]][0]
    planes = cut["viewpoints"][0]["clipping_planes"]
    assert len(planes) == 1 and planes[0]["direction"] == [0.0, 0.0, 1.0]
    assert planes[0]["location"][2] == pytest.approx(1.2)
    view = [t for t in topics if t["title"] == "View: entrance"][0]
    assert view["viewpoints"][0]["clipping_planes"] and view["viewpoints"][0]["camera"]["position"] == [4.0, 4.5, 1.6]


def test_export_the_notes_by_voice_and_from_the_command_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    src = tmp_path / "house.ifc"
    shutil.copy(REPO / "ifc" / "AC20-FZK-Haus.ifc", src)
    s = Session.open(src, journal_dir=tmp_path / "j", save_dir=tmp_path / "out")
    try:
        assert s.say("note that the hall is too narrow").ok
        r = s.say("export the notes")
        assert r.ok and r.program == {"steps": [{"op": "export_notes"}]}, r.answer
        written = sorted((tmp_path / "out").glob("*.bcfzip"))
        assert len(written) == 1 and written[0].name in r.answer
        assert not list((tmp_path / "out").glob("*.ifc")), "exporting notes writes no revision"
        assert _validate_archive(written[0]) == 4
    finally:
        s.close()
    out = tmp_path / "cli.bcfzip"
    done = subprocess.run([sys.executable, "-m", "pyagent", "notes", "--ifc", str(src),
                           "--journal", str(tmp_path / "j"), "--out", str(out)],
                          capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    assert _validate_archive(out) == 4
    assert [t["title"] for t in read_bcfzip(out)["topics"]] == ["the hall is too narrow"]
