"""Where the building stands on Earth: IfcSite's reference latitude, longitude and elevation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import ifcopenshell


@dataclass(frozen=True)
class SiteLocation:
    latitude: float  # degrees, north positive
    longitude: float  # degrees, east positive
    elevation_m: float = 0.0


def compound_to_degrees(value: Sequence[int] | None) -> float | None:
    """IFC's compound plane angle (degrees, minutes, seconds[, millionths of a second], one sign) in degrees."""
    if not value or len(value) < 2:
        return None
    parts = [int(v) for v in value] + [0] * (4 - len(value))
    deg, minutes, seconds, millionths = parts[:4]
    sign = -1.0 if any(p < 0 for p in parts) else 1.0
    total = abs(deg) + abs(minutes) / 60 + (abs(seconds) + abs(millionths) / 1e6) / 3600
    return sign * total


def site_location(model: ifcopenshell.file, length_scale: float = 1.0) -> SiteLocation | None:
    """The first IfcSite with a plausible latitude and longitude, else None (not every file is placed)."""
    for site in model.by_type("IfcSite"):
        lat = compound_to_degrees(getattr(site, "RefLatitude", None))
        lon = compound_to_degrees(getattr(site, "RefLongitude", None))
        if lat is None or lon is None or not (-90 <= lat <= 90 and -180 <= lon <= 180):
            continue
        if lat == 0 and lon == 0:
            continue  # the authoring tool's default, not a place
        elevation = float(getattr(site, "RefElevation", None) or 0.0) * length_scale
        return SiteLocation(round(lat, 6), round(lon, 6), elevation)
    return None
