"""Paths: nothing a message carries can make the agent read or write outside its folders."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest
from persist_helpers import FZK, copy_ifc

from pyagent.persistence import safe_child
from pyagent.session import Session

ESCAPES = ["../x", "../../etc/passwd", "/etc/passwd", "a/../../b", "topics/../../x", "", "a\x00b"]


@pytest.mark.parametrize("name", ESCAPES)
def test_names_that_leave_the_folder_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError):
        safe_child(tmp_path, name)


def test_links_that_point_out_are_refused(tmp_path: Path) -> None:
    (tmp_path / "inside").mkdir()
    os.symlink("/etc", tmp_path / "inside" / "out")
    with pytest.raises(ValueError):
        safe_child(tmp_path / "inside", "out/passwd")
    assert safe_child(tmp_path, "inside/a.json") == (tmp_path / "inside" / "a.json").resolve()


def test_path_like_text_in_requests_stays_text(tmp_path: Path) -> None:
    """Free text (note text, names, storeys, rooms) never becomes a file name: notes are stored by their
    own generated id and exported under it."""
    ifc = copy_ifc(FZK, tmp_path / "model")
    s = Session.open(ifc, journal_dir=tmp_path / "journal", save_dir=tmp_path / "out")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    for text in ("../../../../tmp/evil", "/etc/passwd", "C:\\Windows\\system32", "topics/../../x.json"):
        r = s.do({"steps": [{"op": "note", "text": text, "target": {"class": ["IfcWindow"], "ordinal": 1}}]})
        assert r.ok, r.error
        for key in ("name", "storey", "room", "kind"):
            s.do({"steps": [{"op": "count", "target": {key: text}}]})
    created = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.relative_to(tmp_path) not in before)
    topics = [p for p in created if p.parent == Path("journal/topics")]
    assert len(topics) == 4 and all(len(p.stem) == 36 and p.suffix == ".json" for p in topics)
    assert all(p.parts[0] == "journal" for p in created)
    archive = s.persistence.export_bcf(tmp_path / "out.bcfzip")
    with zipfile.ZipFile(archive) as z:
        assert all(n in ("bcf.version", "project.bcfp") or (len(n.split("/")) == 2 and len(n.split("/")[0]) == 36)
                   for n in z.namelist())
