"""``sun_position``: where the sun is at a date and time (a query)."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, step


def test_winter_noon_is_lower_than_summer_noon_and_changes_nothing(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    before = s.state()
    summer = step(s, "sun_position", date="2026-06-21", time="12:00")
    winter = step(s, "sun_position", date="2026-12-21", time="12:00")
    assert summer.ok and winter.ok
    assert winter.value["elevation_deg"] < summer.value["elevation_deg"]
    assert summer.value["compass"] in ("S", "SE", "SW", "south", "south-east", "south-west") or \
        150 < summer.value["azimuth_deg"] < 210
    assert s.state() == before
