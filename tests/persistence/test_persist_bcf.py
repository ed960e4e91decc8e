"""Review notes as BCF: "note that this window is too small" makes a topic with the user's viewpoint, the
elements and the transcript; the .bcfzip re-reads as BCF 2.1 with the structure review tools expect."""

from __future__ import annotations

import json
import math
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from persist_helpers import element_ids

from pyagent.bcf import BcfError, Topic, read_bcfzip
from pyagent.model import Pose
from pyagent.session import Session

# The child order BCF 2.1's markup.xsd prescribes for Topic and Comment (a subset we may write).
TOPIC_ORDER = ["ReferenceLink", "Title", "Priority", "Index", "Labels", "CreationDate", "CreationAuthor",
               "ModifiedDate", "ModifiedAuthor", "DueDate", "AssignedTo", "Stage", "Description", "BimSnippet",
               "DocumentReference", "RelatedTopic"]
COMMENT_ORDER = ["Date", "Author", "Comment", "Viewpoint", "ModifiedDate", "ModifiedAuthor"]
MARKUP_ORDER = ["Header", "Topic", "Comment", "Viewpoints"]
COMPONENTS_ORDER = ["ViewSetupHints", "Selection", "Visibility", "Coloring"]
CAMERA_ORDER = ["CameraViewPoint", "CameraDirection", "CameraUpVector", "FieldOfView"]


def in_order(children: list[str], order: list[str]) -> bool:
    positions = [order.index(c) for c in children]
    return positions == sorted(positions)


def noted_session(path: Path, journal: Path | None = None) -> tuple[Session, str]:
    s = Session.open(path, journal_dir=journal, pose_interval_s=0.0)
    window = element_ids(s.building, "IfcWindow")[0]
    wall = element_ids(s.building, "IfcWall")[0]
    s.do({"steps": [{"op": "hide", "target": {"ids": [wall]}}]})
    s.do({"steps": [{"op": "color", "target": {"ids": [window]}, "rgba": [1, 0.5, 0, 1]}]})
    s.set_pose(Pose.from_json({"position": [5.0, 4.0, 1.6], "yaw": 90.0, "pitch": -10.0}))
    assert s.select([window]).ok
    r = s.say("note that this window is too small")
    assert r.ok, r.error
    return s, window


def test_a_spoken_note_becomes_a_topic_with_viewpoint_and_transcript(fzk_copy: Path, tmp_path: Path) -> None:
    s, window = noted_session(fzk_copy)
    (topic,) = s.persistence.topics.topics
    assert topic.title == "this window is too small"
    assert topic.transcript == "note that this window is too small"
    assert topic.selected == [window]
    out = s.persistence.export_bcf(tmp_path / "review.bcfzip")
    data = read_bcfzip(out)
    assert data["version"] == "2.1" and data["detailed_version"] == "2.1"
    assert data["project"]["name"] == s.building.project_name
    (t,) = data["topics"]
    assert t["guid"] == topic.guid == t["folder"] and t["title"] == "this window is too small"
    assert t["type"] == "Issue" and t["status"] == "Open" and t["author"]
    assert "this window is too small" in t["description"]
    assert t["comments"][0]["text"] == "note that this window is too small"
    assert t["file"]["filename"] == fzk_copy.name and len(t["file"]["ifc_project"]) == 22
    (vp,) = t["viewpoints"]
    assert t["comments"][0]["viewpoint"] == vp["guid"] == vp["visinfo_guid"]
    assert vp["selected"] == [window]
    assert vp["default_visibility"] == "true" and vp["exceptions"] == s.state()["hidden"]
    assert vp["colors"] == {window: "FFFF8000"}
    cam = vp["camera"]
    assert cam["position"] == [5.0, 4.0, 1.6]
    p = math.radians(-10.0)
    assert cam["direction"] == pytest.approx([0.0, math.cos(p), math.sin(p)], abs=1e-9)
    assert sum(a * b for a, b in zip(cam["direction"], cam["up"], strict=True)) == pytest.approx(0.0, abs=1e-9)
    assert 45.0 <= cam["fov"] <= 60.0


def test_the_archive_follows_the_bcf_2_1_layout(fzk_copy: Path, tmp_path: Path) -> None:
    s, _ = noted_session(fzk_copy)
    s.do({"steps": [{"op": "note", "text": "the stair is too steep", "target": {"class": ["IfcStair"],
                                                                                "limit": 1, "order": "nearest"}}]})
    out = s.persistence.export_bcf(tmp_path / "review.bcfzip")
    with zipfile.ZipFile(out) as z:
        names = set(z.namelist())
        topics = {n.split("/")[0] for n in names if "/" in n}
        assert len(topics) == 2
        assert names == {"bcf.version", "project.bcfp"} | {f"{t}/markup.bcf" for t in topics} | {
            f"{t}/viewpoint.bcfv" for t in topics}
        version = ET.fromstring(z.read("bcf.version"))
        assert version.tag == "Version" and version.get("VersionId") == "2.1"
        project = ET.fromstring(z.read("project.bcfp"))
        assert project.tag == "ProjectExtension" and project.find("Project").get("ProjectId")
        for t in topics:
            markup = ET.fromstring(z.read(f"{t}/markup.bcf"))
            assert markup.tag == "Markup" and in_order([c.tag for c in markup], MARKUP_ORDER)
            topic = markup.find("Topic")
            assert topic.get("Guid") == t
            assert in_order([c.tag for c in topic], TOPIC_ORDER)
            assert {"Title", "CreationDate", "CreationAuthor"} <= {c.tag for c in topic}
            for c in markup.findall("Comment"):
                assert in_order([x.tag for x in c], COMMENT_ORDER)
            vis = ET.fromstring(z.read(f"{t}/viewpoint.bcfv"))
            assert vis.tag == "VisualizationInfo" and vis.get("Guid")
            assert in_order([c.tag for c in vis.find("Components")], COMPONENTS_ORDER)
            assert [c.tag for c in vis.find("PerspectiveCamera")] == CAMERA_ORDER


def test_notes_survive_a_restart_and_go_out_with_the_saved_revision(fzk_copy: Path, tmp_path: Path) -> None:
    s, _ = noted_session(fzk_copy, tmp_path / "j")
    guid = s.persistence.topics.topics[0].guid
    s.close()
    s2 = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    assert [t.guid for t in s2.persistence.topics.topics] == [guid]
    assert s2.restore_report.topics == 1
    assert s2.do({"steps": [{"op": "save"}]}).ok
    archive = fzk_copy.parent / f"{fzk_copy.stem}.rev1.bcfzip"
    assert [t["guid"] for t in read_bcfzip(archive)["topics"]] == [guid]


def test_a_note_in_a_failing_program_is_not_kept(fzk_copy: Path, tmp_path: Path) -> None:
    s = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    r = s.do({"steps": [{"op": "note", "text": "too dark", "target": {"class": ["IfcWindow"], "ordinal": 1}},
                        {"op": "hide", "target": {"class": ["IfcDoor"], "name": "no such door"}}]})
    assert not r.ok and "step 1" in (r.error or "")  # the note step ran; the next one failed
    assert s.persistence.topics.topics == []
    assert not list((tmp_path / "j" / "topics").glob("*.json"))
    assert s.do({"steps": [{"op": "note", "text": "too dark", "target": {"class": ["IfcWindow"], "ordinal": 1}}]}).ok
    assert len(list((tmp_path / "j" / "topics").glob("*.json"))) == 1


def test_bad_stored_topics_are_skipped(fzk_copy: Path, tmp_path: Path) -> None:
    s, _ = noted_session(fzk_copy, tmp_path / "j")
    s.close()
    folder = tmp_path / "j" / "topics"
    (folder / "junk.json").write_text("{not json")
    bad = {"guid": "../../x", "title": "t", "description": "", "author": "a", "created": "now",
           "camera": {"position": [0, 0, 0], "direction": [1, 0, 0], "up": [0, 0, 1]},
           "viewpoint_guid": "x", "comment_guid": "y"}
    (folder / "evil.json").write_text(json.dumps(bad))
    s2 = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    assert len(s2.persistence.topics.topics) == 1
    assert len([p for p in s2.restore_report.problems if "skipped review note" in p]) == 2
    with pytest.raises(ValueError):
        Topic.from_json(bad)


@pytest.mark.parametrize("members", [
    {"../evil.txt": b"x", "bcf.version": b"<Version VersionId='2.1'/>"},
    {"bcf.version": b"<!DOCTYPE x [<!ENTITY a 'aaaa'>]><Version>&a;</Version>"},
    {"bcf.version": b"<Version VersionId='2.1'/>", "t/markup.bcf": b"<Markup><Topic"},
    {"markup.bcf": b"<Markup/>"},
])
def test_hostile_archives_are_refused(tmp_path: Path, members: dict[str, bytes]) -> None:
    path = tmp_path / "x.bcfzip"
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    with pytest.raises(BcfError):
        read_bcfzip(path)
    (tmp_path / "n.bcfzip").write_bytes(b"not a zip")
    with pytest.raises(BcfError):
        read_bcfzip(tmp_path / "n.bcfzip")


def test_a_fresh_session_keeps_the_old_notes_aside(fzk_copy: Path, tmp_path: Path) -> None:
    s, _ = noted_session(fzk_copy, tmp_path / "j")
    s.close()
    s2 = Session.open(fzk_copy, journal_dir=tmp_path / "j", fresh=True)
    assert s2.persistence.topics.topics == []
    kept = [p for p in s2.restore_report.set_aside if p.name.startswith("topics.")]
    assert kept and len(list(kept[0].glob("*.json"))) == 1
