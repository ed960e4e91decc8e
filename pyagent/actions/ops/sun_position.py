"""``sun_position``: where the sun is at the site at a date and time or part of the day (a query)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say
from pyagent.actions.ops.sun import parse_clock, parse_date
from pyagent.review import sun as solar

KIND = "query"

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    site = ex.building.site
    if site is None:
        raise StepError(say("sun_no_site"))
    study = ctx.state.sun
    date = parse_date(step.get("date") or (study["date"] if study else None))
    part = step.get("part_of_day")
    if step.get("time"):
        clock, part_text = parse_clock(step["time"]), "local time"
    elif part:
        clock, part_text = solar.part_of_day_clock(site, date, part), part
    elif study:
        clock, part_text = parse_clock(study["time"]), "the sun study's time"
    else:
        now = dt.datetime.now(solar.site_zone(site))
        date, clock, part_text = now.date(), dt.time(now.hour, now.minute), "now"
    pos = solar.position(site, ex.building.true_north_deg, date, clock)
    value = {"azimuth_deg": round(pos.azimuth_deg, 2), "elevation_deg": round(pos.elevation_deg, 2),
             "compass": pos.compass}
    if part in ("sunrise", "sunset") and not step.get("time"):
        return value, say("sun_event", date=pos.when.strftime("%-d %B"), time=pos.when.strftime("%H:%M"),
                          event="rises" if part == "sunrise" else "sets", compass=pos.compass), []
    key = "sun_position" if pos.up else "sun_position_below"
    return value, say(key, date=pos.when.strftime("%-d %B"), time=pos.when.strftime("%H:%M"), part=part_text,
                      compass=pos.compass, elevation=abs(round(pos.elevation_deg))), []
