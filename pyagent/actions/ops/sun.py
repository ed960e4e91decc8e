"""``sun``: a sun study: put the sun where it is at the site on a date and local time, or switch it off."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from pyagent.actions.errors import StepError
from pyagent.actions.ops.answers import say
from pyagent.review import sun as solar

KIND = "change"

if TYPE_CHECKING:
    from pyagent.actions.executor import Executor
    from pyagent.actions.selectors import Context


def parse_date(text: str | None, today: dt.date | None = None) -> dt.date:
    """``YYYY-MM-DD``, or ``MM-DD`` in this year; today when None."""
    today = today or dt.date.today()
    if not text:
        return today
    parts = [int(p) for p in text.split("-")]
    year, month, day = parts if len(parts) == 3 else [today.year, *parts]
    try:
        return dt.date(year, month, day)
    except ValueError as exc:
        raise StepError(f"{text} is not a date") from exc


def parse_clock(text: str | None, default: dt.time = dt.time(12, 0)) -> dt.time:
    if not text:
        return default
    hours, minutes = (int(p) for p in text.split(":"))
    if not (0 <= hours <= 23 and 0 <= minutes <= 59):
        raise StepError(f"{text} is not a time of day")
    return dt.time(hours, minutes)


def run(ex: Executor, ctx: Context, step: dict[str, Any]) -> tuple[Any, str, list[str]]:
    if step.get("off"):
        if ctx.state.sun is None:
            raise StepError(say("sun_already_off"))
        ctx.state.sun = None
        return None, say("sun_off"), []
    site = ex.building.site
    if site is None:
        raise StepError(say("sun_no_site"))
    date = parse_date(step.get("date"))
    if step.get("time"):
        clock = parse_clock(step["time"])
    elif step.get("part_of_day"):
        clock = solar.part_of_day_clock(site, date, step["part_of_day"])
    else:
        clock = parse_clock(None)
    pos = solar.position(site, ex.building.true_north_deg, date, clock)
    ctx.state.sun = pos.to_state()
    key = "sun_set" if pos.up else "sun_set_below"
    return None, say(key, date=pos.when.strftime("%-d %B %Y"), time=pos.when.strftime("%H:%M"),
                     timezone=pos.timezone, compass=pos.compass, elevation=round(pos.elevation_deg)), []
