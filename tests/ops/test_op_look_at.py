"""``look_at``: the user's head towards an element."""

from __future__ import annotations

import math

import pytest
from ops_support import IN_KITCHEN, Building, refused, step


def test_faces_the_living_room(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN, yaw=180.0)
    living = fzk.space("Wohnen")
    r = step(s, "look_at", target={"ids": [living]})
    c = s.building.elements[living].centre
    want = math.degrees(math.atan2(c[1] - IN_KITCHEN[1], c[0] - IN_KITCHEN[0]))
    assert r.ok and r.answer.startswith("Looking at")
    assert s.executor.state.pose.yaw == pytest.approx(want, abs=0.5)
    assert list(s.executor.state.pose.position) == pytest.approx(list(IN_KITCHEN))


def test_an_unknown_id_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "look_at", target={"ids": ["0000000000000000000000"]})
