"""``sun``: the engine's sun as on a date and time at the site (from IfcSite)."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_midsummer_afternoon_sets_the_sun_high_in_the_south_west(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    r = step(s, "sun", date="2026-06-21", time="15:00")
    assert r.ok, r.answer
    sun = s.executor.state.sun
    assert sun is not None and 40 < sun["elevation_deg"] < 65
    assert "south" in r.answer or "west" in r.answer


def test_switching_off_a_sun_that_is_not_on_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "sun", off=True)
