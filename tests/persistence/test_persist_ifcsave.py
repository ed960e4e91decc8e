"""Save to IFC: a new revision next to the source with the edits made real; reloading it shows the same
scene; ifcopenshell's validator finds nothing new; the source is never touched."""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import Any

import ifcopenshell
import ifcopenshell.util.element
import ifcopenshell.validate
import numpy as np
import pytest
from persist_helpers import DUPLEX, FZK, MINI, copy_ifc, element_ids

from pyagent import persistence as persistence_mod
from pyagent.ifcfile import file_sha256
from pyagent.ifcsave import HIDDEN_LAYER, SaveError, edit_matrix, safe_stem, save_revision
from pyagent.loader import load
from pyagent.props import PROPS, prop_mesh
from pyagent.session import Session


@functools.lru_cache(maxsize=4)
def validation_errors(path: str) -> Counter[tuple[str, ...]]:
    """ifcopenshell.validate's findings, keyed without instance numbers (they change between files)."""
    logger = ifcopenshell.validate.json_logger()
    ifcopenshell.validate.validate(ifcopenshell.open(path), logger)
    keys: Counter[tuple[str, ...]] = Counter()
    for s in logger.statements:
        inst = str(s.get("instance", ""))
        cls = inst.split("=", 1)[1].split("(", 1)[0] if "=" in inst else ""
        keys[(str(s.get("type")), str(s.get("message")), str(s.get("attribute")), cls)] += 1
    return keys


def review_edits(s: Session) -> dict[str, Any]:
    """A review touching every kind of edit; returns what it did."""
    b = s.building
    walls, windows, doors = element_ids(b, "IfcWall"), element_ids(b, "IfcWindow"), element_ids(b, "IfcDoor")
    slabs = element_ids(b, "IfcSlab")
    room = max(b.spaces(), key=lambda e: e.quantities.get("area", 0.0)).id
    programs = [
        {"op": "color", "target": {"ids": windows[:3]}, "rgba": [1, 0, 0, 1]},
        {"op": "color", "target": {"ids": walls[:2]}, "rgba": [0, 0, 1, 0.5]},
        {"op": "move", "target": {"ids": doors[:1]}, "delta": [0.5, 0.2, 0.0]},
        {"op": "rotate", "target": {"ids": doors[1:2]}, "degrees": 90},
        {"op": "move", "target": {"ids": walls[2:3]}, "delta": [0.3, -0.1, 0.05]},
        {"op": "rotate", "target": {"ids": walls[2:3]}, "degrees": -15},
        {"op": "delete", "target": {"ids": walls[4:5]}},  # a wall with openings: its windows/doors stay
        {"op": "hide", "target": {"ids": slabs[:2]}},
        {"op": "add_prop", "asset": "sofa", "anchor": {"ids": [room]}, "placement": "in"},
        {"op": "add_prop", "asset": "lamp", "anchor": {"ids": [room]}, "placement": "in", "yaw": 30},
    ]
    for step in programs:
        r = s.do({"steps": [step]})
        assert r.ok, (step, r.error)
    lamp = s.state()["props"][-1]["id"]
    assert s.do({"steps": [{"op": "color", "target": {"ids": [lamp]}, "rgba": [0, 1, 0, 1]}]}).ok
    assert s.do({"steps": [{"op": "move", "target": {"ids": [lamp]}, "delta": [0.2, 0.0, 0.0]}]}).ok
    return {"room": room}


def assert_same_scene(s: Session, saved: Path, cache: Path) -> Any:
    """The saved file, loaded by the agent, shows the session's scene."""
    st = s.state()
    old = s.loaded
    new = load(saved, cache=cache).building
    idx = old.meshes.index()
    for gid, el in s.building.elements.items():
        if gid in st["deleted"]:
            assert gid not in new.elements
            continue
        ne = new.elements.get(gid)
        assert ne is not None, f"{el.ifc_class} {el.label()} is missing"
        if not el.has_geometry:
            continue
        if gid in st["transforms"]:
            v = old.meshes.element(idx[gid])[0].astype(float)
            m = edit_matrix(el.centre, st["transforms"][gid])
            v = v @ m[:3, :3].T + m[:3, 3]
            lo, hi = v.min(axis=0), v.max(axis=0)
        else:
            lo, hi = el.bbox_min, el.bbox_max
        assert np.allclose(ne.bbox_min, lo, atol=2e-3) and np.allclose(ne.bbox_max, hi, atol=2e-3), el.label()
        want = st["colors"].get(gid, el.color)
        if want is not None and ne.color is not None:
            assert np.allclose(ne.color, want, atol=2e-3), (el.label(), want, ne.color)
    for prop in st["props"]:
        ne = new.elements.get(prop["id"])
        assert ne is not None and ne.ifc_class.startswith("IfcFurni"), prop
        v, _ = prop_mesh(prop["asset"])
        a = np.radians(prop["yaw"])
        rot = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
        v = v @ rot.T + np.asarray(prop["position"])
        assert np.allclose(ne.bbox_min, v.min(axis=0), atol=2e-3) and np.allclose(ne.bbox_max, v.max(axis=0),
                                                                                  atol=2e-3)
        room = s.graph.room_at(np.asarray(prop["position"]) + [0, 0, 0.5])
        assert ne.room == room and ne.storey == s.building.elements[room].storey
        assert np.allclose(ne.color, st["colors"].get(prop["id"], PROPS[prop["asset"]].rgba), atol=2e-3)
    return new


@pytest.mark.parametrize("source", [FZK, DUPLEX], ids=["ifc4-house", "ifc2x3-duplex"])
def test_save_writes_a_revision_that_reopens_as_the_same_scene(source: Path, tmp_path: Path) -> None:
    ifc = copy_ifc(source, tmp_path / "model")
    sha = file_sha256(ifc)
    s = Session.open(ifc)
    review_edits(s)
    r = s.do({"steps": [{"op": "save"}]})
    assert r.ok, r.error
    saved = ifc.parent / f"{ifc.stem}.rev1.ifc"
    assert saved.is_file() and str(saved) in r.answer
    assert file_sha256(ifc) == sha  # the source is never touched
    assert_same_scene(s, saved, tmp_path / "cache")
    # ifcopenshell's validator: no finding that the source did not already have
    before, after = validation_errors(str(source)), validation_errors(str(saved))
    assert not (after - before), after - before
    # owner history: the reviewer and this application, ADDED for props, MODIFIED for edited elements
    model = ifcopenshell.open(str(saved))
    st = s.state()
    app = [a for a in model.by_type("IfcApplication") if a.ApplicationIdentifier == "pyagent"]
    assert len(app) == 1
    for gid in list(st["colors"])[:3] + list(st["transforms"]):
        if gid in st["deleted"] or gid in {p["id"] for p in st["props"]}:
            continue
        hist = model.by_guid(gid).OwnerHistory
        assert hist.ChangeAction == "MODIFIED" and hist.LastModifyingApplication == app[0]
    for prop in st["props"]:
        assert model.by_guid(prop["id"]).OwnerHistory.ChangeAction == "ADDED"
    # hidden: the items of the elements' body representations sit on a layer that is switched off
    layers = [x for x in model.by_type("IfcPresentationLayerWithStyle") if x.Name == HIDDEN_LAYER]
    assert len(layers) == 1 and layers[0].LayerOn is False
    on_layer = set(layers[0].AssignedItems)
    assert all(x.is_a("IfcRepresentationItem") for x in on_layer)
    for gid in st["hidden"]:
        reps = model.by_guid(gid).Representation.Representations
        assert any(rep.Items and set(rep.Items) <= on_layer for rep in reps)


@pytest.mark.slow
def test_save_round_trip_on_the_steel_project(tmp_path: Path) -> None:
    ifc = copy_ifc(MINI, tmp_path / "model")
    s = Session.open(ifc)
    beams = element_ids(s.building, "IfcBeam")
    for step in ({"op": "color", "target": {"ids": beams[:2]}, "rgba": [0, 1, 0, 1]},
                 {"op": "move", "target": {"ids": beams[5:6]}, "delta": [0.5, 0.2, 0.0]},
                 {"op": "rotate", "target": {"ids": beams[6:7]}, "degrees": -15},
                 {"op": "delete", "target": {"ids": beams[8:9]}}, {"op": "hide", "target": {"ids": beams[9:11]}}):
        assert s.do({"steps": [step]}).ok
    assert s.do({"steps": [{"op": "save"}]}).ok
    saved = ifc.parent / f"{ifc.stem}.rev1.ifc"
    assert_same_scene(s, saved, tmp_path / "cache")
    assert not (validation_errors(str(saved)) - validation_errors(str(MINI)))


def test_revisions_are_numbered_and_never_overwrite(fzk_copy: Path, tmp_path: Path) -> None:
    s = Session.open(fzk_copy)
    wall = element_ids(s.building, "IfcWall")[0]
    s.do({"steps": [{"op": "hide", "target": {"ids": [wall]}}]})
    (fzk_copy.parent / f"{fzk_copy.stem}.rev1.ifc").write_text("somebody else's file")
    r1 = s.do({"steps": [{"op": "save"}]})
    r2 = s.do({"steps": [{"op": "save"}]})
    assert r1.ok and r2.ok
    assert (fzk_copy.parent / f"{fzk_copy.stem}.rev1.ifc").read_text() == "somebody else's file"
    assert f"{fzk_copy.stem}.rev2.ifc" in r1.answer and f"{fzk_copy.stem}.rev3.ifc" in r2.answer
    # a revision saved from a revision continues the numbering of the original name
    rev = Session.open(fzk_copy.parent / f"{fzk_copy.stem}.rev3.ifc", cache=tmp_path / "cache")
    assert rev.do({"steps": [{"op": "save"}]}).ok
    assert (fzk_copy.parent / f"{fzk_copy.stem}.rev4.ifc").is_file()
    with pytest.raises(SaveError, match="never overwrites"):
        save_revision(fzk_copy, fzk_copy, s.building, s.state())
    assert safe_stem(Path("../we ird;name.rev12.ifc")) == "we_ird_name"


def test_a_source_that_changed_on_disk_is_not_saved_over(fzk_copy: Path) -> None:
    s = Session.open(fzk_copy)
    with open(fzk_copy, "a") as f:
        f.write("\n/* edited elsewhere */\n")
    r = s.do({"steps": [{"op": "save"}]})
    assert not r.ok and "changed on disk" in (r.error or "")
    assert not list(fzk_copy.parent.glob("*.rev*.ifc"))


def test_revisions_go_elsewhere_when_the_source_folder_is_read_only(fzk_copy: Path, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    s = Session.open(fzk_copy, save_dir=tmp_path / "out")
    assert s.do({"steps": [{"op": "save"}]}).ok
    assert (tmp_path / "out" / f"{fzk_copy.stem}.rev1.ifc").is_file()
    monkeypatch.setattr(persistence_mod, "writable_folder", lambda folder: False)
    monkeypatch.setattr(persistence_mod, "cache_dir", lambda: tmp_path / "cache")
    s2 = Session.open(fzk_copy)
    r = s2.do({"steps": [{"op": "save"}]})
    assert r.ok
    assert list((tmp_path / "cache" / "revisions").glob(f"*/{fzk_copy.stem}.rev1.ifc"))
    assert not list(fzk_copy.parent.glob("*.rev*.ifc"))


def test_saving_does_not_change_the_session(fzk_copy: Path) -> None:
    s = Session.open(fzk_copy)
    review_edits(s)
    before, revision = s.state(), s.revision
    assert s.do({"steps": [{"op": "save"}]}).ok
    assert s.state() == before and s.revision == revision
