"""``add_prop``: furniture from the prop library on a room's floor."""

from __future__ import annotations

import pytest
from ops_support import IN_KITCHEN, Building, refused, step


def test_a_sofa_in_front_of_the_user_stands_on_the_kitchen_floor(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    r = step(s, "add_prop", asset="sofa")
    assert r.ok and r.answer.startswith("Placed a sofa in ") and "Küche" in r.answer
    prop = s.executor.state.props[0]
    assert prop["asset"] == "sofa" and len(prop["id"]) == 22
    kitchen = s.building.elements[fzk.space("Küche")]
    assert prop["position"][2] == pytest.approx(float(kitchen.bbox_min[2]), abs=1e-3)


def test_the_same_request_gives_the_same_id(fzk: Building) -> None:
    ids = []
    for _ in range(2):
        s = fzk.session(IN_KITCHEN)
        assert step(s, "add_prop", asset="lamp").ok
        ids.append(s.executor.state.props[0]["id"])
    assert ids[0] == ids[1]


def test_no_floor_outside_is_refused(fzk: Building) -> None:
    refused(fzk.session((-30.0, -30.0, 1.6)), "add_prop", asset="chair", position=[-30.0, -30.0, 0.0])
