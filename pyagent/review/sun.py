"""The sun at the building's site: position (astral), local time zone (timezonefinder), and the
direction towards the sun in the IFC frame using the file's true north."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from astral import Observer
from astral import sun as astral_sun

from pyagent.review.site import SiteLocation

SUNRISE_ELEVATION_DEG = -0.833
COMPASS = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")
#: Local clock times for parts of the day that are not tied to the sun's own events.
PART_OF_DAY = {"morning": dt.time(9, 0), "afternoon": dt.time(15, 0), "evening": dt.time(18, 0)}


@dataclass(frozen=True)
class SunPosition:
    when: dt.datetime  # local, time-zone aware
    timezone: str
    azimuth_deg: float  # clockwise from geographic north
    elevation_deg: float  # above the horizon (refraction included)
    direction: tuple[float, float, float]  # unit vector towards the sun, IFC frame

    @property
    def compass(self) -> str:
        return compass_word(self.azimuth_deg)

    @property
    def up(self) -> bool:
        """Above the horizon as seen (sunrise and sunset are at -0.833 degrees: refraction and the disc)."""
        return self.elevation_deg > SUNRISE_ELEVATION_DEG

    def to_state(self) -> dict[str, object]:
        """The schema's ``engine_sun``."""
        return {"date": self.when.date().isoformat(), "time": self.when.strftime("%H:%M"), "timezone": self.timezone,
                "azimuth_deg": round(self.azimuth_deg, 3), "elevation_deg": round(self.elevation_deg, 3),
                "direction": [round(v, 6) for v in self.direction]}


def compass_word(azimuth_deg: float) -> str:
    return COMPASS[int(((azimuth_deg % 360) + 22.5) // 45) % 8]


@lru_cache(maxsize=64)
def timezone_at(latitude: float, longitude: float) -> str:
    """The IANA time zone at a place; the nautical zone of the longitude where none is known (at sea)."""
    from timezonefinder import TimezoneFinder

    name = TimezoneFinder().timezone_at(lat=latitude, lng=longitude)
    if name:
        return str(name)
    offset = round(longitude / 15)
    return "Etc/GMT" + (f"{-offset:+d}" if offset else "")


def _zone(name: str) -> dt.tzinfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return dt.UTC


def site_zone(site: SiteLocation) -> dt.tzinfo:
    """The time zone at the site (for "now" there)."""
    return _zone(timezone_at(site.latitude, site.longitude))


def direction_ifc(azimuth_deg: float, elevation_deg: float, true_north_deg: float) -> tuple[float, float, float]:
    """Unit vector towards the sun in the IFC frame. North is ``true_north_deg`` counter-clockwise from +X;
    azimuth turns clockwise from north."""
    plan = math.radians(true_north_deg - azimuth_deg)
    el = math.radians(elevation_deg)
    return (math.cos(el) * math.cos(plan), math.cos(el) * math.sin(plan), math.sin(el))


def local_datetime(site: SiteLocation, date: dt.date, clock: dt.time) -> tuple[dt.datetime, str]:
    tz_name = timezone_at(site.latitude, site.longitude)
    return dt.datetime.combine(date, clock, tzinfo=_zone(tz_name)), tz_name


def position(site: SiteLocation, true_north_deg: float, date: dt.date, clock: dt.time) -> SunPosition:
    """The sun seen from the site at local ``clock`` on ``date``."""
    when, tz_name = local_datetime(site, date, clock)
    observer = Observer(latitude=site.latitude, longitude=site.longitude, elevation=max(0.0, site.elevation_m))
    azimuth = float(astral_sun.azimuth(observer, when))
    elevation = float(astral_sun.elevation(observer, when))
    return SunPosition(when, tz_name, azimuth, elevation, direction_ifc(azimuth, elevation, true_north_deg))


def part_of_day_clock(site: SiteLocation, date: dt.date, part: str) -> dt.time:
    """Local clock time of a part of the day: the sun's own sunrise, noon and sunset, fixed hours otherwise."""
    if part in PART_OF_DAY:
        return PART_OF_DAY[part]
    tz_name = timezone_at(site.latitude, site.longitude)
    observer = Observer(latitude=site.latitude, longitude=site.longitude)
    try:
        events = astral_sun.sun(observer, date=date, tzinfo=_zone(tz_name))
    except ValueError:  # polar day or night: no sunrise or sunset
        return dt.time(12, 0)
    key = {"sunrise": "sunrise", "noon": "noon", "sunset": "sunset"}[part]
    moment = events[key]
    return dt.time(moment.hour, moment.minute)
