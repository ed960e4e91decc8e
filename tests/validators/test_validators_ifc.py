"""A saved revision passes ``ifcopenshell.validate --rules`` (schema and EXPRESS rules) with no finding the
source did not already have, reads back as the review left it (hidden elements too), carries the
openings of moved doors and windows along, and has a header of its own."""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import Any

import ifcopenshell
import ifcopenshell.util.placement
import ifcopenshell.validate
import numpy as np
import pytest
from persist_helpers import FZK, copy_ifc, element_ids

from pyagent.ifcsave import edit_matrix
from pyagent.session import Session


@functools.lru_cache(maxsize=4)
def rule_findings(path: str) -> Counter[tuple[str, str, str]]:
    """What ``python -m ifcopenshell.validate --rules`` reports, keyed by kind, rule or attribute and the
    class of the instance (instance numbers differ between files)."""
    logger = ifcopenshell.validate.json_logger()
    ifcopenshell.validate.validate(ifcopenshell.open(path), logger, express_rules=True)
    keys: Counter[tuple[str, str, str]] = Counter()
    for s in logger.statements:
        inst = str(s.get("instance", ""))
        cls = inst.split("=", 1)[1].split("(", 1)[0] if "=" in inst else ""
        keys[(str(s.get("type")), str(s.get("attribute")), cls)] += 1
    return keys


def world(entity: Any) -> np.ndarray:
    return np.asarray(ifcopenshell.util.placement.get_local_placement(entity.ObjectPlacement), float)


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One review of the house touching every kind of edit, saved as a revision."""
    folder = tmp_path_factory.mktemp("review")
    ifc = copy_ifc(FZK, folder / "model")
    s = Session.open(ifc)
    b = s.building
    walls = element_ids(b, "IfcWallStandardCase") or element_ids(b, "IfcWall")
    doors, windows, slabs = element_ids(b, "IfcDoor"), element_ids(b, "IfcWindow"), element_ids(b, "IfcSlab")
    room = max(b.spaces(), key=lambda e: e.quantities.get("area", 0.0)).id
    steps = [
        {"op": "hide", "target": {"ids": walls[:2] + windows[4:6] + slabs[:1]}},
        {"op": "move", "target": {"ids": doors[:1]}, "delta": [0.4, 0.0, 0.0]},
        {"op": "rotate", "target": {"ids": windows[:1]}, "degrees": 20},
        {"op": "move", "target": {"ids": windows[1:2]}, "delta": [0.0, 0.0, 0.3]},
        {"op": "color", "target": {"ids": walls[2:4] + windows[2:3]}, "rgba": [1, 0, 0, 0.6]},
        {"op": "delete", "target": {"ids": windows[3:4]}},
        {"op": "add_prop", "asset": "sofa", "anchor": {"ids": [room]}, "placement": "in"},
    ]
    for step in steps:
        r = s.do({"steps": [step]})
        assert r.ok, (step, r.error)
    prop = s.state()["props"][0]["id"]
    assert s.do({"steps": [{"op": "hide", "target": {"ids": [prop]}}]}).ok
    r = s.say("save")
    assert r.ok, r.error
    return {"session": s, "source": ifc, "revision": s.persistence.last_save.path, "doors": doors,
            "windows": windows, "walls": walls}


def test_the_revision_has_no_new_rule_violations(review: dict[str, Any]) -> None:
    before, after = rule_findings(str(FZK)), rule_findings(str(review["revision"]))
    assert not (after - before), after - before


def test_hidden_elements_are_hidden_when_the_revision_is_opened(review: dict[str, Any]) -> None:
    s: Session = review["session"]
    again = Session.open(review["revision"])
    assert again.state()["hidden"] == s.state()["hidden"]


def test_showing_again_in_a_later_revision_shows(review: dict[str, Any], tmp_path: Path) -> None:
    revision = copy_ifc(review["revision"], tmp_path, "house.rev1.ifc")
    s = Session.open(revision)
    shown = review["walls"][0]
    assert s.do({"steps": [{"op": "show", "target": {"ids": [shown]}}]}).ok
    assert s.say("save").ok
    later = Session.open(s.persistence.last_save.path)
    assert later.state()["hidden"] == s.state()["hidden"] and shown not in later.state()["hidden"]


def test_openings_follow_moved_doors_and_windows(review: dict[str, Any]) -> None:
    s: Session = review["session"]
    src = ifcopenshell.open(str(FZK))
    rev = ifcopenshell.open(str(review["revision"]))
    transforms = s.state()["transforms"]
    moved = [review["doors"][0], review["windows"][0], review["windows"][1]]
    for gid in moved:
        old_opening = src.by_guid(gid).FillsVoids[0].RelatingOpeningElement
        new_opening = rev.by_guid(gid).FillsVoids[0].RelatingOpeningElement
        edit = edit_matrix(s.building.elements[gid].centre, transforms[gid])
        expected = edit @ world(old_opening)  # FZK-Haus is in metres
        assert np.allclose(world(new_opening), expected, atol=1e-6), gid
        # and the filling keeps its place in the opening
        rel_old = np.linalg.inv(world(old_opening)) @ world(src.by_guid(gid))
        rel_new = np.linalg.inv(world(new_opening)) @ world(rev.by_guid(gid))
        assert np.allclose(rel_old, rel_new, atol=1e-6), gid


def test_the_revision_has_a_header_of_its_own(review: dict[str, Any]) -> None:
    src = ifcopenshell.open(str(FZK)).header.file_name
    rev = ifcopenshell.open(str(review["revision"])).header.file_name
    assert rev.name == review["revision"].name
    assert rev.time_stamp != src.time_stamp and rev.time_stamp[:4].isdigit()
    assert "BIM voice" in rev.originating_system and rev.preprocessor_version.startswith("IfcOpenShell")
