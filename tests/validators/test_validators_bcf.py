"""Every BCF archive the product writes is valid against the BCF 2.1 XSDs, names the IFC file that holds
the elements it refers to, and keeps the reviewer's words (case, quotes) without characters XML forbids."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import ifcopenshell
import pytest
from bcf_xsd import ROOT, XSD_DIR, xsd_errors
from hypothesis import given, settings
from hypothesis import strategies as st
from persist_helpers import FZK, copy_ifc, element_ids

from pyagent.bcf import make_topic, read_bcfzip, write_bcfzip
from pyagent.session import Session

pytestmark = pytest.mark.skipif(not XSD_DIR.is_dir(), reason=f"the BCF 2.1 XSDs are not at {XSD_DIR} "
                                "(CI has ../shared beside the clone)")


def components(archive: Path) -> set[str]:
    out: set[str] = set()
    for topic in read_bcfzip(archive)["topics"]:
        for vp in topic["viewpoints"]:
            out |= set(vp.get("selected", [])) | set(vp.get("hidden", [])) | set(vp.get("colors", {}))
    return out


@pytest.fixture
def session(tmp_path: Path) -> Session:
    ifc = copy_ifc(FZK, tmp_path / "model")
    return Session.open(ifc, journal_dir=tmp_path / "j")


def test_a_note_with_nothing_hidden_or_selected_is_valid(session: Session) -> None:
    r = session.say("note that the entrance feels cramped")
    assert r.ok, r.error
    archive = session.persistence.export_bcf()
    assert xsd_errors(archive) == []


def test_control_characters_in_notes_give_valid_xml(session: Session) -> None:
    r = session.do({"steps": [{"op": "note", "text": "bell\x07 form\x0c feed\x1b end\ufffe"}]})
    assert r.ok, r.error
    archive = session.persistence.export_bcf()
    assert xsd_errors(archive) == []
    assert read_bcfzip(archive)["topics"][0]["title"] == "bell form feed end"


def test_titles_keep_case_and_quotes(session: Session) -> None:
    r = session.say('Note that the "Haustuer" Door is TOO narrow for O\'Brien!')
    assert r.ok, r.error
    archive = session.persistence.export_bcf()
    assert read_bcfzip(archive)["topics"][0]["title"] == 'the "Haustuer" Door is TOO narrow for O\'Brien!'
    assert xsd_errors(archive) == []


def test_notes_saved_with_a_revision_name_it_and_refer_only_to_what_it_holds(session: Session) -> None:
    b = session.building
    windows, walls = element_ids(b, "IfcWindow"), element_ids(b, "IfcWall")
    room = max(b.spaces(), key=lambda e: e.quantities.get("area", 0.0)).id
    for step in ({"op": "add_prop", "asset": "sofa", "anchor": {"ids": [room]}, "placement": "in"},
                 {"op": "hide", "target": {"ids": walls[:2]}},
                 {"op": "color", "target": {"ids": windows[:1]}, "rgba": [1, 0, 0, 1]}):
        assert session.do({"steps": [step]}).ok, step
    prop = session.state()["props"][0]["id"]
    assert session.do({"steps": [{"op": "note", "text": "sofa and walls", "target": {"ids": [prop, walls[0]]}}]}).ok
    assert session.do({"steps": [{"op": "delete", "target": {"ids": [walls[0]]}}]}).ok
    r = session.say("save")
    assert r.ok, r.error
    revision = session.persistence.last_save.path
    archive = session.persistence.last_bcf
    assert archive == revision.with_suffix(".bcfzip") and xsd_errors(archive) == []
    data = read_bcfzip(archive)
    assert {t["file"]["filename"] for t in data["topics"]} == {revision.name}
    model = ifcopenshell.open(str(revision))
    refs = components(archive)
    assert prop in refs  # the sofa is in the revision
    for gid in refs:
        model.by_guid(gid)  # raises when the revision lacks it
    assert walls[0] not in refs  # deleted in the revision


def test_export_the_notes_by_voice_names_the_source(session: Session) -> None:
    b = session.building
    room = max(b.spaces(), key=lambda e: e.quantities.get("area", 0.0)).id
    chair = {"op": "add_prop", "asset": "chair", "anchor": {"ids": [room]}, "placement": "in"}
    assert session.do({"steps": [chair]}).ok
    prop = session.state()["props"][0]["id"]
    assert session.do({"steps": [{"op": "note", "text": "chair here?", "target": {"ids": [prop]}}]}).ok
    r = session.say("export the notes")
    assert r.ok and r.program == {"steps": [{"op": "export_notes"}]}, r.error
    archive = session.persistence.last_bcf
    assert str(archive) in r.answer and xsd_errors(archive) == []
    data = read_bcfzip(archive)
    assert data["topics"][0]["file"]["filename"] == Path(b.path).name
    assert prop not in components(archive)  # not in the file the archive names


def test_export_without_notes_says_so(session: Session) -> None:
    r = session.say("export the notes")
    assert not r.ok and "no review notes" in r.answer


def test_the_notes_command_exports_a_sessions_notes(session: Session, tmp_path: Path) -> None:
    assert session.say("note that the stairs need a handrail").ok
    session.close()
    out = tmp_path / "review.bcfzip"
    p = subprocess.run([sys.executable, "-m", "pyagent", "notes", "--ifc", session.building.path,
                        "--journal", str(tmp_path / "j"), "--out", str(out)], capture_output=True, text=True,
                       cwd=ROOT, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == str(out) and xsd_errors(out) == []
    assert read_bcfzip(out)["topics"][0]["title"] == "the stairs need a handrail"


@settings(max_examples=60, deadline=None)
@given(text=st.text(min_size=1, max_size=200), transcript=st.none() | st.text(max_size=100))
def test_any_note_text_makes_a_valid_archive(tmp_path_factory: pytest.TempPathFactory, text: str,
                                             transcript: str | None) -> None:
    topic = make_topic(text, [], [1.0, 2.0, 1.6], 30.0, 0.0, [], {}, transcript, "rev\x01iewer", 1)
    out = tmp_path_factory.mktemp("bcf") / f"{uuid.uuid4()}.bcfzip"
    write_bcfzip([topic], out, project_name="P\x00", project_id=str(uuid.uuid4()), ifc_filename="a\x02.ifc")
    assert xsd_errors(out) == []
