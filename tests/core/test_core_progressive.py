"""Progressive first load: the fast pass shows a first building, the second pass adds the rest; the
streamed scene equals a one-shot tessellation with the hybrid kernel (same elements, same boxes)."""

from __future__ import annotations

from pathlib import Path

import ifcopenshell
import ifcopenshell.geom
import numpy as np
import pytest
from core_ifc_facts import DUPLEX, FZK, MINI, glb_element_nodes

from pyagent.loader import LoadedBuilding, load, worth_a_first_view
from pyagent.tessellate import BOOLEANS_ENV, GEOMETRY_LIBRARY, SKIPPED_CLASSES


def _one_shot_boxes(path: Path) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Every product's world box from one run of the hybrid kernel over all products."""
    model = ifcopenshell.open(str(path))
    products = [p for p in model.by_type("IfcProduct")
                if not any(p.is_a(c) for c in SKIPPED_CLASSES) and p.Representation is not None]
    settings = ifcopenshell.geom.settings()
    settings.set("use-world-coords", True)
    settings.set("weld-vertices", True)
    it = ifcopenshell.geom.iterator(settings, model, 1, include=products, geometry_library=GEOMETRY_LIBRARY)
    boxes: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    assert it.initialize()
    while True:
        shape = it.get()
        v = np.asarray(shape.geometry.verts, dtype=float).reshape(-1, 3)
        if len(v):
            boxes[shape.guid] = (v.min(axis=0), v.max(axis=0))
        if not it.next():
            break
    return boxes


@pytest.fixture
def streams(monkeypatch: pytest.MonkeyPatch) -> None:
    """Boolean bodies and bodies with openings left to the second pass: duplex's 33 come second, so that it
    streams (with them in the first pass, nothing of any shipped file is left for a second)."""
    monkeypatch.setenv(BOOLEANS_ENV, "0")


@pytest.mark.parametrize(("path", "stream"), [(FZK, False), (DUPLEX, False), (DUPLEX, True)],
                         ids=["fzk", "duplex", "duplex-streamed"])
def test_streamed_scene_equals_one_shot(path: Path, stream: bool, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    if stream:
        monkeypatch.setenv(BOOLEANS_ENV, "0")
    firsts: list[LoadedBuilding] = []
    full = load(path, cache=tmp_path, use_cache=False, first_view=firsts.append)
    one_shot = _one_shot_boxes(path)
    # every element of the one-shot scene is in the streamed one, none lost and none added
    assert set(full.meshes.ids) == set(one_shot)
    assert len(full.meshes.ids) == len(set(full.meshes.ids))
    for i, gid in enumerate(full.meshes.ids):
        v = full.meshes.element(i)[0].astype(float) + full.meshes.origin
        assert np.allclose(v.min(axis=0), one_shot[gid][0], atol=1e-4), gid
        assert np.allclose(v.max(axis=0), one_shot[gid][1], atol=1e-4), gid
    assert full.pending == [] and full.loaded_fraction == 1.0
    assert bool(firsts) == stream
    if not firsts:  # the fast pass did everything: nothing to stream
        return
    first = firsts[0]
    assert len(firsts) == 1 and first.pending
    assert set(first.meshes.ids).isdisjoint(first.pending)
    assert set(first.meshes.ids) | set(first.pending) == set(full.meshes.ids)
    assert 0.0 < first.loaded_fraction < 1.0
    # what the first view shows already has its final box, and only what it has is in its building
    index = full.meshes.index()
    for i, gid in enumerate(first.meshes.ids):
        assert np.allclose(first.meshes.element(i)[0], full.meshes.element(index[gid])[0]), gid
    # the pending elements are known from the first view on, without geometry (queries and changes
    # reach them; their shape comes with the rest)
    for gid in first.pending:
        assert not first.building.elements[gid].has_geometry, gid
        assert first.building.elements[gid].ifc_class == full.building.elements[gid].ifc_class, gid
    shown = {gid for gid in first.meshes.ids if first.building.elements[gid].ifc_class != "IfcSpace"}
    assert set(glb_element_nodes(first.glb_path)) == shown
    assert set(glb_element_nodes(full.glb_path)) == {
        gid for gid in full.meshes.ids if full.building.elements[gid].ifc_class != "IfcSpace"}


def test_no_first_view_when_little_is_left(tmp_path: Path) -> None:
    # MiniProject's fast pass leaves 5 revolved members of 2,636 elements: the whole building comes sooner
    # than a first view would
    firsts: list[LoadedBuilding] = []
    full = load(MINI, cache=tmp_path, use_cache=False, first_view=firsts.append)
    assert not firsts and full.pending == [] and len(full.meshes.ids) > 2000
    assert not worth_a_first_view(2631, 5) and worth_a_first_view(207, 8)


def test_cached_load_has_no_first_view(tmp_path: Path) -> None:
    load(FZK, cache=tmp_path, use_cache=False)
    calls: list[LoadedBuilding] = []
    again = load(FZK, cache=tmp_path, first_view=calls.append)
    assert again.cached and calls == []


@pytest.mark.usefixtures("streams")
def test_session_open_hands_over_the_first_view(tmp_path: Path) -> None:
    from pyagent.session import Session

    firsts: list[LoadedBuilding] = []
    session = Session.open(DUPLEX, cache=tmp_path, use_cache=False, first_view=firsts.append)
    assert len(firsts) == 1 and firsts[0].glb_path.is_file() and firsts[0].glb_path != session.glb_path
    assert set(firsts[0].pending) <= set(session.building.elements)
    assert len(session.loaded.meshes.ids) == len(firsts[0].meshes.ids) + len(firsts[0].pending)
