"""``change_floor``: up or down by storeys, above the same spot where there is a room there, heading kept."""

from __future__ import annotations

import pytest
from ops_support import IN_KITCHEN, Building, refused, step

from pyagent.spatial import EYE_HEIGHT


def _storeys(b: Building) -> list[tuple[str, float]]:
    return sorted(((s.GlobalId, float(s.Elevation)) for s in b.model.by_type("IfcBuildingStorey")),
                  key=lambda t: t[1])


def test_up_one_floor_and_back_down(fzk: Building) -> None:
    (ground, _), (upper, _) = _storeys(fzk)[:2]
    s = fzk.session(IN_KITCHEN, yaw=30.0)
    r = step(s, "change_floor", by=1)
    assert r.ok and fzk.model.by_guid(upper).Name in r.answer
    p = s.executor.state.pose
    assert p.position[:2] == pytest.approx(IN_KITCHEN[:2]) and p.yaw == pytest.approx(30.0)
    gallery = s.building.elements[fzk.space("Galerie")]  # the upper storey's room over the kitchen
    assert p.position[2] == pytest.approx(float(gallery.bbox_min[2]) + EYE_HEIGHT, abs=1e-3)
    assert step(s, "where_am_i").value.startswith("Galerie")
    r = step(s, "change_floor", by=-1)
    assert r.ok and fzk.model.by_guid(ground).Name in r.answer
    assert s.executor.state.pose.position[2] == pytest.approx(IN_KITCHEN[2], abs=1e-3)


def test_beyond_the_top_or_bottom_is_refused(fzk: Building) -> None:
    n = len(_storeys(fzk))
    refused(fzk.session(IN_KITCHEN), "change_floor", by=-1)
    refused(fzk.session(IN_KITCHEN), "change_floor", by=n)
    refused(fzk.session(IN_KITCHEN), "change_floor", by=0)


def test_two_floors_up_in_the_duplex(duplex: Building) -> None:
    storeys = _storeys(duplex)
    s = duplex.session((5.0, -2.5, storeys[0][1] + 1.6))
    start = s.executor.state.pose.position.copy()
    mine = s.spatial.storey_of_point(float(start[2]))
    r = step(s, "change_floor", by=2)
    names = [duplex.model.by_guid(g).Name for g, _ in storeys]
    idx = names.index(mine.name)
    if idx + 2 >= len(storeys):
        pytest.skip("not two storeys above")
    assert r.ok and names[idx + 2] in r.answer
    assert s.spatial.storey_of_point(float(s.executor.state.pose.position[2])).name == names[idx + 2]
