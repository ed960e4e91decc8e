"""A building at map coordinates (UTM: 500 km east, 4,500 km north) keeps its millimetres: geometry is
stored relative to a local origin near the building (float64 until then), the origin is kept on the
building, the start pose stands inside it, answers and relative queries are the same as for the
unshifted file, and exports are written back in the file's own frame."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import ifcopenshell
import ifcopenshell.geom
import numpy as np
import pytest
from core_support import Loaded

from pyagent.model import Pose
from pyagent.session import Session
from pyagent.tessellate import FAR_FROM_ORIGIN_M

SHIFT = np.array([500_000.0, 4_500_000.0, 0.0])


@pytest.fixture(scope="module")
def far_house(tmp_path_factory: pytest.TempPathFactory, fzk: Loaded) -> tuple[Path, Session]:
    """The shipped house moved to UTM-scale coordinates by its site's placement (in the file's unit)."""
    model = ifcopenshell.open(str(fzk.path))
    unit = ifcopenshell.util.unit.calculate_unit_scale(model)
    site = model.by_type("IfcSite")[0]
    loc = site.ObjectPlacement.RelativePlacement.Location
    loc.Coordinates = tuple(float(c) + float(s) / unit for c, s in zip(loc.Coordinates, SHIFT, strict=True))
    path = tmp_path_factory.mktemp("far") / "far-house.ifc"
    model.write(str(path))
    return path, Session.open(path, cache=path.parent / "cache", journal_dir=False)


def test_the_local_origin_is_near_the_building_and_kept(far_house: tuple[Path, Session], fzk: Loaded) -> None:
    _, s = far_house
    origin = np.asarray(s.building.origin)
    assert np.abs(origin[:2] - SHIFT[:2]).max() < 100.0 and origin[2] == 0.0
    assert np.asarray(fzk.loaded.building.origin).tolist() == [0.0, 0.0, 0.0]  # near its origin: untouched
    assert float(np.abs(s.loaded.meshes.verts).max()) < FAR_FROM_ORIGIN_M


def test_vertices_keep_sub_millimetre_precision(far_house: tuple[Path, Session], fzk: Loaded) -> None:
    """Each element's vertices, put back in the file's frame in float64, are the unshifted file's
    vertices plus the shift, to well under a millimetre (float32 at 4.5e6 m would be off by 0.5 m)."""
    _, s = far_house
    far, near = s.loaded.meshes, fzk.loaded.meshes
    near_index = near.index()
    origin = np.asarray(s.building.origin)
    worst, compared = 0.0, 0
    for i, gid in enumerate(far.ids):
        j = near_index.get(gid)
        if j is None:
            continue
        a = far.element(i)[0].astype(np.float64) + origin - SHIFT
        b = near.element(j)[0].astype(np.float64)
        if a.shape != b.shape:
            continue
        worst = max(worst, float(np.abs(np.sort(a, axis=0) - np.sort(b, axis=0)).max()))
        compared += 1
    assert compared >= 0.9 * len(near.ids)
    assert worst < 0.001, worst


def test_the_start_pose_stands_inside_the_building(far_house: tuple[Path, Session], fzk: Loaded) -> None:
    _, s = far_house
    pos = s.scene.pose.position
    products = [e for e in s.building.products() if e.has_geometry]
    lo = np.min([e.bbox_min for e in products], axis=0)
    hi = np.max([e.bbox_max for e in products], axis=0)
    assert np.all(pos[:2] > lo[:2]) and np.all(pos[:2] < hi[:2])
    near = fzk.session().scene.pose.position
    assert np.allclose(pos + np.asarray(s.building.origin) - SHIFT, near, atol=1e-3)


def test_answers_are_those_of_the_unshifted_file(far_house: tuple[Path, Session], fzk: Loaded) -> None:
    _, s = far_house
    near = fzk.session()
    origin = np.asarray(s.building.origin)
    for session, offset in ((near, np.zeros(3)), (s, SHIFT - origin)):
        session.set_pose(Pose(np.array([5.0, 4.0, 1.6]) + offset, 90.0, 0.0))
    for text in ("what door is in front of me", "how many windows are there", "how far is the nearest window",
                 "where am I", "take me to the kitchen"):
        a, b = near.say(text), s.say(text)
        assert (a.ok, a.answer) == (b.ok, b.answer), text
    assert np.allclose(near.scene.pose.position, s.scene.pose.position - (SHIFT - origin), atol=1e-3)


def test_notes_are_exported_in_the_files_frame(far_house: tuple[Path, Session], tmp_path: Path) -> None:
    path, s = far_house
    here = s.scene.pose.position.copy()
    r = s.do({"steps": [{"op": "note", "text": "check this door",
                         "target": {"class": ["IfcDoor"], "order": "nearest", "limit": 1}}]})
    assert r.ok, r.answer
    s.persistence.save_dir = tmp_path
    r = s.say("export the notes")
    assert r.ok, r.answer
    (bcf,) = list(tmp_path.glob("*.bcf*")) or list(path.parent.glob("*.bcf*"))
    with zipfile.ZipFile(bcf) as z:
        xml = next(z.read(n).decode() for n in z.namelist() if n.endswith(".bcfv"))
    x, y = (float(v) for v in re.findall(r"<CameraViewPoint>\s*<X>([^<]+)</X>\s*<Y>([^<]+)</Y>", xml)[0])
    assert abs(x - (here[0] + s.building.origin[0])) < 1e-3 and abs(y - (here[1] + s.building.origin[1])) < 1e-3


def test_storeys_rooms_and_the_site_are_those_of_the_unshifted_file(far_house: tuple[Path, Session],
                                                                       fzk: Loaded) -> None:
    _, s = far_house
    near = fzk.session()
    assert [(t.name, round(t.elevation, 6)) for t in s.building.storeys] == \
        [(t.name, round(t.elevation, 6)) for t in near.building.storeys]
    assert s.building.ground_storey == near.building.ground_storey
    assert s.building.site == near.building.site  # the georeference as the file states it, kept apart
    offset = SHIFT - np.asarray(s.building.origin)
    rooms = near.building.spaces()
    assert rooms
    for room in rooms:
        here = near.building.elements[room.id].centre
        assert near.executor.graph.room_at(here) == room.id
        assert s.executor.graph.room_at(here + offset) == room.id
        assert np.allclose(s.building.elements[room.id].centre, here + offset, atol=1e-3)


def test_a_saved_revision_moves_in_the_files_frame(far_house: tuple[Path, Session]) -> None:
    """A door moved 1 m east, turned about itself and saved is 1 m east of where it was at map
    coordinates: the turn is about its centre in the file's frame, not about a point 4.5 million
    metres away."""
    path, _ = far_house
    s = Session.open(path, cache=path.parent / "cache", journal_dir=False)
    try:
        door = next(e for e in s.building.elements.values() if e.ifc_class == "IfcDoor" and e.has_geometry)
        before = door.centre + np.asarray(s.building.origin)
        r = s.do({"steps": [{"op": "move", "target": {"ids": [door.id]}, "delta": [1.0, 0.0, 0.0]},
                            {"op": "rotate", "target": {"ids": [door.id]}, "degrees": 90}]})
        assert r.ok, r.answer
        assert s.say("save").ok
        saved = s.persistence.last_save.path
    finally:
        s.close()
    again = Session.open(saved, cache=path.parent / "cache", journal_dir=False)
    try:
        moved = again.building.elements[door.id]
        after = moved.centre + np.asarray(again.building.origin)
        assert np.allclose(after - before, [1.0, 0.0, 0.0], atol=2e-3), after - before
    finally:
        again.close()
