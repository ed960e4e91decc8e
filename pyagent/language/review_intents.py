"""Review tools by voice, from templates in data (``data/review_intents.yaml``, hassil's format).

Each intent maps to one op of the action schema; its slots are read here: lengths (number words with
text2num, units with pint), dates and times (dateutil), targets (the parser's noun phrases, so the
building's own vocabulary applies), view names. Templates match whole utterances only, so they never
take over a sentence meant for the general parser.

``python -m pyagent.language.review_intents --list`` prints every sentence the templates accept
(wildcard slots shown as ``{slot}``); ``--try "TEXT"`` shows the intent and slots of one utterance.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from hassil import Intents, recognize, recognize_all

from pyagent.language import rx as re  # re's functions, with a cache that holds all the front end's patterns
from pyagent.language import units

if TYPE_CHECKING:
    from pyagent.language.parser import ParseContext, Parser

TEMPLATES = Path(__file__).with_name("data") / "review_intents.yaml"
#: A bare number in a length means metres up to this, centimetres above ("move the cut up 50").
BARE_METRES_UP_TO = 10.0
#: The usual height of a floor plan's cut above the floor ("a plan of the ground floor").
PLAN_CUT_M = 1.2
PARTS_OF_DAY = {"sunrise": "sunrise", "dawn": "sunrise", "morning": "morning", "noon": "noon", "midday": "noon",
                "afternoon": "afternoon", "evening": "evening", "sunset": "sunset", "dusk": "sunset"}


@dataclass
class ReviewParse:
    """A recognised review request: its program, or why it cannot be one (a slot that says nothing)."""

    intent: str
    program: dict[str, Any] | None
    reason: str = ""


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(TEMPLATES.read_text(encoding="utf-8"))
    return data


@lru_cache(maxsize=1)
def _intents() -> Intents:
    return Intents.from_dict({k: v for k, v in _data().items() if k != "fillers"})


@lru_cache(maxsize=1)
def _rewrites() -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(a), b) for a, b in _data().get("fillers", {}).get("rewrites", [])]


@lru_cache(maxsize=1)
def _fillers() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Words around a request that do not change it ("okay, ...", "... so I can see the plan")."""
    f = _data().get("fillers", {})
    lead = "|".join(f"(?:{p})" for p in f.get("leading", [])) or "(?!)"
    trail = "|".join(f"(?:{p})" for p in f.get("trailing", [])) or "(?!)"
    return re.compile(rf"^(?:(?:{lead})\b\s*,?\s*)+"), re.compile(rf"\s*,?\s*\b(?:{trail})$")


def strip_fillers(text: str) -> str:
    lead, trail = _fillers()
    t = text
    for pattern, replacement in _rewrites():
        t = pattern.sub(replacement, t)
    for _ in range(3):  # trailing fillers can stack ("..., wall to wall, please")
        t = trail.sub("", lead.sub("", t)).strip(" ,")
    return t


def _clean(text: str) -> str:
    t = unicodedata.normalize("NFKC", text).lower().replace("’", "'")
    t = re.sub(r"(?<!\d)[.,](?!\d)|[!?;\"“”()]", " ", t)
    return strip_fillers(re.sub(r"\s+", " ", t).strip())


def _word_number(word: str) -> str:
    """"one" -> "1" (text2num's alpha2digit leaves a lone small number word alone)."""
    from text_to_num import text2num

    try:
        return str(text2num(word, "en")) + " "
    except ValueError:
        return word + " "


def parse_length(text: str) -> float | None:
    """Metres in a spoken length: "1.2 metres", "fifty centimetres", "4 feet", "1,5 m"; None if none."""
    from text_to_num import alpha2digit

    t = re.sub(r"(\d),(\d)", r"\1.\2", alpha2digit(text.strip().lower(), "en")).replace(",", " ")
    t = re.sub(r"\b(like|about|around|roughly|approximately|maybe|say|some|just|only|exactly)\b", " ", t)
    t = re.sub(r"\ba (meter|metre|foot|centimeter|centimetre)\b", r"1 \1", t)
    t = re.sub(r"\b(\d+) (meters?|metres?|m) (\d{1,2})\b", lambda m: f"{m.group(1)}.{int(m.group(3)):02d} m", t)
    t = re.sub(r"\b([a-z]+) (?=point \d)", lambda m: _word_number(m.group(1)), t)
    t = re.sub(r"\b(\d+) point (\d+)\b", r"\1.\2", t)
    t = re.sub(r"\b(a|one) half\b", "0.5", t)
    m = re.match(r"^(?:by\s+)?(-?\d+(?:\.\d+)?)\s*([a-z]*)\s*$", t.strip())
    if not m:
        return None
    value, unit = float(m.group(1)), m.group(2)
    if not unit:
        return value if value <= BARE_METRES_UP_TO else value / 100.0
    return units.metres(value, unit)


def _clock_words(t: str) -> str:
    """Spoken clock times as H:MM: "3 o'clock", "half past 8", "quarter to 5", "3 in the afternoon"."""
    t = re.sub(r"\b(\d{1,2}) o'? ?clock\b", r"\1:00", t)
    t = re.sub(r"\bhalf past (\d{1,2})\b", r"\1:30", t)
    t = re.sub(r"\bquarter past (\d{1,2})\b", r"\1:15", t)
    t = re.sub(r"\bquarter to (\d{1,2})\b", lambda m: f"{(int(m.group(1)) - 1) % 24}:45", t)
    t = re.sub(r"\b(\d{1,2})(?::(\d{2}))? (?:in the )?(afternoon|evening)\b",
               lambda m: f"{int(m.group(1)) % 12 + 12}:{m.group(2) or '00'}", t)
    return re.sub(r"\b(\d{1,2})(?::(\d{2}))? (?:in the )?morning\b",
                  lambda m: f"{int(m.group(1)) % 12}:{m.group(2) or '00'}", t)


def parse_when(text: str, today: dt.date | None = None) -> dict[str, str]:
    """Date, time and part of the day in a spoken moment: {"date": "YYYY-MM-DD"?, "time": "HH:MM"?,
    "part_of_day": ...?}. Raises ValueError when the words name no moment at all."""
    from dateutil import parser as dateparser
    from text_to_num import alpha2digit

    today = today or dt.date.today()
    t = _clock_words(alpha2digit(text.strip().lower(), "en"))
    t = re.sub(r"\b(\d{1,2}) (st|nd|rd|th)\b", r"\1\2", t)  # "21 st" as the parser spaces it
    t = re.sub(r"\b(first|second|third)\b(?= of)", lambda m: {"first": "1st", "second": "2nd", "third": "3rd"}[
        m.group(1)], t)
    out: dict[str, str] = {}
    for word, part in PARTS_OF_DAY.items():
        if re.search(rf"\b{word}\b", t):
            out["part_of_day"] = part
            t = re.sub(rf"\b(in the|at|during the|at the|by the|of the|the)?\s*{word}\b", " ", t)
    if re.search(r"\b(right now|now|at the moment|currently)\b", t) and "part_of_day" not in out:
        now = dt.datetime.now()
        out.setdefault("date", today.isoformat())
        out["time"] = now.strftime("%H:%M")
    t = re.sub(r"\b(today|right now|now|at the moment|currently|right)\b", " ", t)
    if re.search(r"\btomorrow\b", t):
        out["date"] = (today + dt.timedelta(days=1)).isoformat()
        t = t.replace("tomorrow", " ")
    t = re.sub(r"\b(midsummer|summer solstice)\b", "21 june", t)
    t = re.sub(r"\b(midwinter|winter solstice)\b", "21 december", t)
    t = re.sub(r"\b(spring equinox)\b", "20 march", t)
    t = re.sub(r"\b(autumn equinox|fall equinox)\b", "22 september", t)
    t = re.sub(r"\s+", " ", t).strip(" ,")
    if t and re.search(r"\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec", t):
        try:
            a = dateparser.parse(t, fuzzy=True, default=dt.datetime(1999, 1, 1, 0, 0))
            b = dateparser.parse(t, fuzzy=True, default=dt.datetime(1998, 2, 2, 1, 1))
        except (ValueError, OverflowError) as exc:
            raise ValueError(f"I did not understand the moment \"{text.strip()}\"") from exc
        if a.month == b.month and a.day == b.day:
            year = a.year if a.year == b.year else today.year
            out["date"] = dt.date(year, a.month, a.day).isoformat()
        if a.hour == b.hour:
            out["time"] = f"{a.hour:02d}:{a.minute if a.minute == b.minute else 0:02d}"
            if out.get("part_of_day") in ("morning", "afternoon", "evening"):
                del out["part_of_day"]  # a clock time says more than the part of the day
    elif t and not re.fullmatch(r"(on|at|in|for|the|of|day|a|an|,|\s)*", t):
        raise ValueError(f"I did not understand the moment \"{text.strip()}\"")
    return out


def _name(text: str) -> str:
    return re.sub(r"^(the|my|a)\s+", "", text.strip()).strip()


class ReviewIntents:
    """Recognises the review requests of ``data/review_intents.yaml`` and builds their programs."""

    def __init__(self, parser: Parser) -> None:
        self.parser = parser
        # pint's unit registry (about half a second) and the site's time zone (about a tenth) are made
        # before the first length or sun study is heard, not while the user waits.
        threading.Thread(target=self._warm, name="review-warm", daemon=True).start()

    def _warm(self) -> None:
        units.length_units()
        site = getattr(self.parser.building, "site", None)
        if site is not None:
            from pyagent.review.sun import timezone_at

            timezone_at(site.latitude, site.longitude)

    def clause(self, text: str, ctx: ParseContext, so_far: list[dict[str, Any]] | None = None
               ) -> list[dict[str, Any]] | None:
        """The parser's clause hook: the steps of a review request, None when the clause is not one;
        raises the parser's ``ClauseError`` when it is one whose slots say nothing usable. ``so_far``: the
        steps of the utterance's earlier clauses ("a plan of the ground floor, cut it at 1.1 m")."""
        steps = self._clause(text, ctx)
        if steps and so_far:
            storey = next((s["storey"] for s in reversed(so_far) if s.get("op") == "section" and s.get("storey")),
                          None)
            for step in steps:
                if storey and step["op"] == "section" and step["mode"] == "plane" and "storey" not in step:
                    step["storey"] = storey  # "it" is the storey just talked about
        return steps

    def _clause(self, text: str, ctx: ParseContext) -> list[dict[str, Any]] | None:
        from pyagent.language.parser import ClauseError

        if not _clean(text):
            return []  # only words around a request ("in this sun study, ..."): nothing to do
        parsed = self.parse(text, ctx)
        if (parsed is None or parsed.program is None) and "," in text:
            # "switch the sun off, back to normal lighting": parts that each ask for the same thing.
            parts = [self.parse(p, ctx) for p in text.split(",") if _clean(p)]
            programs = [p.program for p in parts if p is not None and p.program is not None]
            if programs and len(programs) == len(parts):
                steps_of: list[dict[str, Any]] = []
                for program in programs:
                    for step in program["steps"]:
                        if not steps_of or steps_of[-1] != step:
                            steps_of.append(step)
                return steps_of
        if parsed is None:
            return None
        if parsed.program is None:
            raise ClauseError(parsed.reason)
        steps: list[dict[str, Any]] = parsed.program["steps"]
        return steps

    def parse(self, text: str, ctx: ParseContext) -> ReviewParse | None:
        # A wildcard can swallow words a list value would have taken ("up" + "wards by 1 m"): of all the
        # ways the templates match, the first whose slots mean something wins.
        first: ReviewParse | None = None
        # The most specific match first: the one whose wildcards took the fewest characters.
        results = sorted(recognize_all(_clean(text), _intents()), key=lambda r: sum(
            len(str(e.text or e.value)) for e in r.entities_list if getattr(e, "is_wildcard", False)))
        for result in results:
            if result.intent is None:
                continue
            slots = {k: str(v.value).strip() for k, v in result.entities.items()}
            intent = result.intent.name
            try:
                return ReviewParse(intent, {"steps": [self._step(intent, slots, ctx)]})
            except ValueError as exc:
                first = first or ReviewParse(intent, None, str(exc))
        return first

    def _step(self, intent: str, slots: dict[str, str], ctx: ParseContext) -> dict[str, Any]:
        if intent == "SectionPlane":
            return {"op": "section", "mode": "plane", "height": self._length(slots["length"])}
        if intent == "SectionPlaneOnStorey":
            height = self._length(slots["length"]) if slots.get("length") else PLAN_CUT_M
            if not slots.get("storey"):  # "give me a plan cut": on the user's floor
                return {"op": "section", "mode": "plane", "height": height}
            return {"op": "section", "mode": "plane", "height": height, "storey": self._storey(slots["storey"], ctx)}
        if intent == "SectionBox":
            return {"op": "section", "mode": "box", "target": self._target(slots["target"], ctx)}
        if intent == "MoveSection":
            by = self._length(slots["length"])
            down = slots.get("direction") == "down"
            return {"op": "move_section", "by": -by if down else by}
        if intent == "ClearSection":
            return {"op": "clear_section"}
        if intent in ("SaveView", "GoToView"):
            name = _name(slots["name"])
            if not name:
                raise ValueError("which name should the view have?")
            return {"op": "save_view" if intent == "SaveView" else "go_to_view", "name": name[:60]}
        if intent == "ExportNotes":
            return {"op": "export_notes"}
        if intent == "ListViews":
            return {"op": "list_views"}
        if intent == "SunSet":
            when = parse_when(slots["when"])
            step: dict[str, Any] = {"op": "sun"}
            if "date" in when:
                step["date"] = when["date"]
            if "time" in when:
                step["time"] = when["time"]
            elif "part_of_day" in when:
                step["part_of_day"] = when["part_of_day"]
            return step
        if intent == "SunOff":
            return {"op": "sun", "off": True}
        if intent in ("SunPosition", "SunRiseWhere", "SunSetWhere"):
            when = parse_when(slots.get("when", ""))
            if slots.get("part_of_day"):
                when["part_of_day"] = slots["part_of_day"]
                when.pop("time", None)
            return {"op": "sun_position", **when}
        if intent == "ModelTable":
            return {"op": "model_view", "mode": "table"}
        if intent == "ModelFull":
            return {"op": "model_view", "mode": "full"}
        if intent == "MeasureCeiling":
            return {"op": "measure_here", "what": "ceiling_height"}
        if intent == "MeasureWidth":
            return {"op": "measure_here", "what": "width"}
        if intent == "MeasureLength":
            return {"op": "measure_here", "what": "length"}
        raise ValueError(f"no op for the intent {intent}")

    @staticmethod
    def _length(text: str) -> float:
        value = parse_length(text)
        if value is None or not 0 <= value <= 1000:
            raise ValueError(f"I did not understand the length \"{text}\" (say e.g. \"1.2 metres\")")
        return round(value, 4)

    def _storey(self, text: str, ctx: ParseContext) -> str:
        # "floor one" / "level one": the number as digits, so it names a storey, not one floor slab.
        text = re.sub(r"\b(floor|level|storey) ([a-z]+)\b",
                      lambda m: f"{m.group(1)} {_word_number(m.group(2)).strip()}", text)
        sel = self._target(text, ctx)
        if set(sel) != {"storey"}:
            raise ValueError(f"\"{text}\" is not a floor of this building")
        storey: str = sel["storey"]
        return storey

    def _target(self, text: str, ctx: ParseContext) -> dict[str, Any]:
        from pyagent.language.parser import normalise

        sel = self.parser.selector(normalise(text), ctx)
        if not sel:
            raise ValueError(f"I do not know what \"{text}\" is in this building")
        return sel


def sentences() -> list[tuple[str, str]]:
    """Every (intent, sentence) the templates accept, wildcard slots written as ``{slot}``."""
    from hassil.sample import sample_intents

    intents = _intents()
    out = list(sample_intents(intents, exclude_sentences_with_wildcards=False))
    return [(str(name), str(text)) for name, text in out]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pyagent.language.review_intents", description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="print every sentence the templates accept")
    ap.add_argument("--try", dest="text", help="show the intent and slots of one utterance")
    args = ap.parse_args(argv)
    if args.text:
        result = recognize(_clean(args.text), _intents())
        if result is None or result.intent is None:
            print("no review intent")
            return 1
        print(result.intent.name, {k: v.value for k, v in result.entities.items()})
        return 0
    rows = sentences()
    for name, text in rows:
        print(f"{name}\t{text}")
    print(f"{len(rows)} sentences in {len({n for n, _ in rows})} intents", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
