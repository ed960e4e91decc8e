"""``distance``: from the user or an element to an element, surface or centre."""

from __future__ import annotations

import numpy as np
import pytest
from ops_support import IN_KITCHEN, Building, refused, step


def test_centre_to_centre_between_two_rooms_matches_their_centres(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    a, b = fzk.space("Küche"), fzk.space("Wohnen")
    ca, cb = (s.building.elements[g].centre for g in (a, b))
    r = step(s, "distance", **{"from": {"ids": [a]}, "to": {"ids": [b]}, "mode": "centre"})
    assert r.ok and r.value == pytest.approx(float(np.linalg.norm(ca - cb)), abs=1e-3)
    assert "(centre to centre)" in r.answer


def test_from_the_user_is_shorter_than_to_the_centre(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    target = {"ids": [fzk.space("Wohnen")]}
    surface = step(s, "distance", to=target).value
    centre = step(s, "distance", to=target, mode="centre").value
    assert 0 <= surface < centre


def test_an_unknown_id_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "distance", to={"ids": ["0000000000000000000000"]})
