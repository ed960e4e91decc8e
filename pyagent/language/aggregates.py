"""Questions over sets, by patterns kept as data (``data/aggregates.yaml``):

- totals, averages and extremes of a quantity ("what's the total window area on the ground floor",
  "average height of the doors", "how big is the biggest room", "what is the smallest window") -> ``aggregate``;
- which storey or room has the most or fewest of something ("which floor has the most windows"), or the count
  per storey or room ("how many doors per room") -> ``group``;
- storeys counted and compared ("how many floors are above ground", "which is the highest floor") -> ``count``
  and ``list`` of ``IfcBuildingStorey`` with the selector's ``ground`` and ``order``.

The noun phrases are read by the parser (``Parser.selector``), so the building's own vocabulary applies.
A clause that matches no pattern, or whose noun phrase means nothing here, is left to the general parser.

``python -m pyagent.language.aggregates --try "TEXT"`` shows the steps one clause gives on a building.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from pyagent.language.noun_phrase_tokens import MATERIAL_WORDS
from pyagent.vocabulary import plural_noun, singular_noun

if TYPE_CHECKING:
    from pyagent.language.parser import ParseContext, Parser

DATA = Path(__file__).with_name("data") / "aggregates.yaml"
#: Selector keys that name what the things are (without one, "the total area of the ground floor" means its rooms).
NOUN_KEYS = ("class", "kind", "name", "ids", "ref", "step")
#: Words for what was just talked about: never made plural as a noun would be ("their total weight").
_PRONOUNS = frozenset({"it", "them", "they", "those", "these", "this", "that"})
#: Quantities that add up over the rooms of a place named without a noun.
ROOM_QUANTITIES = ("area", "volume", "size")

Step = dict[str, Any]


@dataclass(frozen=True)
class Rule:
    kind: str
    regex: re.Pattern[str]


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return data


@lru_cache(maxsize=1)
def _words() -> dict[str, dict[str, str]]:
    """For each list: word -> the value it stands for."""
    out: dict[str, dict[str, str]] = {}
    for name, values in _data()["lists"].items():
        out[name] = {word: str(value) for value, words in values.items() for word in words}
    return out


def _alternatives(name: str) -> str:
    words = sorted(_words()[name], key=len, reverse=True)
    return f"(?P<{name}>" + "|".join(re.escape(w) for w in words) + ")"


@lru_cache(maxsize=1)
def rules() -> tuple[Rule, ...]:
    """Every pattern of the data file, compiled, in the file's order."""
    out: list[Rule] = []
    for kind, patterns in _data()["patterns"].items():
        for pattern in patterns:
            regex = re.sub(r"\{(\w+)\}", lambda m: _alternatives(m.group(1)), pattern)
            out.append(Rule(kind, re.compile(regex)))
    return tuple(out)


@lru_cache(maxsize=1)
def _np_stop() -> re.Pattern[str]:
    words = sorted(_data().get("np_stop", []), key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(re.escape(w) for w in words) + r")\b")


def _has_noun(sel: dict[str, Any]) -> bool:
    return any(k in sel for k in NOUN_KEYS)


class Aggregates:
    """The parser's clause hook for questions over sets (see the module docstring)."""

    def __init__(self, parser: Parser) -> None:
        self.parser = parser

    def clause(self, text: str, ctx: ParseContext, so_far: list[Step] | None = None) -> list[Step] | None:
        for rule in rules():
            m = rule.regex.fullmatch(text)
            if m is None:
                continue
            step = getattr(self, f"_{rule.kind}")(m.groupdict(), ctx)
            if step is not None:
                return [step]
        return None

    # ---- noun phrases ---------------------------------------------------------------------
    def _things(self, np_text: str, ctx: ParseContext) -> dict[str, Any] | None:
        """The set a noun phrase names (no limit: "the door" in "the average height of the door" is all doors)."""
        np_text = np_text.strip()
        if re.fullmatch(r"(everything|all of it|all the (elements|parts|things|pieces|members)|(the )?(whole|entire) "
                        r"(frame|structure|model|building|house|thing|lot))", np_text):
            return {"ref": "all"}  # "the total weight of everything", "what does the whole frame weigh"
        if not np_text or _np_stop().search(np_text):
            return None
        # one noun said in the singular ("the total office area", "the average height of the door"): all
        # of them, even where a single room of several would be chosen for "the office"
        one = re.fullmatch(r"(?:the )?(?P<w>[a-z]+)", np_text)
        first = re.match(r"(?:the )?(?P<w>[a-z]+)\b", np_text)
        if first is not None and first.group("w") in MATERIAL_WORDS:
            # "the total weight of the steel (except the bolts)": everything of it
            np_text = "all the " + np_text[first.start("w"):]
        elif one is not None and one.group("w") not in _PRONOUNS \
                and singular_noun(one.group("w")) == one.group("w") != plural_noun(one.group("w")):
            np_text = plural_noun(one.group("w"))
        sel = self.parser.selector(np_text, ctx)
        if not sel:
            return None
        sel.pop("limit", None)
        sel.pop("ordinal", None)
        return sel

    # ---- patterns -------------------------------------------------------------------------
    def _aggregate(self, g: dict[str, str | None], ctx: ParseContext) -> Step | None:
        w = _words()
        fn, prop = w["fn"][str(g["fn"])], w["quantity"][str(g["quantity"])]
        np_text = str(g["np"]) + (g.get("rest") or "")
        if prop in ROOM_QUANTITIES:  # "the total floor area downstairs except the hallway": "floor" of the area
            np_text = re.sub(r"^floor (?=(downstairs|upstairs|on|in|of|except|but|without|for)\b)", "", np_text)
        sel = self._things(np_text, ctx)
        if sel is None and prop in ROOM_QUANTITIES \
                and re.fullmatch(r"(the )?(flat|unit|apartment|house|dwelling|home|half|side) [a-z0-9]+", np_text):
            sel = self._things(f"the rooms in {np_text}", ctx)  # "the total floor area of flat B": of its rooms
        if sel is None:
            return None
        if sel.get("class") == ["IfcBuildingStorey"] and prop in ROOM_QUANTITIES:
            sel["class"] = ["IfcSpace"]  # "the total floor area of all the floors": their rooms
        material_said = any(w.get("key") == "material" for w in sel.get("where") or [])
        if not _has_noun(sel) and not material_said:  # ("the total weight of all the steel": what is of it)
            in_unit = any(r.get("rel") == "unit" for r in sel.get("relations") or [])
            if prop not in ROOM_QUANTITIES or not (sel.get("storey") or sel.get("room") or in_unit):
                return None
            sel["class"] = ["IfcSpace"]  # "the total floor area of the ground floor (the west half)": its rooms
        sel.pop("order", None)
        return {"op": "aggregate", "target": sel, "property": prop, "fn": fn}

    def _property_aggregate(self, g: dict[str, str | None], ctx: ParseContext) -> Step | None:
        """"the highest U value of the outside walls", "which wall has the worst U value": a property the
        building's elements carry, by its own name; "worst" and "best" only where the data says which way."""
        prop = self.parser.lex.property_name(str(g["prop"]))
        if prop is None:
            return None
        fn = _words()["property_fn"][str(g["property_fn"])]
        if fn in ("worst", "best"):
            if prop not in _data().get("worse_when_higher", []):
                return None
            fn = "max" if fn == "worst" else "min"
        sel = self._things(str(g["np"]), ctx)
        if sel is None or not (_has_noun(sel) or any(w.get("key") == "material" for w in sel.get("where") or [])):
            return None
        sel.pop("order", None)
        return {"op": "aggregate", "target": sel, "property": prop, "fn": fn}

    def _total(self, g: dict[str, str | None], ctx: ParseContext) -> Step | None:
        return self._aggregate({**g, "fn": "total"}, ctx)

    def _quantity_in_units(self, g: dict[str, str | None], ctx: ParseContext) -> Step | None:
        prop = _words()["unit_quantity"][str(g["unit_quantity"])]
        sel = self._things(str(g["np"]), ctx)
        if sel is None:
            return None
        if not _has_noun(sel) and not (sel.get("storey") or sel.get("room")):
            return None
        return {"op": "get", "target": sel, "property": prop}

    def _superlative_which(self, g: dict[str, str | None], ctx: ParseContext) -> Step | None:
        """"which is the biggest room", "which of the kitchens is the smallest": the one, not its size."""
        said = str(g["which_order"] or "biggest")  # "which room has the most floor space": the biggest
        order = _words()["which_order"][said]
        sel = self._things(str(g["np"]), ctx)
        if sel is None or not _has_noun(sel):
            return None
        sel.pop("ref", None)
        return {"op": "list", "target": {**sel, "order": order, "limit": 1}}

    def _choices(self, text: str, by: str, ctx: ParseContext) -> dict[str, Any] | None:
        """"…, level 1 or level 2": the storeys or rooms named as the choices, or None."""
        ids: list[str] = []
        for part in re.split(r",\s*|\s+or\s+", text.strip(" ?")):
            part = part.strip()
            if not part:
                continue
            if by == "storey":
                spec = self.parser._storey_spec(part, ctx)
                if spec is None or spec.startswith("missing:"):
                    return None
                ids.append(spec)
            else:
                hit = self.parser._room(part)
                if hit is None:
                    return None
                ids.extend(hit.ids)
        if len(ids) < 2:
            return None
        return {"class": ["IfcBuildingStorey" if by == "storey" else "IfcSpace"], "ids": sorted(set(ids))}

    def _superlative(self, g: dict[str, str | None], ctx: ParseContext) -> Step | None:
        w = _words()
        fn, implied = w["superlative"][str(g["superlative"])].split()
        asked = w["adjective"].get(str(g.get("adjective"))) if g.get("adjective") else None
        if implied != "null" and asked is not None and asked != implied:
            return None  # "how big is the tallest door": the size of one door, not the largest size
        prop = asked or (implied if implied != "null" else None)
        if prop is None:
            return None
        sel = self._things(str(g["np"]), ctx)
        if sel is None or not (_has_noun(sel) or any(w.get("key") == "material" for w in sel.get("where") or [])):
            return None
        sel.pop("order", None)
        return {"op": "aggregate", "target": sel, "property": prop, "fn": fn}

    def _average(self, g: dict[str, str | None], ctx: ParseContext) -> Step | None:
        prop = _words()["adjective"][str(g["adjective"])]
        sel = self._things(str(g["np"]), ctx)
        if sel is None or not _has_noun(sel):
            return None
        sel.pop("order", None)
        return {"op": "aggregate", "target": sel, "property": prop, "fn": "average"}

    def _group(self, g: dict[str, str | None], ctx: ParseContext, pick: bool = True) -> Step | None:
        # "which of the small offices has the most windows": rooms named as the choices, no group word
        by = _words()["group"][str(g["group"])] if g.get("group") else "room"
        sel = self._things(str(g["np"]), ctx)
        if sel is None or not _has_noun(sel):
            return None
        if sel.get("class") == ["IfcBuildingStorey"] or (by == "room" and sel.get("class") == ["IfcSpace"]):
            return None  # storeys per storey, rooms per room: not a question of groups
        sel.pop("order", None)
        step: Step = {"op": "group", "target": sel, "by": by}
        if pick:  # "which of them has actually got the windows": the one with the most
            step["pick"] = _words()["pick"][str(g["pick"])] if g.get("pick") else "most"
        among_text = (g.get("among") or "").strip()
        if g.get("choices"):
            choices = self._choices(str(g["choices"]), by, ctx)
            if choices is None:
                return None
            step["among"] = choices
        elif among_text:
            noun = "rooms" if by == "room" else "floors"
            among = self.parser.selector(f"{noun} {among_text}", ctx)
            if not among:
                return None
            among.pop("limit", None)
            among["class"] = ["IfcSpace" if by == "room" else "IfcBuildingStorey"]
            step["among"] = among
        return step

    def _per_group(self, g: dict[str, str | None], ctx: ParseContext) -> Step | None:
        return self._group(g, ctx, pick=False)

    def _storey_count(self, g: dict[str, str | None], ctx: ParseContext) -> Step | None:
        w = _words()
        side = w["ground"].get(str(g.get("ground"))) or w["ground_adjective"].get(str(g.get("ground_adjective")))
        if side is None:
            return None
        return {"op": "count", "target": {"class": ["IfcBuildingStorey"], "ground": side}}

    def _storey_extreme(self, g: dict[str, str | None], ctx: ParseContext) -> Step | None:
        order = _words()["storey_extreme"][str(g["storey_extreme"])]
        return {"op": "list", "target": {"class": ["IfcBuildingStorey"], "order": order, "limit": 1}}


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json

    from pyagent.language.dialogue import Dialogue
    from pyagent.language.lexicon import Lexicon
    from pyagent.language.parser import ParseContext, Parser, normalise
    from pyagent.language.scene_view import StillScene
    from pyagent.loader import load

    ap = argparse.ArgumentParser(prog="python -m pyagent.language.aggregates", description=__doc__.split("\n")[0])
    ap.add_argument("--ifc", required=True)
    ap.add_argument("--try", dest="text", required=True)
    args = ap.parse_args(argv)
    lb = load(args.ifc)
    parser = Parser(Lexicon.build(lb.building))
    # A scene with nothing selected or hidden, the user on the ground storey.
    steps = Aggregates(parser).clause(normalise(args.text), ParseContext(StillScene(), Dialogue()))
    print(json.dumps(steps))
    return 0 if steps else 1

if __name__ == "__main__":
    raise SystemExit(main())
