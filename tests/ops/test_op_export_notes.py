"""``export_notes``: the review notes as a BCF 2.1 archive beside the model."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from ops_support import FZK, step

from pyagent.session import Session


def _copy(tmp_path: Path) -> Path:
    src = tmp_path / "model" / FZK.name
    src.parent.mkdir()
    shutil.copy(FZK, src)
    return src


def test_exports_a_bcf_archive_with_the_note(tmp_path: Path) -> None:
    s = Session.open(_copy(tmp_path), journal_dir=tmp_path / "j")
    assert step(s, "note", text="check the railing height", target={"class": ["IfcStair"]}).ok
    r = step(s, "export_notes")
    archives = list((tmp_path / "model").glob("*.bcfzip"))
    assert r.ok and len(archives) == 1 and r.answer.startswith("Exported 1 note as BCF")
    with zipfile.ZipFile(archives[0]) as z:
        markups = [n for n in z.namelist() if n.endswith("markup.bcf")]
        assert len(markups) == 1 and b"check the railing height" in z.read(markups[0])


def test_nothing_to_export_is_refused(tmp_path: Path) -> None:
    s = Session.open(_copy(tmp_path), journal_dir=tmp_path / "j")
    r = step(s, "export_notes")
    assert not r.ok and "no review notes" in r.answer
    assert not list((tmp_path / "model").glob("*.bcfzip"))
