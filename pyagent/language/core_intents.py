"""Everyday requests by voice, from templates in data (``data/core_intents.yaml``, hassil's format):
hide, show, isolate, select, count, teleport, colour, transparency, delete, undo and redo.

Each intent maps to one op of the action schema. The ``{target}`` slot is a noun phrase read by the
parser's selector, so the building's own vocabulary applies (rooms, storeys, names); colours come from
the lexicon's ``COLOURS``. Templates match whole clauses only, and a clause whose noun phrase means
nothing here is left to the general parser (the hook answers None), so nothing it handles gets worse.

``python -m pyagent.language.core_intents --list`` prints every sentence the templates accept (slots
shown as ``{slot}``); ``--try "TEXT" --ifc FILE`` shows the intent, slots and program of one utterance;
``--share CASES`` counts how many of a benchmark's utterances the templates answer.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from hassil import Intents, recognize_all

from pyagent.language import phrasing
from pyagent.language import rx as re  # re's functions, with a cache that holds all the front end's patterns
from pyagent.language.lexicon import COLOUR_MODIFIERS, COLOURS

if TYPE_CHECKING:
    from pyagent.language.parser import ParseContext, Parser

TEMPLATES = Path(__file__).with_name("data") / "core_intents.yaml"
#: Noun phrases that mean every element when shown again ("show everything").
EVERYTHING = frozenset({"everything", "all", "it all", "all of it", "everything again", "all elements",
                        "all hidden elements", "hidden elements", "hidden things", "what is hidden"})
#: Owners that are the building itself ("how many doors does the house have"): no restriction.
BUILDING_OWNERS = re.compile(r"^(it|the (building|house|model|structure|project|site)|this (building|model|structure|"
                             r"project|site))$")  # "this house" of a terrace is one house: the noun phrase says
#: Alpha of a plain "transparent" (1 opaque, 0 invisible), as the general parser gives it.
SEE_THROUGH_ALPHA = 0.3
Step = dict[str, Any]


@dataclass
class CoreParse:
    """A recognised everyday request: its intent, slots and steps."""

    intent: str
    slots: dict[str, str] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(TEMPLATES.read_text(encoding="utf-8"))
    return data


def colour_phrases() -> list[str]:
    """Every colour phrase the templates hear: the lexicon's colours, "-ish", with a modifier
    ("dark blue", "lighter green"), and colours relative to the current one ("darker")."""
    out: list[str] = []
    for colour in COLOURS:
        out += [colour, f"{colour}ish"]
        if " " in colour:  # a named compound ("light blue") takes no further modifier
            continue
        for mod in COLOUR_MODIFIERS:
            if f"{mod} {colour}" not in COLOURS:
                out += [f"{mod} {colour}", f"{mod}er {colour}"]
    return out + ["darker", "lighter", "brighter", "the same color"]


@lru_cache(maxsize=1)
def _intents() -> Intents:
    data = {k: v for k, v in _data().items() if k not in ("defer", "samples")}
    lists = dict(data.get("lists", {}))
    lists["color"] = {"values": colour_phrases()}
    lists["degree"] = {"values": sorted(phrasing.see_through_degrees())}
    return Intents.from_dict(dict(data, lists=lists))


@lru_cache(maxsize=1)
def _defer() -> dict[str, list[re.Pattern[str]]]:
    return {name: [re.compile(p) for p in patterns] for name, patterns in (_data().get("defer") or {}).items()}


@lru_cache(maxsize=1)
def _openings() -> frozenset[str]:
    """The first two words a template can begin with ("how many", "take me"; a slot as "{"): a clause
    beginning otherwise is not matched at all (most clauses are not everyday requests; this is quick)."""
    return frozenset(" ".join(w if not w.startswith("{") else "{" for w in text.split()[:2])
                     for _, text in sentences())


def _may_match(t: str) -> bool:
    words = t.split()
    open2 = _openings()
    return " ".join(words[:2]) in open2 or (len(words) > 1 and f"{words[0]} {{" in open2)


def _clean(text: str) -> str:
    t = re.sub(r"\s*%", " percent", text.lower())
    return re.sub(r"\s+", " ", t).strip(" ,")


def _deferred(intent: str, target: str) -> bool:
    """The general parser reads this noun phrase first with another handler."""
    d = _defer()
    return any(p.search(target) for p in d.get("all", []) + d.get(intent, []))


class CoreIntents:
    """Recognises the everyday requests of ``data/core_intents.yaml`` and builds their steps."""

    def __init__(self, parser: Parser) -> None:
        self.parser = parser
        self.heard: Counter[str] = Counter()  # intent -> clauses answered, for measuring the templates' share

    def clause(self, text: str, ctx: ParseContext, so_far: list[Step] | None = None) -> list[Step] | None:
        """The parser's clause hook: the steps of an everyday request, None when the clause is not one
        or its noun phrase means nothing here (the general parser then tries it)."""
        parsed = self.parse(text, ctx)
        if parsed is None:
            return None
        self.heard[parsed.intent] += 1
        return parsed.steps

    def parse(self, text: str, ctx: ParseContext) -> CoreParse | None:
        t = _clean(text)
        if not t or not _may_match(t):
            return None
        # A wildcard can take words a list value would have taken ("the walls dark" + "blue"): of all the
        # ways the templates match, the one whose wildcards took the fewest characters is tried first.
        results = sorted(recognize_all(t, _intents()), key=lambda r: sum(
            len(str(e.text or e.value)) for e in r.entities_list if getattr(e, "is_wildcard", False)))
        for result in results:
            if result.intent is None:
                continue
            slots = {k: str(v.value).strip() for k, v in result.entities.items()}
            intent = result.intent.name
            if intent == "Count" and "owner" not in slots and re.search(r"\bhas it\b", t):
                slots["owner"] = "it"  # "how many windows has it got"
            if "target" in slots and _deferred(intent, slots["target"]):
                continue
            step = self._step(intent, slots, ctx)
            if step is not None:
                return CoreParse(intent, slots, [step])
        return None

    def _sel(self, text: str, ctx: ParseContext) -> dict[str, Any] | None:
        return self.parser.selector(text, ctx)

    def _step(self, intent: str, slots: dict[str, str], ctx: ParseContext) -> Step | None:
        from pyagent.language.parser import _is_singular, isolated

        if intent == "Undo" or intent == "Redo":
            count = int(float(slots["count"])) if slots.get("count") else 1
            op = intent.lower()
            return {"op": op, "count": count} if count > 1 else {"op": op}
        if intent == "Deselect":
            return {"op": "select", "target": {"ids": []}}
        np_text = slots.get("target", "")
        if intent in ("Count", "CountVisible"):
            return self._count(slots, ctx, visible=intent == "CountVisible")
        if intent in ("Show", "ShowMe") and np_text in EVERYTHING:
            return {"op": "show", "target": {}}
        sel = self._sel(np_text, ctx)
        if sel is None:
            return None
        if intent == "Isolate":
            return {"op": "isolate", "target": isolated(sel)}
        if intent in ("Hide", "Select", "Delete"):
            return {"op": intent.lower(), "target": sel}
        if intent in ("Show", "ShowMe"):
            if not _is_singular(np_text, self.parser._heads):
                sel.pop("limit", None)
            if intent == "ShowMe" and not ctx.hidden_any(sel):
                return {"op": "select", "target": sel}
            return {"op": "show", "target": sel}
        if intent == "Teleport":
            return {"op": "teleport", "target": self.parser.teleport_target(sel, np_text, ctx)}
        if intent == "Color":
            rgba = self.parser._rgba(slots["color"], sel, ctx)
            return {"op": "color", "target": sel, "rgba": rgba} if rgba is not None else None
        if intent == "SeeThrough":
            degree = slots.get("degree")
            alpha = phrasing.see_through_degrees()[degree] if degree else SEE_THROUGH_ALPHA
            return {"op": "transparency", "target": sel, "alpha": alpha}
        if intent == "Opaque":
            return {"op": "transparency", "target": sel, "alpha": 1.0}
        if intent in ("TransparencyPercent", "OpacityPercent"):
            frac = max(0.0, min(1.0, float(slots["percent"]) / 100.0))
            alpha = frac if intent == "OpacityPercent" else 1.0 - frac
            return {"op": "transparency", "target": sel, "alpha": round(alpha, 4)}
        raise ValueError(f"core intent {intent} has no step")  # a template without a builder: a bug

    def _count(self, slots: dict[str, str], ctx: ParseContext, visible: bool) -> Step | None:
        np_text = slots["target"]
        if slots.get("where"):
            np_text += " " + slots["where"]
        owner = slots.get("owner", "")
        if owner and not BUILDING_OWNERS.match(owner):
            np_text += " in " + owner
        elif owner == "it" and self.parser.it_is_one_room(ctx):  # "which room is this?" ... "how many doors has it?"
            np_text += " in it"
        if visible:
            np_text += " visible"
        sel = self._sel(self.parser.counted(np_text), ctx)
        if sel is None:
            return None
        sel.pop("limit", None)
        return {"op": "count", "target": sel}


def sentences() -> list[tuple[str, str]]:
    """Every (intent, sentence) the templates accept, slots written as ``{slot}``."""
    from hassil.sample import sample_intents

    data = {k: v for k, v in _data().items() if k not in ("defer", "samples")}
    lists = {name: {"wildcard": True} for name in ("target", "owner", "where", "color", "degree", "percent", "count")}
    intents = Intents.from_dict(dict(data, lists=lists))
    out = list(sample_intents(intents, exclude_sentences_with_wildcards=False))
    return [(str(name), " ".join(str(text).split())) for name, text in out]


def samples() -> tuple[str, list[tuple[str, str, dict[str, Any]]]]:
    """The data's sample sentences: (building file, [(intent, sentence, expected program)])."""
    data = dict(_data()["samples"])
    ifc = str(data.pop("ifc"))
    return ifc, [(intent, str(s["say"]), dict(s["program"])) for intent, rows in data.items() for s in rows]


def _front(ifc: str) -> Any:
    """A fresh session on ``ifc`` (through the evaluator's harness, which alone may open sessions here)."""
    from pyagent.language.evaluate import Sessions

    session = Sessions().fresh(str(Path(ifc).resolve()))
    return session, session.front_end()


def _share(cases_path: str) -> int:
    """How many of a benchmark's utterances the templates answer (a clause of them, in the last say)."""
    from pyagent.language.evaluate import Sessions, _setup, load_cases
    from pyagent.model import Pose

    cases = load_cases(Path(cases_path))
    sessions = Sessions()
    hit = 0
    by_intent: Counter[str] = Counter()
    for case in cases:
        session = sessions.fresh(case.ifc)
        sessions.front_ready(session)
        session.set_pose(Pose.from_json(case.pose))
        _setup(session, case, gold=False)
        core: CoreIntents = session.front_end().core
        before = Counter(core.heard)
        session.say(case.say)
        new = core.heard - before
        if new:
            hit += 1
            by_intent.update(new)
    print(f"answered by the core templates: {hit}/{len(cases)} = {100.0 * hit / max(1, len(cases)):.1f} %")
    print("by intent:", dict(by_intent.most_common()))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pyagent.language.core_intents", description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="print every sentence the templates accept")
    ap.add_argument("--try", dest="text", help="show the intent, slots and program of one utterance")
    ap.add_argument("--ifc", default="ifc/AC20-FZK-Haus.ifc", help="the building --try reads (default: %(default)s)")
    ap.add_argument("--share", metavar="CASES", help="count the benchmark utterances the templates answer")
    args = ap.parse_args(argv)
    if args.share:
        return _share(args.share)
    if args.text:
        from pyagent.language.dialogue import Dialogue
        from pyagent.language.parser import ParseContext, normalise, split_clauses

        session, front = _front(args.ifc)
        ctx = ParseContext(session.view(), Dialogue(), args.text)
        found = False
        for clause in split_clauses(normalise(args.text)):
            parsed = front.core.parse(clause, ctx)
            if parsed is None:
                print(f"{clause!r}: no core intent (left to the general parser)")
                continue
            found = True
            print(f"{clause!r}: {parsed.intent} {parsed.slots}")
        print("program:", front.parser.parse(args.text, session.view(), Dialogue()).program)
        return 0 if found else 1
    rows = sentences()
    for name, text in rows:
        print(f"{name}\t{text}")
    print(f"{len(rows)} sentences in {len({n for n, _ in rows})} intents", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
