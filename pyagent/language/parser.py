"""The deterministic parser: everyday English -> an action program (the schema's shape).

Pattern-based, with its vocabulary built from the loaded building (see ``lexicon``). A sentence is
split into clauses ("hide the doors and paint the walls white"); each clause gets an intent from its
verb phrase and selectors from its noun phrases (class words, kinds, room and storey names in the
file's language or everyday words, relations to the user or other elements, superlatives,
ordinals, numbers with units). It returns ``None`` when it does not understand, so that the
language model can try; it never guesses silently: ambiguous references become clarifications in
the executor.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import threading
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from pyagent.actions.schema import load_schema
from pyagent.actions.selectors import DIRECTIONAL
from pyagent.language import phrasing, spoken_numbers
from pyagent.language import rx as re  # re's functions, with a cache that holds all the front end's patterns
from pyagent.language.building_words import unknown_word_reply
from pyagent.language.dialogue import Dialogue
from pyagent.language.lexicon import (
    BUILTIN_PROPERTIES,
    COLOUR_MODIFIERS,
    COLOURS,
    NAME_WORDS,
    ROOM_SYNONYMS,
    ROOM_WORD_ALIASES,
    STOREY_WORDS,
    Lexicon,
    ascii_fold,
    fold,
)
from pyagent.language.noun_phrase import NounPhraseReader
from pyagent.language.noun_phrase_selector import NotCovered, selector_of
from pyagent.language.noun_phrase_tokens import MATERIAL_WORDS
from pyagent.language.scene_view import SceneView
from pyagent.language.storey_ordinals import resolve_storey, storey_number
from pyagent.language.units import length_units
from pyagent.model import Building, Storey
from pyagent.vocabulary import (
    CLASS_WORDS,
    KIND_WORDS,
    class_matches,
    class_name_words,
    class_noun,
    plural_noun,
    singular_noun,
)

Selector = dict[str, Any]

#: Ops that only ask (a question can be asked again of other things in the same breath).
_QUESTION_OPS = frozenset({"count", "list", "exists", "get", "aggregate", "distance", "route", "describe"})
#: Changes said once and made again on other things in the same breath ("colour the office blue, and Kris's
#: office as well").
_SAME_AGAIN_OPS = frozenset({"color", "hide", "show", "select", "transparency"})

#: How much higher than the lowest rooms' floor a room's floor must be to be upstairs where a file models two
#: floors on one storey (metres; a split level's half flight is less).
_STOREY_RISE = 2.0
Step = dict[str, Any]
#: Everyday words that pick elements by fragments of their names (the main entrance among them).

FILLERS = (r"\b(please|pls|kindly|hey|hi|ok(ay)?|um+|uh+|er+|hmm+|yeah|yep|so(?! (that )?(i|we|you) (can|could)\b)|"
           r"(?<!as )well|(?<!for )now|quickly|for me|thanks|thank you|let us|i think|i guess|i suppose|"
           r"i am not (sure|certain)( ?,)?( but)?|sort of|kind of(?= (a|an|the|like|make|hide|show|take|go)\b)|"
           r"like(?= ,| \d| (take|go|show|hide|make|how|what|where|which|walk|move|turn|put|paint|color)\b)|"
           r"(?<=,)like\b|(?<=, )like\b|"
           r"as well(?= *(,|$))|(would|could|will) you be so kind as to|be so kind as to|would you kindly|"
           r"i am curious( ?,)?|i was wondering( ?,)?( if)?|just wondering( ?,)?|(?<=,) *quick(ly)?\b|"
           r"(can|could|shall|should|may) we(?= (nudge|move|shift|hide|show|make|color|paint|put|add|delete|remove|"
           r"turn|go|take|isolate|select|get|see|have|cut|save)\b)|we can(?= (delete|remove|hide|show|move|add)\b)|"
           r"real quick|oops|whoops|oh no|sorry|exactly|precisely|"
           r"^no(?=,| ,| no\b| (i|sorry|wait|not|the other|that|undo)\b)|"
           r", no|quick question|question|i want that you|i would like that you|"
           r"i wonder|"
           r"i'?d like to know|i want to know|"
           r"i would like to know|do you know|tell me|find out|if you (can|could|would)|"
           r"would you mind|do you mind|go ahead and|i want you to|"
           r"i'?d like (you )?to|i would like (you )?to|i want to|i need (you )?to|let'?s|can you|could you|"
           r"would you|will you|you know|basically|actually|maybe|just quickly|alright)\b")
CONTRACTIONS = {"what's": "what is", "where's": "where is", "how's": "how is", "that's": "that is",
                "there's": "there is", "it's": "it is", "i'm": "i am", "don't": "do not", "doesn't": "does not",
                "isn't": "is not", "aren't": "are not", "can't": "cannot", "won't": "will not", "let's": "let us",
                "who's": "who is", "they're": "they are", "he's": "he is", "she's": "she is", "i've": "i have",
                "we're": "we are", "you're": "you are",
                "i'd": "i would", "we'd": "we would", "you'd": "you would", "didn't": "did not",
                "haven't": "have not", "hasn't": "has not", "wasn't": "was not", "weren't": "were not",
                "colour": "color", "colours": "colors", "coloured": "colored", "grey": "gray", "metre": "meter",
                "metres": "meters", "centimetre": "centimeter", "centimetres": "centimeters", "storeys": "floors",
                "storey": "floor", "stories": "floors", "story": "floor", "levels": "floors", "level": "floor",
                # as a speech recogniser writes them, without the apostrophe ("its", "were", "id", "ill" and
                # "well" are words of their own and stay)
                "whats": "what is", "wheres": "where is", "hows": "how is", "thats": "that is", "theres": "there is",
                "im": "i am", "dont": "do not", "doesnt": "does not", "isnt": "is not", "arent": "are not",
                "cant": "cannot", "wont": "will not", "whos": "who is", "theyre": "they are", "ive": "i have",
                "youre": "you are", "wanna": "want to", "gonna": "going to", "gotta": "have to", "didnt": "did not"}
VERBS_AFTER_AND = (
    "hide", "show", "unhide", "paint", "color", "make", "turn", "move", "shift", "push", "rotate", "spin",
    "delete", "remove", "add", "put", "place", "take", "go", "bring", "tell", "how", "what", "which", "count",
    "list", "select", "highlight", "look", "face", "undo", "redo", "save", "isolate", "where", "is", "are",
    "then", "give", "set", "teleport", "walk", "reset", "get", "mark", "note", "change", "open", "drop",
    "rotate", "flip", "raise", "lower", "lift", "slide", "insert", "describe", "measure", "find", "display",
    "cut", "clip", "slice", "crop", "remember", "store", "bookmark", "switch", "shrink", "export")
#: Verbs a request begins with besides ``VERBS_AFTER_AND`` (the British spelling, checking, fading).
_MORE_VERBS = frozenset({"colour", "check", "fade"})
MODIFIER_STOP = {
    "the", "a", "an", "my", "this", "that", "these", "those", "all", "every", "each", "any", "some", "other", "same",
    "nearest", "closest", "furthest", "farthest", "biggest", "largest", "smallest", "tallest", "highest", "lowest",
    "widest", "longest", "visible", "hidden", "outer", "inner", "interior", "exterior", "external", "internal",
    "outside", "inside", "left", "right", "north", "south", "east", "west", "upper", "lower", "last", "next", "both",
    "many", "much", "total", "whole", "entire", "single", "double", "big", "small", "large", "little", "new", "old"}
UNKNOWN_ROOM_STOP = {"structure", "project", "site", "world", "scene", "file", "total", "view", "sight",
                     "here", "there", "front", "general", "all", "it", "them", "this",
                     "that", "one", "order", "line", "place", "house", "building", "model", "the", "my", "our",
                     "use", "between", "half", "red", "blue", "green", "white", "black", "grey", "gray"}
KNOWN_ADJECTIVES = {
    "nice", "pretty", "ugly", "little", "tiny", "huge", "giant", "main", "front", "back", "rear", "side", "corner",
    "open", "closed", "shut", "middle", "central", "centre", "center", "near", "close", "nearby", "remaining",
    "other", "another", "current", "selected", "highlighted", "hidden", "shown", "visible", "existing", "original",
    "tall", "short", "wide", "narrow", "long", "thin", "thick", "high", "low", "lower", "upper", "above", "below",
    "single", "double", "both", "various", "several", "many", "every", "each", "those", "these", "which", "what",
    "whole", "entire", "full", "half", "empty", "primary", "first", "second", "third", "last", "final",
    "next", "previous", "same", "different", "white", "coloured", "colored", "painted", "transparent", "solid",
    "structural", "load", "bearing", "building", "house", "model", "room", "floor", "ground", "upstairs",
    "downstairs", "there", "here", "your", "their", "some", "about", "around", "really", "very", "please",
    "square", "round", "rectangular", "circular", "oval", "vertical", "horizontal", "diagonal", "upright"}
# A storey by number: "level two", "the 2nd floor", "floor 3" ("one floor up" is a move, not a storey).
_ORDINAL_STOREY = (re.compile(r"\bfloor [\w.]+\b(?! (up|down|above|below|higher|lower|further))"),
                   re.compile(r"\b[\w.]+ floor\b(?! (up|down|above|below|higher|lower|further))"))


def _storey_numbers(t: str) -> list[re.Match[str]]:
    """The phrases of ``t`` that name a storey by number, in order."""
    found = [m for pattern in _ORDINAL_STOREY for m in pattern.finditer(t) if storey_number(m.group(0)) is not None]
    return sorted(found, key=lambda m: m.start())
USER_WORDS = r"(me|myself|you|us|here|the user|my position|where i am|where i stand|where i'm standing)"


@dataclass
class ParseResult:
    program: dict[str, Any] | None
    confidence: float
    reason: str = ""
    clauses: list[str] = field(default_factory=list)
    recognised: bool = False  # the request was recognised but a part of it means nothing usable


@dataclass(frozen=True)
class RoomHit:
    """A room named in a noun phrase: its ids (homonyms: several), where, and whether plural ("kitchens")."""

    ids: list[str]
    span: tuple[int, int]
    plural: bool


NOTE_VERBS = (r"note|make a note|take a note|add a note|record|remember|log|flag|write down|raise an issue|"
              r"create an issue|add an issue|open an issue")


def normalise(text: str) -> str:
    t = fold(text)
    t = re.sub(r"[\"“”]", " ", t)
    for a, b in CONTRACTIONS.items():
        t = re.sub(rf"\b{re.escape(a)}\b", b, t)
    t = re.sub(r"\b(how far|how big|how tall|how long|how wide|how high|how deep|which one|which)'s\b", r"\1 is", t)
    t = re.sub(r"\b(\w+)'s (it|that|this|the|there)\b", r"\1 is \2", t)
    t = re.sub(r"\b(\w+)'s (in the way|just clutter|clutter|not needed|distracting)\b", r"\1 is \2", t)
    t = re.sub(r"(\d),(\d)", r"\1.\2", t)
    t = spoken_numbers.unglued(t)  # 2m -> 2 m, 90° -> 90 °, 1stfloor -> 1st floor
    t = re.sub(r"(?<!\w)'em\b", "them", t)  # "hide 'em"
    t = re.sub(r"\s[-–—]+\s", " , ", t)  # "columns - what section are they?": a pause
    t = re.sub(r"[?!;]|:(?!\d\d)", " , ", t)  # keep clock times (15:00)
    t = re.sub(r"(?<!\d)\.(?!\d)", " , ", t)
    t = t.replace("°", " degrees ").replace("²", " square").replace("³", " cubic")
    t = re.sub(r"\bone and a half\b", "1.5", t)
    t = spoken_numbers.spelt_digits(t)  # "room one oh two" -> "room 102"
    t = spoken_numbers.digits(t)  # "two" -> "2", "forty two" -> "42"; ordinals and a lone "one" stay words
    t = re.sub(r"\b(\d+(?:\.\d+)?) and a half\b", lambda m: _fmt(float(m.group(1)) + 0.5), t)  # before "a half"
    # ("this one half a metre": half a metre; "make that one half see-through": that one, half)
    t = re.sub(r"(?<!\bthat )(?<!\bthis )(?<!\bthe )\b(a|one) half\b(?! an? )", "0.5", t)
    t = re.sub(r"\bhalf an? (meter|m|foot)\b", r"0.5 \1", t)
    t = re.sub(r"\bhalf a turn\b", "180 degrees", t)
    t = re.sub(r"\ba quarter turn\b", "90 degrees", t)
    t = re.sub(rf"\bone (?=({_unit_words()}|degrees?)\b)", "1 ", t)
    t = re.sub(r"\ban? (meter|m|foot|centimeter|cm|degree)\b", r"1 \1", t)
    # "make the beams orange, no, sorry, the columns", "hide the walls... actually no, just the outside walls":
    # a correction inside the request (before "no" and "sorry" go as fillers); "the kitchen walls er no the utility
    # room walls" as a recogniser writes it, with a hesitation for the pause
    t = re.sub(r"(\s*,\s*|\s+(?:er|erm|uh|um|uhm|ah|oh)\s*,?\s*)(actually\s*,?\s*)?no\s*,?\s*(sorry\s*,?\s*)?"
               r"(i mean\s*,?\s*|i meant\s*,?\s*)?"
               r"((just|only)\s+)?(?=(the|all the|those|these) |(on|in|at) (the )?"
               r"((upper|lower|top|bottom|ground|first|second|third|next|other) )?(floor|level|storey)\b|upstairs\b|"
               r"downstairs\b)", " , i meant ", t)
    t = phrasing.polite(t)
    t = re.sub(FILLERS, " ", t)
    t = re.sub(r"\bhow (tall|high|wide|long|deep|thick|big|large|far( away)?|heavy|old) (it|they|this|that|these|those)"
               r" (is|are)\b", r"how \1 \4 \3", t)
    # "this house": one house of a terrace ("on top of this one", "in front of this one": a thing said before)
    t = re.sub(r"(?<!top )(?<!side )(?<!back )(?<!front )(?<!left )(?<!right )(?<!north )(?<!south )(?<!east )"
               r"(?<!west )\b(in|of) this (one|building|model|project|frame|structure)\b", " ", t)
    t = re.sub(r"(?:\s*,)+\s*", " , ", t)
    t = re.sub(r"\s+", " ", t).strip(" ,")
    return phrasing.rewrite(_gerund_request(t)).strip(" ,")


def _gerund_request(t: str) -> str:
    """A request said as a gerund, as "would you mind making the walls see-through" leaves it once its
    politeness is gone: the verb's base form (lemminflect), when that is a verb requests begin with."""
    m = re.match(r"(?:(?:would|do|could) you mind )?(?P<v>[a-z]+ing)\b", t)
    if m is None:
        return t
    from lemminflect import getLemma

    lemma = next((w for w in getLemma(m.group("v"), upos="VERB") if w in VERBS_AFTER_AND or w in _MORE_VERBS), None)
    return lemma + t[m.end():] if lemma else t


@lru_cache(maxsize=1)
def _unit_words() -> str:
    """The length units as a regex alternation, longest first; not "in" (an inch, and a preposition)."""
    return "|".join(re.escape(u) for u in sorted(length_units(), key=len, reverse=True) if u != "in")


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else str(v)


class ClauseError(Exception):
    """A clause was recognised but cannot become a program; the message says why, for the user."""


#: A recogniser tried on each normalised clause before the built-in handlers (with the steps of the
#: utterance's earlier clauses): steps, or None.
ClauseHook = Callable[[str, "ParseContext", "list[Step]"], "list[Step] | None"]


#: A follow-up that asks the last question of the whole building ("and in the whole building?", "what about
#: overall?", "and in total?").
_WHOLE_BUILDING = re.compile(
    r"(ok |okay |so )?(and|what about|how about|and what about|and how about|and now)? ?"
    r"((in|for|across|throughout|of|over) (the whole|the entire|all of the|all the|the full|the)|the whole|the entire) "
    r"(building|house|model|project|place|complex|block|duplex|terrace|scheme)"
    r"( (in total|altogether|overall|together|combined|as a whole))?"
    r"|(ok |okay |so )?(and|what about|how about|and what about) (in total|altogether|overall|all together|everywhere|"
    r"in all|all told|combined|across the board)")


def _unscoped(last: list[Step]) -> list[Step] | None:
    """The last steps with their targets no longer kept to a dwelling, storey or room; None when nothing of
    them was so kept (then the follow-up means something else)."""
    steps: list[Step] = []
    changed = False
    for s in last:
        s2 = copy.deepcopy(s)
        base = s2.get("target")
        if isinstance(base, dict):
            rels = [r for r in base.get("relations", []) if r["rel"] not in ("unit", "in", "on_floor")]
            changed |= len(rels) != len(base.get("relations", [])) or "storey" in base or "room" in base
            base.pop("storey", None)
            base.pop("room", None)
            base.pop("relations", None)
            if rels:
                base["relations"] = rels
        steps.append(s2)
    return steps if changed else None


class Parser:
    def __init__(self, lexicon: Lexicon, hooks: Sequence[ClauseHook] = ()) -> None:
        self.lex = lexicon
        self.hooks: list[ClauseHook] = list(hooks)
        b = lexicon.building
        words = sorted(set(lexicon.class_words) | {plural_noun(w) for w in lexicon.class_words}, key=len, reverse=True)
        self._class_re = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b")
        self._heads = frozenset(w.split()[-1] for w in lexicon.class_words if " " in w)
        kinds = sorted(set(lexicon.kinds) | {plural_noun(k) for k in lexicon.kinds}, key=len, reverse=True)
        self._kind_re = re.compile(r"\b(" + "|".join(map(re.escape, kinds)) + r")\b")
        self._storey_names = sorted(lexicon.storeys, key=len, reverse=True)
        # The building's phrases compiled once (a parse tries them all; compiled on the fly they would
        # crowd the regular-expression cache and be compiled again and again).
        self._storey_name_res = [(re.compile(rf"\b{re.escape(p)}\b"), p) for p in self._storey_names]
        self._storey_word_res = [(re.compile(rf"\b{re.escape(p)}\b"), spec)
                                 for p, spec in sorted(STOREY_WORDS.items(), key=lambda kv: -len(kv[0]))]
        self._storey_strip_res = [re.compile(rf"\b(on|at|of|in|from)?\s*(the )?{re.escape(p)}\b")
                                  for p in self._storey_names + sorted(STOREY_WORDS, key=len, reverse=True)]
        self._room_res = [(re.compile(rf"(?<![\w]){re.escape(e.phrase)}(s|es|'s)?(?![\w])"), e) for e in lexicon.rooms]
        self.building = b
        self.noun_phrases = NounPhraseReader(lexicon)
        self._again = threading.local()  # a phrase being read again (``_read_again``), per parsing thread

    # ---- top level ------------------------------------------------------------------------
    def parse(self, text: str, scene: SceneView, dialogue: Dialogue) -> ParseResult:
        """The program ``text`` asks for, or why there is none. A function of its arguments and the
        building's vocabulary (this parser's lexicon): the scene is only asked (``SceneView`` is
        read-only) and nothing is kept from one parse to the next. Words as a speech recogniser writes
        them, without any punctuation, that mean nothing as they stand are read again with the pauses a
        speaker makes put back (``with_pauses``)."""
        finish = self._finish_said(normalise(text)) if "floor" in text.lower() else None
        if finish is not None:  # "which rooms have a tiled floor": the rooms, then only those with that finish
            said_without, where = finish
            got = self.parse(said_without, scene, dialogue)
            if got.program is not None:
                steps = [{**st, "target": {**st["target"], "where": [*st["target"].get("where", []), where]}}
                         if isinstance(st.get("target"), dict) and st["target"].get("class") == ["IfcSpace"] else st
                         for st in got.program["steps"]]
                if steps != got.program["steps"]:
                    return dataclasses.replace(got, program={"steps": steps})
        got = self._parse(text, scene, dialogue)
        if got.program is None:
            fixed = _target_corrected(normalise(text), self._only_a_room)
            if fixed is not None:
                again = self._parse(fixed, scene, dialogue, raw=text)
                if again.program is not None:
                    return again
        if got.program is None and not got.recognised and not re.search(r"[,.;:?!]", text):
            paused = with_pauses(text)
            if paused != text:
                again = self._parse(paused, scene, dialogue)
                if again.program is not None or again.recognised:
                    return again
        return got

    def _parse(self, text: str, scene: SceneView, dialogue: Dialogue, raw: str | None = None) -> ParseResult:
        """``raw``: the words as said, where ``text`` is a corrected reading of them (a name said as said)."""
        ctx = ParseContext(scene, dialogue, raw or text)
        t = normalise(text)
        if not t:
            return ParseResult(None, 0.0, "nothing was said")
        # "make the beams black, no wait, dark grey": the value said last (before a fragment reads the colour)
        t = _value_corrected(t)
        t = self._front_said(t)
        said = t
        t = self._rooms_asked_again(t, ctx)
        t = self._topicalised(t)
        if t == said:
            fragment = self._fragment(t, ctx)
            if isinstance(fragment, list):
                return ParseResult({"steps": fragment}, 1.0, "", [t])
            t = fragment or t
        # "paint the door on my right red, the closest one": the choice said after, put before the noun
        # ("put a sofa in the living room, the big one on the ground floor": with where it is)
        # (after a correction, of the thing meant: "hide the front door, no wait, the garage door, the big one")
        said_before, meant_now, after = t.rpartition(" , i meant " if " , i meant " in t else " , i mean ")
        t = said_before + meant_now + re.sub(
            r"^(?P<head>.*?\bthe )(?P<body>.+) , the (?P<which>\w+est|nearest|closest|furthest|farthest|"
            r"first|last|second|third|big|small|large|left|right) one(?P<where> (on|in|at) the [^,]+|"
            r" upstairs| downstairs)?$", r"\g<head>\g<which> \g<body>\g<where>", after)
        # "make the beams orange, no, sorry, the columns" (normalised to "..., i meant the columns"): the
        # request is read, then made on the things meant, as a correction of the last request is
        meant = re.fullmatch(r"(?P<req>.+?) , i mean(t)? (?P<np>(the|all the|all of the|those|these) [^,]+|"
                             rf"{_NUMBERED_PLACE})", t)
        meant_sel = self.selector(meant.group("np"), ctx) if meant is not None else None
        if meant is not None and meant_sel and meant_sel.get("class") == ["IfcSpace"]:
            # "colour the walls of the bathroom yellow, i meant the bedroom": a room in place of the room named
            # (the things of it kept), not the room itself coloured
            fixed = _target_corrected(t, self._only_a_room)
            again = self._parse(fixed, scene, dialogue, raw=ctx.raw) if fixed is not None else None
            if again is not None and again.program is not None:
                if not any(st.get("target", {}).get("class") == ["IfcSpace"] for st in again.program["steps"]):
                    return again
                # "the floor area of the master bedroom, I mean bedroom one in unit A": a room asked about in
                # place of a room, where the request was about a room (or named one the building has not)
                before = self._parse(meant.group("req"), scene, dialogue)
                if before.program is None or all(st.get("target", {}).get("class") == ["IfcSpace"]
                                                 for st in before.program["steps"]):
                    return again
        if meant is not None and meant_sel:
            t = meant.group("req")
        elif meant is not None and re.search(r"\bones?\b", meant.group("np")):
            # "colour the columns orange, sorry, only the concrete ones": the request on the ones meant
            fixed = _target_corrected(t, self._only_a_room)
            again = self._parse(fixed, scene, dialogue, raw=ctx.raw) if fixed is not None and fixed != t else None
            if again is not None and again.program is not None:
                return again
        elif meant is not None:
            # "take me to the seminar room actually no the open plan office": a correction naming a thing by a
            # word the building does not have; nothing is done (not the request it corrects)
            head = singular_noun(meant.group("np").split()[-1])
            unknown = unknown_word_reply(head, self.lex.vocabulary())
            if unknown is not None and not self._class_re.search(f" {head} ") and head not in self.lex.kinds:
                return ParseResult(None, 0.0, f"I did not understand '{meant.group('np')}'. {unknown}", [t],
                                   recognised=True)
        owned = self._with_its(t, ctx, scene, dialogue)
        if owned is not None:
            return owned
        clauses = split_clauses(t)
        steps: list[Step] = []
        low_confidence = False
        said_before = ""
        aside_topic: str | None = None
        aside_place: str | None = None  # a room, storey or dwelling a remark named ("buying this half")
        for n_clause, clause in enumerate(clauses):
            if len(clauses) > 1 and phrasing.is_aside(clause) \
                    and re.match(r"(i am|we are|i was|we were|i have been|we have been) (?!(just )?(going|heading|"
                                 r"moving|walking|coming|getting) (to|into|in|up|down|over|back)\b)", clause):
                aside_topic = self._named_in(clause) or aside_topic
                aside_place = self._named_in(clause, place=True) or aside_place
                continue  # "so I'm in the living room, how far ...", "I'm pricing the sanitary, ...": not a request
            if aside_topic is not None and not steps and _PRONOUN.search(clause):
                # "I'm thinking of a dressing table under the window on my right, how high is its sill": the
                # thing the aside named
                clause = _PRONOUN.sub(aside_topic.replace("\\", ""), clause, count=1)
                aside_topic = None
            elif aside_place is not None and not steps:
                # "we're looking at buying this half, what's the total floor area": the place the remark named
                clause = _asked_of_place(clause, aside_place)
                aside_place = None
            clause = _ones_named(clause, steps)
            placing = _PLACING.match(clause) is not None
            # "select the shop, ... pop a plant in there": in the room the request before was about
            clause, there = _of_the_room_before(clause, steps or (ctx.last_steps() if placing else []))
            clause = self._full_height(clause)
            if steps and steps[-1].get("op") == "group" and steps[-1].get("pick") \
                    and re.fullmatch(r"(and )?how many( are there| of them| exactly| then| has it| does it have)?",
                                     clause):
                continue  # "which floor has the most doors, and how many": the answer says how many already
            clause = _count_said_again(clause, steps, said_before)
            try:
                got = self._clause(clause, dataclasses.replace(ctx, said_before=tuple(steps)) if steps else ctx, steps)
            except ClauseError as exc:
                return ParseResult(None, 0.0, str(exc), clauses, recognised=True)
            if got is None:
                got = self._asked_of_both(clause, ctx, steps)
            if got is None and not steps and len(clauses) > 1 and (alone := phrasing.rewrite(clause)) != clause:
                # "I'm in Kris's office, how far is it to walk over to the seminar room": the question after a
                # remark read as it would be said alone
                try:
                    got = self._clause(alone, ctx, steps)
                except ClauseError:
                    got = None
            if got is None and len(clauses) > 1 and (_is_filler_clause(clause) or phrasing.is_aside(clause)):
                taken_up = n_clause + 1 < len(clauses) and _PRONOUN.search(clauses[n_clause + 1]) is not None
                aside_topic = self._named_in(clause) or (self._named_within(clause) if taken_up else None) \
                    or aside_topic
                continue
            if got is None and " , " in clause:  # "does it face east , i do like the morning sun": without the aside
                kept = " , ".join(p for p in clause.split(" , ") if not (phrasing.is_aside(p) or _is_filler_clause(p)))
                if kept and kept != clause:
                    try:
                        got = self._clause(kept, ctx, steps)
                    except ClauseError as exc:
                        return ParseResult(None, 0.0, str(exc), clauses, recognised=True)
            if got is None and " , " in clause:  # "hide all the wall finishes , the plaster and the tiles": the
                # things said again as examples after the request
                first, *rest = [p for p in clause.split(" , ") if not (phrasing.is_aside(p) or _is_filler_clause(p))] \
                    or [clause]
                if rest and all(re.fullmatch(r"(the|all the|those|these|any) [a-z' ]+", p)
                                and not set(p.split()) & set(VERBS_AFTER_AND) for p in rest):
                    try:
                        got = self._clause(first, ctx, steps)
                        verb = re.match(r"(?P<v>.+?) (the|all the|those|these|any) ", first)
                        if got is None and verb is not None:  # "isolate the roof timbers , the joists and
                            # purlins": the things said again in words this building knows
                            got = self._clause(f"{verb.group('v')} {' and '.join(rest)}", ctx, steps)
                    except ClauseError as exc:
                        return ParseResult(None, 0.0, str(exc), clauses, recognised=True)
            if got is None and not steps and n_clause + 1 < len(clauses) and _REMARKER.match(clause):
                # "we're not doing the sliding doors any more, delete them", "i want to check the walls against
                # the drawings , colour them red": a remark naming what the request after it takes up
                named = self._named_in(clause) or self._named_within(clause) \
                    if _PRONOUN.search(clauses[n_clause + 1]) else None
                if named is not None:
                    aside_topic = named
                    continue
                if _SPEAKER_REMARK.match(clause):
                    continue  # "for the photos I want this flat empty. Hide all the furniture ...": why, then what
            if got is None:
                return ParseResult(None, 0.0, f"I did not understand '{clause}'", clauses)
            new_steps, confident = got
            if steps and steps[-1].get("op") == "route" and new_steps == [{"op": "distance", "to": {"ref": "it"}}]:
                continue  # "how do I get to the shop, and how far is it?": the way there says how far
            if there is not None:
                new_steps = [_it_replaced(st, there) for st in new_steps]
                new_steps = [{**st, "placement": "in"} if st.get("op") == "add_prop" and st.get("anchor") == there
                             and st.get("placement") == "next_to" else st for st in new_steps]
            low_confidence |= not confident
            new_steps = self._fittings_like_before(new_steps, steps, clause)
            if len(new_steps) == 1 and new_steps[0].get("op") == "undo" and steps and steps[-1].get("op") == "undo":
                # "put them back, undo that": one undo said two ways; "undo, undo": two
                if clause == said_before:
                    more = int(new_steps[0].get("count", 1))
                    steps[-1] = {"op": "undo", "count": int(steps[-1].get("count", 1)) + more}
                continue
            steps.extend(new_steps)
            said_before = clause
        if not steps:
            return ParseResult(None, 0.0, "no action found", clauses)
        undos = [st for st in steps if st.get("op") == "undo"]
        if undos and all(st.get("op") == "undo" or st.get("op") == "show" and "ref" in st.get("target", {})
                         for st in steps):
            steps = undos[:1]  # "bring her back, undo that": showing what was hidden is the undo said first
        steps = _selections_joined(_asked_again_dropped(_place_shared(steps, said)))
        if len(steps) == 1 and steps[0].get("op") == "list" and steps[0]["target"].get("class") == ["IfcSpace"] \
                and _WHERE_FROM_HERE.match(said):
            steps = [{"op": "route", "to": steps[0]["target"]}]  # "where is the nearest toilet from here": the way
        if meant_sel:
            steps = _retargeted(steps, meant_sel)
        if len(steps) > 8:
            steps = steps[:8]
        return ParseResult({"steps": steps}, 0.5 if low_confidence else 1.0, "", clauses)

    def _fittings_like_before(self, new: list[Step], before: list[Step], clause: str) -> list[Step]:
        """"how many washbasins are there, and how many toilets": after fittings, the fittings of that name
        (not the rooms called toilets)."""
        if not (before and len(new) == 1 and new[0].get("op") == "count" and before[-1].get("op") == "count"
                and new[0]["target"].get("class") == ["IfcSpace"] and "kind" in (before[-1].get("target") or {})):
            return new
        kind = self.lex.kinds.get(singular_noun(clause.split()[-1]))
        return [{"op": "count", "target": {"kind": kind}}] if kind else new

    def _named_in(self, clause: str, place: bool = False) -> str | None:
        """The thing an aside names, as said ("the window on my right" of "I'm thinking of a dressing table
        under the window on my right"): the longest definite noun phrase it ends with that names things; with
        ``place``, the room, storey or dwelling it ends with ("this half" of "we're looking at buying this
        half"). None where it ends with none."""
        for m in re.finditer(r"\b(the|this|that|our|my) ", clause):
            said = clause[m.start():]
            phrase = self.noun_phrases.read(said)
            if phrase is None or phrase.words_after:
                continue
            if not place and phrase.head is not None and phrase.head.kind in ("class", "kind", "name") \
                    and m.group(1) in ("the", "this", "that"):
                return said
            if place and phrase.head is None and (phrase.rooms or phrase.storeys or any(
                    r.rel == "unit" or r.rel.startswith("unit_") for r in phrase.relations)):
                return said
        return None

    def _named_within(self, clause: str) -> str | None:
        """The first definite noun phrase naming things anywhere in a remark, as long as it reads ("the
        walls" of "i want to check the walls against the drawings"); None where there is none."""
        for m in re.finditer(r"\b(the|those|these|all the|all of the|our) ", clause):
            words = clause[m.start():].split()
            for n in range(len(words), 1, -1):
                said = " ".join(words[:n])
                phrase = self.noun_phrases.read(said)
                if phrase is not None and not phrase.words_after and phrase.head is not None \
                        and phrase.head.kind in ("class", "kind", "name"):
                    return said
        return None

    def _with_its(self, t: str, ctx: ParseContext, scene: SceneView, dialogue: Dialogue) -> ParseResult | None:
        """"Get rid of this table in front of me, and its chairs too": the change made to the thing and to the
        things of that kind around it (those first: they are found by the thing while it is there)."""
        m = re.fullmatch(r"(?P<req>.+?)(?: , (?:and )?| and )(?:its|their) "
                         r"(?P<np>[a-z][a-z ]*?)(?: too| as well| also)?", t)
        if m is None:
            return None
        req, np_text = m.group("req"), m.group("np")
        how = re.search(rf"\s{_colour_pattern()}$", np_text)
        if how is not None:  # "colour the nearest table and its chairs red": both red
            req, np_text = req + how.group(0), np_text[:how.start()]
        got = self._parse(req, scene, dialogue)
        steps = got.program["steps"] if got.program is not None else []
        if len(steps) != 1 or steps[0].get("op") not in _CHANGES_OF_THINGS \
                or not isinstance(steps[0].get("target"), dict):
            return None
        sel = self.selector(np_text, ctx)
        if not sel or set(sel) - {"class", "kind"}:
            return None
        anchor = {k: v for k, v in steps[0]["target"].items() if k != "ref"}
        around = {**copy.deepcopy(steps[0]), "target": {**sel, "relations": [
            {"rel": "within", "distance": AROUND_M, "of": anchor}]}}
        return ParseResult({"steps": [around, steps[0]]}, got.confidence, "", got.clauses)

    def _rooms_asked_again(self, t: str, ctx: ParseContext) -> str:
        """"How many windows has this living room got?" ... "and the two bedrooms upstairs, how many between
        them?": the things just counted, in those rooms (not how many rooms); any other utterance as it is."""
        m = _ROOMS_COUNTED_AGAIN.fullmatch(t)
        last = ctx.dialogue.last_steps
        if m is None or len(last) != 1 or last[0]["op"] != "count" or not isinstance(last[0].get("target"), dict) \
                or last[0]["target"].get("class") == ["IfcSpace"]:
            return t
        sel = self.selector(m.group("np"), ctx)
        if sel is None or sel.get("class") != ["IfcSpace"]:
            return t
        return "and in " + re.sub(r"^(the|those|these|my|our|both)( the)? (\d+|both) ", r"\1 ", m.group("np"))

    def _topic_without_comma(self, t: str) -> str | None:
        """"that long window in front of me how wide is it" (a recogniser writes no comma): the topic and the
        question about it apart, where the words before the question are a noun phrase and the question takes
        it up with a pronoun; None otherwise."""
        if not re.match(r"(and )?(the|that|this|those|these|my) ", t):
            return None
        for m in re.finditer(r" (?=(how|what|which|where|is|are|does|do|can|could|would|will|paint|colou?r|hide|"
                             r"show|select|make|move|delete|remove|turn|give|tell)\b)", t):
            topic, rest = t[:m.start()], t[m.end():]
            if _PRONOUN.search(rest) is None or len(topic.split()) < 2:
                continue
            if self.noun_phrases.read(re.sub(r"^and ", "", topic)) is not None:
                return f"{topic} , {rest}"
        return None

    def _topicalised(self, t: str) -> str:
        """A noun phrase said first and taken up by a pronoun after a comma ("the window on my left, how
        high is it?", "the sliding doors behind me, paint them green", "the window on my right, which one
        is the nearest"): the phrase put where the pronoun stands; any other utterance as it is."""
        # "the living room, how many windows does it get, I want loads of light in there", "that window, how wide is
        # it, wondering if a desk would fit under it": without what is said after the question only to say why
        if " , " not in t:
            said = self._topic_without_comma(t)
            if said is not None:
                return self._topicalised(said)
        parts = t.split(" , ")
        while len(parts) > 1 and phrasing.is_aside(parts[-1]):
            parts.pop()
        if len(parts) < len(t.split(" , ")):
            shorter = " , ".join(parts)
            return self._topicalised(shorter) if _TOPIC.match(re.sub(r"^(and|so|then|now|right|okay) ", "", shorter)) \
                else t
        m = _TOPIC.match(re.sub(r"^(and|so|then|now|right|okay) ", "", t))
        parts = t.split(" , ")
        if m is None and len(parts) > 2 and re.match(r"(the|that|this|those|these|my) ", parts[0]) \
                and re.match(_ASKED, parts[1]) and _PRONOUN.search(parts[1]) \
                and self.noun_phrases.read(parts[0]) is not None:
            # "this middle office, is there a window in it, is there a single window in this room": the thing
            # named in the first question, the questions in the order said
            later = [_PRONOUN.sub(lambda p: parts[0], q, count=1) if _QUESTION.match(q) else q for q in parts[2:]]
            return phrasing.rewrite(" , ".join([_PRONOUN.sub(lambda p: parts[0], parts[1], count=1), *later]))
        if m is None:
            return t
        rest = m.group("rest")
        # "stairs, railings too, hide them": the things listed, as one phrase
        parts = [re.sub(r" (too|also|as well)$", "", p.strip()) for p in m.group("np").split(" , ")]
        if re.match(r"(what|which|who|where|how|why|when|is|are|do|does|did|can|could|would|will|should|was|were|"
                    r"i|we|you|there|he|she|they)\b", parts[0]) or parts[0].split()[0] in VERBS_AFTER_AND \
                or parts[0].split()[0] in _MORE_VERBS:
            # "what door is behind me, and how wide is it": a question or a request first, not a topic; "I'm in
            # the kitchen, how far is it to the loo": a remark
            return t
        asked = _ASKED
        if len(parts) > 1 and any(re.match(asked, p) for p in parts[1:]):
            # "the windows, which height they have, and the sill is on which height": one thing, two questions
            # about it, asked in the order said (the thing named in the first)
            first = next(i for i, p in enumerate(parts[1:], 1) if re.match(asked, p))
            if first != 1 or not re.match(r"(the|that|this|those|these|my|all the|both) ", parts[0]):
                return t
            if _PRONOUN.search(parts[1]) is None:
                return t
            # each question takes the thing up ("..., how many windows has it got , and how big is it")
            questions = [_PRONOUN.sub(lambda p: parts[0], q, count=1) if i == 0 or _QUESTION.match(q) else q
                         for i, q in enumerate([*parts[1:], rest])]
            return phrasing.rewrite(" , ".join(questions))
        said_as_phrase = re.match(r"(the|that|this|those|these|my|all the|both) ", parts[0]) is not None
        if (len(parts) > 1 or not said_as_phrase) and not all(self.noun_phrases.read(p) is not None for p in parts):
            return t  # listed or bare words must each be a noun phrase ("stairs, railings too")
        topic = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        topic = topic.replace(", ", " and ") if len(parts) > 1 else topic
        phrase = self.noun_phrases.read(topic)
        remark = _REMARK.match(topic) if said_as_phrase and len(parts) == 1 else None
        if remark is not None and self.noun_phrases.read(remark.group("np")) is not None:
            # "this kitchen feels nice and bright, how many windows has it got": the thing the remark is about
            topic = remark.group("np")
            phrase = self.noun_phrases.read(topic)
        if phrase is not None and not ((phrase.rooms or any(r.rel.startswith("unit_") for r in phrase.relations))
                                       if phrase.head is None
                                       else phrase.head.kind in ("class", "kind", "name", "front_door")):
            return t  # a phrase the grammar reads must name things; one it does not ("the bath and the
            # shower") is tried in the clause, which must then parse
        which = re.match(r"^which( one)? (is|are) (the )?(?P<sup>\w+est|nearest|closest|furthest)$", rest)
        if which is not None:  # "which one is the nearest": which is the nearest of them
            bare = re.sub(r"^(the|that|this|those|these|my) ", "", topic)
            return f"which is the {which.group('sup')} {bare}"
        # the question with the phrase in it, read as any other ("how many windows has this room got"; "what is
        # its width": the width of it)
        if _PRONOUN.search(rest) is None and _POSSESSIVE.search(rest) is not None:
            return phrasing.rewrite(_POSSESSIVE.sub(lambda p: f"the {p.group('p')} of {topic}", rest, count=1))
        questions = re.split(r" and (?=(?:how|what|which|where|is|are|do|does|can)\b)", rest)
        if len(questions) > 1:  # "those columns, how many are there and how tall are they": each question of them
            bare = re.sub(r"^(the|that|this|those|these|my|all the|both) ", "", topic)
            questions = [f"how many {bare} are there" if _HOW_MANY_BARE.fullmatch(q)
                         else _PRONOUN.sub(lambda p: topic, q, count=1) for q in questions]
            return phrasing.rewrite(" , ".join(questions))
        return phrasing.rewrite(_PRONOUN.sub(lambda p: topic, rest, count=1))

    def _fragment(self, t: str, ctx: ParseContext) -> str | list[Step] | None:
        """A thing named first and a question or request about it cut short ("columns, how many in total?",
        "back door, how far from here?", "closest column, steel or concrete?", "metal columns and beams,
        black"; the forms are data: ``phrasing.fragments``): the whole question. "And upstairs, blue" after a
        request about some things: those things there, in that colour (steps)."""
        m = re.fullmatch(r"(?:(?:and|so|then|now|okay|right) )?(?P<np>[^,]+?) , (?P<rest>[^,]+)", t)
        if m is None:
            return None
        np_text, rest = m.group("np"), m.group("rest")
        if re.match(r"(what|which|who|where|how|why|when|is|are|do|does|can|could|would|will)\b", np_text) \
                or np_text.split()[0] in VERBS_AFTER_AND or np_text.split()[0] in _MORE_VERBS:
            return None  # a question or a request first, not a thing
        the = np_text if re.match(r"(the|this|that|these|those|my|our|all|both|every|each|any|some|a|an|\d+)\b",
                                  np_text) else "the " + np_text
        bare = re.sub(r"^(the|this|that|these|those|my|our|all the|all|both|every|each|any|some|a|an) ", "", the)
        if re.fullmatch(_colour_pattern(), rest):
            phrase = self.noun_phrases.read(the)
            if phrase is not None and phrase.head is not None and self.selector(the, ctx) is not None:
                return f"paint {the} {rest}"
            again = self._follow_up(f"and {np_text}", ctx) if ctx.dialogue.last_steps else None
            targets = [s["target"] for s in again or [] if isinstance(s.get("target"), dict)]
            if targets:  # "and upstairs, blue": the same things there
                rgba = self._rgba(rest, targets[0], ctx)
                return [{"op": "color", "target": tg, "rgba": rgba} for tg in targets] if rgba else None
            return None
        materials = re.fullmatch(r"(is it |are they )?(made of |in )?(?P<a>[a-z]+) or (?P<b>[a-z]+)", rest)
        if materials and materials.group("a") in MATERIAL_WORDS and materials.group("b") in MATERIAL_WORDS:
            rest = "made of"  # "closest column, steel or concrete?": what it is made of
        for pattern, template in phrasing.fragments():
            said = pattern.fullmatch(rest)
            if said is None:
                continue
            if self.selector(the, ctx) is None:
                return None
            be = "is" if _is_singular(the, self._heads) else "are"
            return template.format(np=the, bare=bare, be=be, **said.groupdict(default=""))
        return None

    # ---- one clause ----------------------------------------------------------------------
    def _clause(self, c: str, ctx: ParseContext, so_far: list[Step]) -> tuple[list[Step], bool] | None:
        c = c.strip(" ,")
        said = c
        c = re.sub(r"^(and|then|also|and then|after that|next)\s+", "", c)
        if not c:
            return [], True
        c = self._count_again_of_the_same(c, ctx, so_far)
        if _THERE.fullmatch(c) and (so_far or ctx.dialogue.last_steps):  # "where's the loo? take me there"
            named = [i for i, step in enumerate(so_far)
                     if step.get("op") in ("list", "describe", "get", "count", "look_at", "select")]
            target: Selector = {"ref": "it"}
            if named and so_far[named[-1]]["op"] in ("look_at", "select"):  # "look at the bathroom, take me in there"
                target = dict(so_far[named[-1]]["target"])
            elif named:
                target = {"step": named[-1]}
            else:  # "hide the walls on level one and take me up there": to that storey
                storey = next((st for step in reversed(so_far) if isinstance(step.get("target"), dict)
                               for st in self.building.storeys if step["target"].get("storey") in (st.name, st.id)),
                              None)
                if storey is not None:
                    return [{"op": "teleport", "target": {"class": ["IfcBuildingStorey"], "ids": [storey.id]}}], True
            return [{"op": "teleport", "target": {**target, "limit": 1}}], True
        which = self._which_of_those(c, ctx, so_far)
        if which is not None:
            return which, True
        held = self._count_held(c, ctx)
        if held is not None:
            return held, True
        each = self._count_in_each(c, ctx)
        if each is not None:
            return each, True
        for hook in self.hooks:
            hooked = hook(c, ctx, so_far)
            if hooked is not None:
                return hooked, True
        shared = self._shared_verb(c)
        if shared is not None:
            steps: list[Step] = []
            for part in shared:
                got = self._clause(part, ctx, so_far + steps)
                if got is None:
                    break
                steps.extend(got[0])
            else:
                return steps, True
        if re.match(r"^(and )?(what|how) about\b", said) and ctx.dialogue.last_steps:
            follow = self._follow_up(c, ctx)  # "what about the doors?": the last request on them (not a list)
            if follow is not None:
                return follow, False
        for handler in (self._other_asked, self._history, self._save_note, self._door_leads, self._where, self._turn,
                        self._look_at, self._teleport, self._route, self._count, self._holds, self._exists,
                        self._distance, self._what_noun, self._get, self._describe, self._list_query,
                        self._which_hold, self._change):
            found = handler(c, ctx)
            if found is not None:
                return found, True
        # a follow-up keeps its "and": "and the ones in the living room" goes on from the last request
        follow = self._follow_up(said if said.startswith(("and ", "also ")) else c, ctx)
        if follow is not None:
            return follow, False
        bare = self._bare(c, ctx)
        return (bare, False) if bare is not None else None

    def _shared_verb(self, c: str) -> list[str] | None:
        """"hide the roof and all the walls upstairs" -> "hide the roof", "hide all the walls upstairs"."""
        if " and " not in c or re.search(r"\b(between|except|but|apart from|other than|besides)\b", c):
            return None  # "everything except the columns and beams": one set left out
        colour_words = "|".join(sorted(COLOURS, key=len, reverse=True))
        m = re.match(r"^(?P<verb>hide|show|unhide|delete|remove|select|highlight|paint|color|make|turn|count)\s+"
                     r"(?P<a>.+?)\s+and\s+(?P<b>.+)$", c)
        if not m:
            return None
        a, b, verb = m.group("a"), m.group("b"), m.group("verb")
        named = self._class_re.findall(a) or self._kind_re.findall(a)
        if named and re.search(r"\bones?\b", b):  # "the concrete columns grey and the steel ones red"
            noun = singular_noun(named[-1])
            b = re.sub(r"\bones\b", plural_noun(noun), re.sub(r"\bone\b", noun, b))
        if " , " in a:  # "colour the basin, the shower and the WC light blue": each of the list
            first, _, rest = a.partition(" , ")
            head = self._shared_verb(f"{verb} {first} and {b}")
            more = self._shared_verb(f"{verb} {rest} and {b}")
            return None if head is None or more is None else [head[0], *more]
        tail = ""
        said_how = (rf"\s+((to |in )?((light|dark|pale|bright) )?({colour_words})|(semi-?)?transparent|"
                    rf"see-? ?through|invisible)$")
        cm = re.search(said_how, b)
        if cm and re.search(said_how, a):
            pass  # "colour the offices blue and the corridor grey": each has its own
        elif cm:  # "paint the doors and the windows red": one for both
            tail = cm.group(0)
        elif verb in ("paint", "color", "make", "turn"):
            return None
        words = self.lex.vocabulary().words

        def has_head(x: str) -> bool:
            """A thing is named: a class, a kind, a room, or a word of the building's own names ("the bath")."""
            if self._class_re.search(x) or self._kind_re.search(x) or self._room(" " + x + " "):
                return True
            nouns = [w for w in re.findall(r"[^\W\d_]+", x) if w not in _ARTICLES_AND_QUANTIFIERS]
            return bool(nouns) and any(w in words or singular_noun(w) in words for w in nouns[-1:])
        if not has_head(a) or not has_head(b) or b.split()[0] in VERBS_AFTER_AND:
            return None
        a, b = self._shared_modifiers(a, b[:len(b) - len(tail)] if tail else b)
        a, b = self._fitting_beside_fitting(a, b), self._fitting_beside_fitting(b, a)
        return [f"{verb} {a}{tail}", f"{verb} {b}{tail}"]

    def _fitting_beside_fitting(self, x: str, other: str) -> str:
        """"the toilets and the washbasins": a word for both a room and a fitting the building has, said beside
        a fitting, is the fitting (said as a word of the kind that names no room)."""
        m = re.fullmatch(r"(?P<det>(?:the|all the|all|both|both the) )?(?P<w>[a-z]+?)(?:s|es)?", x)
        if m is None or not self._only_a_room(x) or self._only_a_room(other) or not self._kind_re.search(other):
            return x
        kind = self.lex.kinds.get(m.group("w"))
        if kind is None or kind not in self.lex.kinds_present:
            return x
        plain = next((w for w in KIND_WORDS[kind] if " " in w and not self._only_a_room(w)), None)
        return x if plain is None else f"{m.group('det') or ''}{plural_noun(plain)}"

    def _shared_modifiers(self, a: str, b: str) -> tuple[str, str]:
        """A second noun said bare shares the first's words: "the doors and windows on level 1" (both on level
        1), "the steel posts and beams" (both steel). One with words of its own ("the doors and all the
        windows upstairs") keeps them to itself. A room after "of" or "in" and another room said alone ("the
        walls of the bathroom and the toilet"): the same things of that room."""
        of_room = re.match(r"(?P<things>(the|all the) [a-z ]+? (of|in) )(?P<room>(the|this|my) .+)$", a)
        if of_room and self._only_a_room(of_room.group("room")) and self._only_a_room(b):
            return a, of_room.group("things") + b
        if re.match(_DETERMINER, b):
            return self._place_shared(a, b), b
        b_head = self._class_re.match(b) or self._kind_re.match(b)
        a_heads = list(self._class_re.finditer(a)) or list(self._kind_re.finditer(a))
        if b_head is None or not a_heads or a_heads[-1].end() != len(a):
            return a, b
        post = b[b_head.end():]
        if re.match(_SHARED_AFTER, post):  # "... windows on level 1": the doors too
            a += post
        before = a[:a_heads[-1].start()]
        if re.sub(_DETERMINER, "", before).strip():  # "the steel posts and beams": steel beams
            b = before + b
        return a, b

    def _place_shared(self, a: str, b: str) -> str:
        """"The toilet and the hand basin in the WC": a first thing said with nothing after it is in the place
        the second is said to be in (a room, a storey: not a relation to the user or to another thing)."""
        a_heads = list(self._class_re.finditer(a)) or list(self._kind_re.finditer(a))
        if not a_heads or a_heads[-1].end() != len(a) or not re.fullmatch(r"(the|all the) ", a[:a_heads[-1].start()]):
            return a
        rest = b
        while (det := re.match(_DETERMINER, rest)) is not None and det.end():  # "all the furniture ..."
            rest = rest[det.end():]
        b_head = self._class_re.match(rest) or self._kind_re.match(rest)
        if b_head is None:
            return a
        post = rest[b_head.end():]
        place = re.match(r"^ (in|on|inside) (?P<det>the|this|my|our) (?P<where>[^,]+)$", post)
        storey = place is not None and (re.fullmatch(r"(ground|first|second|third|top|upper|lower) floor",
                                                     place.group("where")) is not None
                                        or place.group("det") in ("this", "my", "our")
                                        and place.group("where") in ("floor", "level", "storey", "story"))
        if place and (storey or self._only_a_room(place.group("where"))):
            return a + post
        return a

    def _only_a_room(self, said: str) -> bool:
        """Does ``said`` name one of the building's rooms and nothing else ("the toilet", "my bedroom")?"""
        bare = re.sub(r"^(the|this|my|our|that) ", "", said)
        hit = self._room(" " + bare + " ")
        return hit is not None and hit.span[1] - hit.span[0] >= len(bare)

    def _isolate_each(self, np_text: str, ctx: ParseContext) -> list[Step] | None:
        """"Isolate the toilets, basins and showers": the first isolated, the others shown again (one selector
        cannot name several kinds)."""
        parts = [p.strip() for p in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", np_text) if p.strip()]
        if len(parts) < 2:
            return None
        read = [self.selector(p, ctx) for p in parts]
        sels = [sel for sel in read if sel is not None]
        if len(sels) < len(parts):
            return None
        if any("kind" in sel for sel in sels):  # "the toilets, basins and showers": the fittings, not the rooms
            for i, part in enumerate(parts):
                word = part.split()[-1]
                kind = self.lex.kinds.get(word) or self.lex.kinds.get(singular_noun(word))
                if sels[i].get("class") == ["IfcSpace"] and kind:
                    sels[i] = {"kind": kind}
        return [{"op": "isolate", "target": isolated(sels[0])}] + [{"op": "show", "target": sel} for sel in sels[1:]]

    def _history(self, c: str, ctx: ParseContext) -> list[Step] | None:
        m = re.match(r"^(undo|revert|take (that|it) back|go back|cancel|step back|reverse)( that| it| this|"
                     r" the last (change|step|thing|\d+ changes?|\d+ steps?))?( again)?"
                     r"( (\d+) times| twice)?( please)?$", c)
        if not re.match(r"^(put|bring) (everything|it all) back", c):
            m = m or re.match(r"^(no )?(put|bring) (it|them|that|those|everything) back"
                              r"( (the way|as) (it|they) (was|were))?( again)?$", c)
        if m or c in ("oops", "oops undo", "no undo that", "no undo", "undo undo"):
            count = 1
            if m:
                n = re.search(r"(\d+) (times|changes|steps)", c)
                count = int(n.group(1)) if n else (2 if "twice" in c else 1)
            return [{"op": "undo", "count": count}] if count > 1 else [{"op": "undo"}]
        m = re.match(r"^(redo|do (it|that) again|bring it back again|redo (that|it|this))( (\d+) times| twice)?$", c)
        if m:
            count = int(m.group(5)) if m.group(5) else (2 if "twice" in c else 1)
            return [{"op": "redo", "count": count}] if count > 1 else [{"op": "redo"}]
        moved = {"teleport", "walk", "change_floor", "turn", "look_at"}
        if re.fullmatch(r"(go|take me|bring me|put me|move me|get me) back (to )?(where (i|we) (was|were|came from|"
                        r"started)|the (place|spot) (i|we) (was|were) (at|in))( before| just now)?", c) \
                and ctx.dialogue.last_steps and all(st["op"] in moved for st in ctx.dialogue.last_steps):
            return [{"op": "undo"}]  # "take me to the bathroom" ... "go back to where I was": that move undone
        if re.match(r"^(reset|restore|revert)( (everything|all|the (whole )?(model|scene|building)|all changes))?"
                    r"( to (the )?(original|default|start))?$", c) or re.match(
                        r"^(put|set|bring) (everything|it all|all) back( the way it was| to (how|the way) it was|"
                        r" to normal| as it was)?$", c) or re.match(
                        r"^(start over|start again|back to (the )?original|clear (all|every) (changes|edits))$", c):
            return [{"op": "reset"}]
        return None

    def _save_note(self, c: str, ctx: ParseContext) -> list[Step] | None:
        if re.match(r"^(save|store|commit|write)( (it|this|that|the (model|changes|file|project|work|edits)|"
                    r"my (work|changes|edits)|everything))?( (to|as) (a )?(new )?(ifc|revision|file))?( now)?$", c):
            return [{"op": "save"}]
        if re.match(r"^(export|share|send|write out|save)( all)?( the| my)?( review)? ?"
                    r"(notes|issues|topics|comments|bcf)( (as|to|in) (a )?bcf( file| archive)?)?( now)?$", c) \
                or c in ("export bcf", "export to bcf"):
            return [{"op": "export_notes"}]
        m = re.match(rf"^({NOTE_VERBS})( that| saying| about)?\s+(.+)$", c)
        if m:
            text = m.group(3).strip()
            step: Step = {"op": "note", "text": self._as_said(text, ctx)[:500]}
            sel = self.selector(text, ctx, allow_empty=True)
            if sel:
                step["target"] = sel
            return [step]
        return None

    def _as_said(self, text: str, ctx: ParseContext) -> str:
        """The note's words as the user wrote or said them (case, quotes, punctuation), when the note is
        the rest of the utterance; else the normalised words."""
        raw = " ".join(ctx.raw.split())
        m = re.search(rf"(?i)\b({NOTE_VERBS})( that| saying| about)?[\s:,]+(.+)$", raw)
        if m and " ".join(normalise(m.group(3)).strip(" ,").split()) == " ".join(text.strip(" ,").split()):
            return m.group(3).strip()
        return text

    def _where(self, c: str, ctx: ParseContext) -> list[Step] | None:
        if re.search(r"\b(where am i|where are we|which room am i in|what room am i in|what room is this|which room is "
                     r"this|what room are we in|which floor am i on|what floor am i on|what floor is this|"
                     r"where am i standing|where do i stand|what is my location|my (current )?location)\b", c):
            return [{"op": "where_am_i"}]
        return None

    def _turn(self, c: str, ctx: ParseContext) -> list[Step] | None:
        if re.match(r"^(turn|spin|swing|rotate|wheel|look|face|pivot)( me| us)?( yourself)? ?(around|round|about|"
                    r"backwards?|behind( me| you| us)?|the other way|back)( \d+ degrees)?$", c) or c in (
                        "about face", "about turn", "look backwards", "look behind", "look back"):
            return [{"op": "turn", "degrees": 180}]
        m = re.fullmatch(r"(turn|rotate|spin|look|face|pivot|point)( me| us)?( to| towards| toward)?( face| look)?"
                         r"( the)? (?P<way>north|south|east|west|north ?east|north ?west|south ?east|south ?west)"
                         r"( side)?", c)
        if m:  # "face north", "turn to face south-east"
            return [{"op": "turn", "face": m.group("way").replace(" ", "")}]
        m = re.match(r"^(turn|rotate|spin|look|face|pivot)( me| us)?( (\d+(\.\d+)?) degrees)?( to)?( the| my)? "
                     r"(left|right)( (\d+(\.\d+)?) degrees)?( a (little|bit))?$", c)
        if m:
            deg = float(m.group(4) or m.group(10) or (30 if m.group(11) else 90))
            return [{"op": "turn", "degrees": deg if m.group(8) == "left" else -deg}]
        return None

    def _look_at(self, c: str, ctx: ParseContext) -> list[Step] | None:
        c = re.sub(r"^(turn|spin|swing) (around )?(to face|towards?|toward)\b", "face", c)
        m = re.match(r"^(look|turn|face|point me|orient me|turn me|show me where|where is|where are)"
                     r"( at| to| towards?| toward)? ?(?P<np>.+)$", c)
        if not m:
            return None
        verb = m.group(1)
        if verb in ("where is", "where are", "show me where"):
            np_text = m.group("np")
            sel = self.selector(np_text, ctx)
            if not sel:
                return None
            return [{"op": "list", "target": _singular(sel, np_text)}]
        if verb in ("look", "turn", "face") and not m.group(2) and verb != "face":
            return None
        np_text = m.group("np")
        if re.match(r"^(around|round|back|behind|left|right|the other way)\b", np_text):
            return None
        sel = self.selector(np_text, ctx)
        if not sel:
            return None
        return [{"op": "look_at", "target": _singular(sel, np_text, force=True)}]

    def _teleport(self, c: str, ctx: ParseContext) -> list[Step] | None:
        m = re.match(r"^(take me|bring me|teleport( me)?|send me|move me|put me|beam me|get me|walk me|pop me|whisk me|"
                     r"i want to go|we want to go|go|walk|jump|head|navigate|let us go|transport me|"
                     r"show me the way|lead me|fly me|place me)(?P<dir> over| back| up| down| straight)?"
                     r"( (in)?to| in| into| inside| over to| up to| down to| towards?| toward| at| near)? "
                     r"(?P<np>.+)$", c)
        if not m:
            return None
        np_text = re.sub(r"^(the )?(inside of|middle of|centre of|center of) ", "", m.group("np"))
        if (m.group("dir") or "").strip() in ("up", "down"):
            # "go up to the roof level": the same place on that storey (a change of floor), not somewhere on it
            target = self._storey_target(np_text, ctx)
            st = self.building.storey(target["ids"][0]) if target else None
            mine = self.building.storey(storey_for(self.building, ctx.scene.user_storey(), "mine"))
            if st is not None and mine is not None and st.index != mine.index:
                return [{"op": "change_floor", "by": st.index - mine.index}]
            if st is not None and mine is not None and np_text != "the roof":  # up to where one is already
                raise _already_on(st.name, m.group("dir").strip())
        if re.match(r"^(upstairs|downstairs|the upper floor|the ground floor|the top floor|the first floor|"
                    r"the next floor|the floor above|the floor below)$", np_text):
            spec = self._storey_spec(np_text, ctx)
            st = self.building.storey(spec) if spec else None
            mine = self.building.storey(storey_for(self.building, ctx.scene.user_storey(), "mine"))
            way = (m.group("dir") or "").strip()
            if st is not None and mine is not None and way in ("up", "down") and st.index == mine.index:
                raise _already_on(st.name, way)
            if st is not None and mine is not None and st.index == mine.index and np_text == "downstairs" \
                    and mine.index > self.building.storeys[0].index:
                # "take me downstairs" on the ground floor of a house with a cellar: down to it
                return [{"op": "change_floor", "by": -1}]
            if st is not None:
                return [{"op": "teleport", "target": {"class": ["IfcBuildingStorey"], "name": st.name}}]
        sel = self.selector(np_text, ctx)
        if not sel:
            return None
        going = (m.group("dir") or "").strip()
        rooms = sel.get("ids") if sel.get("class") == ["IfcSpace"] else None
        if going in ("up", "down") and rooms and len(rooms) > 1:
            # "let's go down to the cellar" in a terrace (a cellar under each house): down a floor, where one is
            levels = {self.building.elements[i].storey for i in rooms}
            st = self.building.storey(next(iter(levels)) or "") if len(levels) == 1 else None
            mine = self.building.storey(storey_for(self.building, ctx.scene.user_storey(), "mine"))
            if st is not None and mine is not None and (st.index < mine.index if going == "down"
                                                        else st.index > mine.index):
                return [{"op": "change_floor", "by": st.index - mine.index}]
        return [{"op": "teleport", "target": self.teleport_target(sel, np_text, ctx)}]

    def teleport_target(self, sel: Selector, np_text: str, ctx: ParseContext) -> Selector:
        """Where "take me to <np_text>" goes: a storey said alone ("the basement", "level 2") is that storey
        (the same place on it where a room is there), not the thing on it nearest to the user."""
        if set(sel) == {"storey"}:
            spec = str(sel["storey"])
            sid = storey_for(self.building, ctx.scene.user_storey(), spec) or next(
                (st.id for st in self.building.storeys if st.name == spec), None)
            if sid is not None:
                return {"class": ["IfcBuildingStorey"], "ids": [sid]}
        if isinstance(sel.get("name"), str) and not sel.get("class") and not sel.get("kind") and sel.get("relations") \
                and self._place_not_named(["IfcSpace"], sel["name"]):
            # "take me to the flat right above the shop" where no room is called a flat: the room there
            sel = {**{k: v for k, v in sel.items() if k != "name"}, "class": ["IfcSpace"]}
        rels = [r["rel"] for r in sel.get("relations") or []]
        if sel.get("class") == ["IfcSpace"] and rels in (["above"], ["below"]) and not sel.get("order"):
            # the room above another: the next one up (over a shop, the flat, not the one on the floor above it)
            sel = {**sel, "order": "lowest" if rels == ["above"] else "highest"}
        return _singular(sel, np_text, force=True)

    def _door_leads(self, c: str, ctx: ParseContext) -> list[Step] | None:
        """"Where does the door from this room go?": the rooms a door of the user's room opens into."""
        beyond = re.fullmatch(r"(and )?(?P<q>which room is|take me into the room) beyond (?P<np>.+)", c)
        if beyond is not None:  # "which room does that door ahead of me open into": the one it leads to from here
            door = self.selector(beyond.group("np"), ctx)
            if door is None:
                return None
            target: Selector = {"class": ["IfcSpace"], "relations": [{"rel": "connected", "of": door}]}
            if ctx.user_room() is not None:
                target["except"] = {"class": ["IfcSpace"], "room": "mine"}
            if beyond.group("q") == "which room is":
                return [{"op": "list", "target": target}]
            return [{"op": "teleport", "target": {**target, "limit": 1}}]  # "go through this door"
        m = re.fullmatch(r"(and )?where (does|do) (this|that|the) (door|doorway|opening) (from|of|out of|in) this room "
                         r"(go|lead|open|take me|get me)( to| into| onto| out to| out onto)?", c)
        if m is None or ctx.user_room() is None:
            return None
        mine: Selector = {"class": ["IfcSpace"], "room": "mine"}
        return [{"op": "list", "target": {"class": ["IfcSpace"], "relations": [{"rel": "connected", "of": mine}]}}]

    def _route(self, c: str, ctx: ParseContext) -> list[Step] | None:
        # "on foot" / "walking" said anywhere in a how-far question makes it a route ("how far is it on foot
        # from here to the lobby"): read without it
        on_foot = re.compile(r"\s+(on foot|by foot|walking)\b")
        if c.startswith("how far") and on_foot.search(c):
            c = on_foot.sub("", c, count=1) + " on foot"
            c = re.sub(r"^how far is it (from (here|me) )?to (?P<np>.+?) on foot$", r"how far is \g<np> on foot", c)
        m = re.match(r"^(how (do|can|would|should) (i|we) (get|go|walk) to|how far (is it|do i have to walk|"
                     r"would i walk|is the walk|must i walk) (to walk to|to get to|to|from here to)|"
                     r"what is the (walking distance|"
                     r"route|way|path|shortest (way|route|path)) (to|from here to)|show me the (route|path) to|"
                     r"route to|path to|directions to|how to get to|what is the walk to|walking distance to|"
                     r"how long is the walk to|"
                     r"how far (would|do|must|will) (i|we) (have to |need to )?(walk|go)( to get)? to"
            r") (?P<np>.+?)( from here)?( on foot| walking| by foot)?$", c)
        if not m:
            m = re.match(r"^how far (away )?is (?P<np>(the )?[\w ü]+?)( from (here|me))?"
                         r"( on foot| walking| to walk)$", c)
        if not m:
            return None
        np_text, start, start_text = m.group("np"), None, ""
        split = re.fullmatch(r"(?P<np>.+?) from (?P<start>(the|my|this|that) [^,]+)", np_text)
        if split is not None:  # "how do I get to it from the bedroom": from that room
            start_text = split.group("start")
            start = self.selector(start_text, ctx)
            np_text = split.group("np") if start else np_text
            if start and start.get("ids") == [ctx.user_room()]:
                start = None  # from the room the user stands in: from where the user stands
        sel = self.selector(np_text, ctx)
        if not sel:
            return None
        if start is None and re.match(r"how far is it (from here )?to ", c) and not c.endswith(" on foot") \
                and sel.get("class") != ["IfcSpace"]:
            # "how far is it from here to the front door": to a thing, as the crow flies (to a room, the walk)
            return [{"op": "distance", "to": _singular(sel, np_text, force=True)}]
        step: Step = {"op": "route", "to": _singular(sel, np_text, force=True)}
        if start:
            step["from"] = _singular(start, start_text, force=True)
        return [step]

    def _count(self, c: str, ctx: ParseContext) -> list[Step] | None:
        m = re.match(r"^(how many|count( the| all( the)?)?|number of|what is the (number|count|total number) of|"
                     r"tell me how many|give me the (number|count) of|total number of)\s+(?P<np>.+)$", c)
        if not m:
            return None
        np_text = m.group("np")
        # "which room is this?" ... "how many windows has it got?": in that room (else "it" is the building)
        in_it = re.search(r"\b(does it have|has it got|has it)\b", np_text) is not None and self.it_is_one_room(ctx)
        np_text = re.sub(r"\b(are there|are|is there|there are|do (we|i|you) have|does it have|have we got|"
                         r"exist|in total|altogether|overall|can (i|you) see|do (i|you) see)\b", " ", np_text)
        np_text = re.sub(r"\b(does|do|has) (it|the (building|house|model|structure|project|site)|this (building|"
                         r"model|structure))( got)? (have|contain|hold)?\b", " ", np_text)
        np_text = re.sub(r"\b(has it got|does it have|has it|have we)\b", " ", np_text)
        np_text = re.sub(r"\b(does|do) (?P<owner>.+?) (have|contain|hold)\b", r" in \g<owner>", np_text)
        np_text = re.sub(r"\s+", " ", np_text).strip()
        if re.search(r"\b(i|you) (can )?see\b|\bvisible\b", c):
            np_text += " visible"
        if in_it:
            np_text += " in it"
        sel = self.selector(self.counted(np_text), ctx)
        if sel is None:
            return None
        sel.pop("limit", None)
        return [{"op": "count", "target": sel}]

    def counted(self, np_text: str) -> str:
        """What "how many" counts, in the plural: "how many bathroom has this house" (a noun said in the
        singular) counts the bathrooms, not the one nearest."""
        one = re.match(r"(?P<pre>(of )?(the |all the )?)(?P<w>[a-z]+)(?=$| (has|have|are|is|does|do|did|in|on|at|of|"
                       r"there|here|upstairs|downstairs|inside|outside|this|that|we|you|i|they|got)\b)", np_text)
        if one is None:
            return np_text
        w = one.group("w")
        if singular_noun(w) == w != plural_noun(w) and (w in CLASS_WORDS or w in KIND_WORDS
                                                       or any(r.phrase == w for r in self.lex.rooms)):
            return one.group("pre") + plural_noun(w) + np_text[one.end():]
        return np_text

    def _moved_towards(self, c: str, ctx: ParseContext) -> list[Step] | None:
        """"Shift the coffee table half a metre towards the sofa": a move by that much (half a metre where no
        distance is said: "move the chair closer to the window") along the floor from what moves towards the
        nearest of the things it is moved to; towards things said by where they are from the user ("towards
        the windows in front of me") it is that way from the user. None where either names nothing here."""
        m = re.match(r"^(move|shift|push|pull|slide|nudge|drag|bring)\s+(?P<np>.+?)\s+((by )?(?P<n>\d+(\.\d+)?) ?"
                     r"(?P<unit>[a-z]+)\s+)?(towards|toward|closer to|nearer to|in the direction of|over to)\s+"
                     r"(?P<to>(the|that|this|my) .+)$", c)
        away = None
        if m is None:  # "pull the couch out from the wall by fifty centimetres": away from it
            m = away = re.match(r"^(move|shift|push|pull|slide|nudge|drag|bring)\s+(?P<np>.+?)\s+"
                                r"((by )?(?P<n1>\d+(\.\d+)?) ?(?P<unit1>[a-z]+)\s+)?(out |away |further )?"
                                r"(from|off) (?P<to>(the|that|this) [a-z ]+?)(\s+(by )?(?P<n>\d+(\.\d+)?) ?"
                                r"(?P<unit>[a-z]+))?$", c)
        if m is None:
            return None
        said_way = re.search(r"\b(?:(?P<f>in front of|ahead of)|(?P<b>behind)|(?:on|to) (?:my|our|the) "
                             r"(?P<s>left|right))( me| us)?$", m.group("to"))
        if said_way is None and m.group("to").split()[-1] in ("me", "us", "you"):
            return None
        said_n, said_unit = m.group("n"), m.group("unit")
        if away is not None and away.group("n1"):  # "pull the table half a metre away from the window"
            said_n, said_unit = away.group("n1"), away.group("unit1")
        unit = length_units().get(said_unit) if said_unit else 1.0
        sel, to = self.selector(m.group("np"), ctx), self.selector(m.group("to"), ctx)
        if unit is None or sel is None or to is None:
            return None
        distance = float(said_n) * unit if said_n else DEFAULT_NUDGE_M
        if said_way is not None:
            d = "forward" if said_way.group("f") else "back" if said_way.group("b") else said_way.group("s")
            return [{"op": "move", "target": sel, "direction": d, "distance": round(distance, 4)}]
        els = self.building.elements
        moved = [g for g in ctx.scene.peek(sel) if g in els]
        # (of several, the nearest: "the wall" it is pulled out from is the one beside it)
        goal = [g for g in ctx.scene.peek({k: v for k, v in to.items() if k not in ("limit", "order")})
                if g in els and g not in moved]
        if not moved or not goal:
            return None
        here = np.mean([els[g].centre for g in moved], axis=0)

        def closest_point(g: str) -> Any:  # on the thing's plan box: a long wall's nearest face, not its middle
            return np.clip(here[:2], els[g].bbox_min[:2], els[g].bbox_max[:2])

        nearest = min(goal, key=lambda g: float(np.linalg.norm(closest_point(g) - here[:2])))
        way = (closest_point(nearest) - here[:2]) * (-1.0 if away is not None else 1.0)
        if float(np.linalg.norm(way)) < 1e-6:
            return None
        way = way / float(np.linalg.norm(way))
        axis = int(np.argmax(np.abs(way)))
        if abs(way[axis]) >= math.cos(math.radians(ALONG_AN_AXIS_DEG)):  # furniture in a row: along the row
            way = np.where(np.arange(2) == axis, np.sign(way), 0.0)
        step = way * distance
        return [{"op": "move", "target": sel, "delta": [round(float(step[0]), 3), round(float(step[1]), 3), 0.0]}]

    def it_is_one_room(self, ctx: ParseContext) -> bool:
        """Is what the last request was about one room ("which room is this?", "take me to the kitchen"), or,
        in one utterance, what its last step was about ("how big is the kitchen and how many windows has it
        got")?"""
        if ctx.said_before:
            last = ctx.said_before[-1]
            target = last.get("target") or last.get("to")
            if isinstance(target, dict) and target.get("class") == ["IfcSpace"] and (
                    len(target.get("ids") or ()) == 1 or target.get("limit") == 1):
                return True
        it = ctx.scene.it()
        return len(it) == 1 and it[0] in self.building.elements and \
            self.building.elements[it[0]].ifc_class == "IfcSpace"

    def _exists(self, c: str, ctx: ParseContext) -> list[Step] | None:
        joined = self._rooms_joined(c, ctx)
        if joined is not None:
            return joined
        m = re.match(r"^(is|are) (?!there\b)(?P<np>.+ (next to|beside|near|above|below|under|behind|"
                     r"in front of|left of|"
                     r"right of|adjacent to|close to|between|on top of|within) .+)$", c)
        if m:
            sel = self.selector(m.group("np"), ctx)
            if sel is not None and sel.get("relations"):
                sel.pop("limit", None)
                sel.pop("order", None)
                return [{"op": "exists", "target": sel}]
        m = re.match(r"^(is there|are there|do we have|do i have|have we got|does (?P<owner>.+?) have|"
                     r"is there any|are there any)( any| an?| some)? (?P<np>.+)$", c)
        if not m:
            return None
        np_text = m.group("np")
        if m.group("owner"):
            np_text += " in " + m.group("owner")
        sel = self.selector(np_text, ctx)
        if sel is None:
            return None
        sel.pop("limit", None)
        return [{"op": "exists", "target": sel}]

    def _holds(self, c: str, ctx: ParseContext) -> list[Step] | None:
        """Yes or no whether a thing has a property ("is this wall load-bearing?", "is the door in front
        of me a glass door?", "is the nearest wall external?", "are the stairs made of concrete?", "is the
        window on my left wider than a metre?"): the things, then whether they hold it. "Any of" asks
        whether one does."""
        # "does the window upstairs face east": is it facing east
        c = re.sub(r"^(does|do) (?P<np>(the|this|that|these|those|my|it|they|any|some)\b.+) face (?P<d>\w+)$",
                   r"is \g<np> facing \g<d>", c)
        m = re.match(r"^(is|are) (?P<rest>(the|this|that|these|those|my|it|they|any|some|all)\b.+)$", c)
        if m is None or m.group("rest").startswith(("there ", "any there", "some there")):
            return None
        words = m.group("rest").split()
        for cut in range(len(words) - 1, 0, -1):
            if words[cut - 1] in ("a", "an", "the", "made", "of", "not", "than", "more", "less"):
                continue
            np_text, pred = " ".join(words[:cut]), " ".join(words[cut:])
            anyone = re.match(r"^(any|some)( one)? of (?P<np>.+)$", np_text)
            base = {"ref": "it"} if np_text in ("it", "they", "this one", "that one") else \
                self.selector(anyone.group("np") if anyone else np_text, ctx)
            if base is None:
                continue
            test = self._predicate(pred, anyone.group("np") if anyone else np_text, base, ctx)
            if test is None:
                continue
            if anyone:  # "is any of the furniture taller than 2 m": is there such a thing
                base.pop("limit", None)
                base.pop("order", None)
                return [{"op": "exists", "target": _with_test(base, test)}]
            return [{"op": "list", "target": base}, {"op": "exists", "target": _with_test({"step": 0}, test)}]
        return None

    def _predicate(self, pred: str, np_text: str, base: Selector, ctx: ParseContext) -> Selector | None:
        """The selector fields that test ``pred`` said of things (``base``), or None when it is no test."""
        # "rated as a fire exit", "a fire exit", "fire exits": the yes-or-no property said as a noun
        said = re.sub(r"^((rated|classed|classified|marked|designated|listed|flagged|set|defined) as )?(an? )?", "",
                      " ".join(pred.replace("-", " ").split()))
        said = re.sub(r"\w+$", lambda w: singular_noun(w.group(0)), said) if self.lex.flag_in(said) is None else said
        flag = self.lex.flag_in(said)
        if flag is not None and said == flag[2].strip():
            return {"where": [{"key": flag[0], "cmp": "eq", "value": flag[1]}]}
        def noun(word: str | None) -> bool:  # "a glass door": the word after the test names the thing again
            return word is None or singular_noun(word.strip()) in self.lex.class_words \
                or word.strip() in self.lex.kinds or singular_noun(word.strip()) in self.lex.kinds

        compass = re.fullmatch(r"((on|at) the |facing (the )?)?(?P<d>north|south|east|west)(ern)?"
                               r"( side| end| facade| face| wall| elevation)?", pred)
        if compass is not None:  # "is the window on the east side", "does it face east"
            return {"relations": [{"rel": compass.group("d")}]}
        side = re.fullmatch(r"(an? )?(?P<side>external|exterior|outside|outer|internal|interior|inside|inner)"
                            r"(?P<n> \w+)?|on the (?P<on>outside|inside)", pred)
        if side is not None and noun(side.group("n")):
            word = side.group("side") or side.group("on")
            return {"external": word in ("external", "exterior", "outside", "outer")}
        mat = re.fullmatch(r"(made (of|from|out of) )?(an? )?(?P<mat>[a-z]+)(?P<n> \w+)?", pred)
        if mat is not None and mat.group("mat") in MATERIAL_WORDS and noun(mat.group("n")):
            classes = tuple(base.get("class") or ())
            key, fragment = self.noun_phrases.tagger.material_filter(MATERIAL_WORDS[mat.group("mat")], classes)
            return {"where": [{"key": key, "cmp": "contains", "value": fragment}]}
        said = re.sub(r"^(made (of|from|out of) )?(an? )?", "", pred)
        if len(said) >= 3 and said not in MATERIAL_WORDS and self._material_name(said):  # "S355", "C30/37"
            return {"where": [{"key": "material", "cmp": "contains", "value": said}]}
        if base.get("class") and re.match(r"^(taller|higher|wider|longer|bigger|larger|thicker|deeper|shorter|"
                                          r"narrower|smaller|lower|heavier|lighter|over|under|above|below|more|"
                                          r"less|at least|at most)\b", pred):
            full = self.selector(f"{np_text} {pred}", ctx)
            extra = [w for w in (full or {}).get("where") or [] if w not in (base.get("where") or [])]
            if extra:  # with whatever else the predicate said ("wider than 85 cm upstairs")
                more = {k: v for k, v in (full or {}).items()
                        if k in ("storey", "room", "relations", "external") and k not in base}
                return {"where": extra, **more}
        return None

    @lru_cache(maxsize=256)  # noqa: B019 - one parser per building
    def _material_name(self, said: str) -> bool:
        """Is ``said`` part of one of the building's own material names ("s355" of "STEEL/S355J2")?"""
        return any(said in fold(m) for e in self.lex.building.elements.values() for m in e.materials)

    def _held(self, np_text: str, pred: str, ctx: ParseContext, every: bool = True,
              allow_empty: bool = False) -> Selector | None:
        """The things ``np_text`` names that hold the test ``pred`` says (``_predicate``), all of them when
        ``every``; None when either part means nothing here."""
        base = self.selector(np_text, ctx, allow_empty)
        test = self._predicate(pred, np_text, base, ctx) if base is not None else None
        if base is not None and test is None:
            return self._held_by_name(base, pred, ctx)
        if base is None or test is None:
            return None
        if every:
            base.pop("limit", None)
            base.pop("order", None)
        return _with_test(base, test)

    def _held_by_name(self, base: Selector, pred: str, ctx: ParseContext) -> Selector | None:
        """"How many of those are king size": of the things, those whose names say the words (some, not all of
        them); None where the words name no part of them."""
        words = re.sub(r"\s+(size|sized|ones?|types?|models?)$", "", pred.strip())
        if not re.fullmatch(r"[a-z0-9][a-z0-9 .-]*", words) or "name" in base or words in _NOT_NAME_WORDS:
            return None
        every = set(ctx.scene.peek(base))
        named = {**base, "name": words}
        some = set(ctx.scene.peek(named))
        return named if some and some < every else None

    def _count_held(self, c: str, ctx: ParseContext) -> list[Step] | None:
        """How many things have a property ("how many of the bolts are grade 8.8", "how many columns are
        concrete", "how many walls are load-bearing"): the things with the test; None for anything else."""
        m = re.fullmatch(r"how many (of )?(?P<np>(the |all the |these |those )?.+?) (are|is) (?P<pred>(?!there\b)"
                         r"(?!(in|on|at|of|near|next|above|below|under|behind|upstairs|downstairs)\b).+)", c)
        held = self._held(m.group("np"), m.group("pred"), ctx) if m is not None else None
        return None if held is None else [{"op": "count", "target": held}]

    def _measured(self, m: re.Match[str], ctx: ParseContext, allow_empty: bool) -> Selector | None:
        """Things whose property, named in the building's own words, compares with a number."""
        name = self.lex.property_name(m.group("prop"))
        base = self.selector(m.group("np"), ctx, allow_empty)
        if name is None or base is None:
            return None
        cmp = _CMP_WORDS[m.group("cmp")]
        number = 1.0 if m.group("n") == "one" else float(m.group("n"))
        base.pop("limit", None)
        base.pop("order", None)
        base.setdefault("where", []).append({"key": name, "cmp": cmp, "value": number})
        return base

    def _which_hold(self, c: str, ctx: ParseContext) -> list[Step] | None:
        """Which things have a property ("which parts are S355?", "which walls are load-bearing?")."""
        m = re.match(r"^(which|what) (?P<np>.+?) (is|are) (?P<pred>(?!(in|on|at|near|next|above|below|under|behind|"
                     r"there|here|the|a|an)\b).+)$", c)
        # "which walls are ...": all that hold it; "which wall is ...": the one
        held = self._held(m.group("np"), m.group("pred"), ctx, every=m.group(3) == "are") if m is not None else None
        return None if held is None else [{"op": "list", "target": held}]

    def _rooms_joined(self, c: str, ctx: ParseContext) -> list[Step] | None:
        """Yes or no: does a door lead from one room straight into another ("can I walk straight from the
        kitchen into the living room?", "is the kitchen connected to the hall?", "does the hall open onto
        the terrace?")."""
        m = re.fullmatch(r"(can (i|we|you|one) (walk|go|get|step|pass|move) (straight|directly|right) (from )?"
                         r"(?P<a>.+?) (into|to|through to|through into) (?P<b>.+?)"
                         r"|(is|are) (?P<a2>.+?) (directly |straight )?(connected|linked|joined) (to|with) (?P<b2>.+?)"
                         r"|(does|do) (?P<a3>.+?) (open|lead|give) (straight |directly )?(into|onto|to|on to) "
                         r"(?P<b3>.+?))"
                         r"( directly| straight)?", c)
        if not m:
            return None
        a = m.group("a") or m.group("a2") or m.group("a3")
        b = m.group("b") or m.group("b2") or m.group("b3")
        first, second = self.selector(a, ctx), self.selector(b, ctx)
        if first is None or second is None or first.get("class") != ["IfcSpace"] or second.get("class") != ["IfcSpace"]:
            return None
        return [{"op": "exists", "target": {**second, "relations": [{"rel": "connected", "of": first}]}}]

    def _distance(self, c: str, ctx: ParseContext) -> list[Step] | None:
        m = re.match(r"^how far apart (are|is) (?P<np>.+)$", c) or re.match(
            r"^what is the (distance|gap|space) between (?P<np>(the )?(\d+ |two |both )?[a-z]+s( .+)?)$", c)
        if m and not re.search(r"\band\b", m.group("np")):
            sel = self.selector(m.group("np"), ctx)
            if sel is not None:
                sel.pop("limit", None)
                sel["order"] = "nearest"
                return [{"op": "distance", "from": dict(sel, ordinal=1), "to": dict(sel, ordinal=2)}]
        m = re.match(r"^(what is the )?(distance|how far( away)?|how close)( is| are| am i)?( it)?( from)? "
                     r"(?P<a>.+?)( (from|to|and) (?P<b>.+?))?( from (me|here))?$", c)
        if not m:
            m = re.match(r"^how far (away )?(is|are) (?P<a>.+?)( from (?P<b>.+?))?$", c)
        if not m:
            return None
        a, b = m.group("a"), m.group("b")
        if a in ("me", "here", "i", "i am") and b:
            a, b = b, None
        if b and re.fullmatch(USER_WORDS, b):
            b = None
        sa = self.selector(a, ctx)
        if sa is None:
            return None
        if b:
            sb = self.selector(b, ctx)
            if sb is None:
                return None
            fr, to = _singular(sa, a, force=True), _singular(sb, b, force=True)
            # "how far is the door from the nearest column": the column nearest the door (the distance is the
            # smallest between the two sets), not the one nearest the user
            for near, other in ((to, fr), (fr, to)):
                if near.get("order") == "nearest" and not near.get("relations") and "ordinal" not in near \
                        and not other.get("order"):
                    near.pop("order")
                    near.pop("limit", None)
            return [{"op": "distance", "from": fr, "to": to}]
        to = _singular(sa, a, force=True)
        if to.get("limit") == 1 and not ({"order", "ordinal", "ids", "ref", "step"} & set(to)):
            to["order"] = "nearest"  # "how far is the staircase from here": the nearest of several
        return [{"op": "distance", "to": to}]

    PROPS = {
        "height": r"how (tall|high)|(height|tallness)", "width": r"how wide|width|breadth",
        "depth": r"how deep|depth", "thickness": r"how thick|thickness", "length": r"how long|length",
        "area": r"how (big|large)|area|size|floor space|square (meters|footage)|surface",
        "volume": r"volume|how much space|cubic", "elevation": r"elevation|how high up|at what height",
        "material": r"material|made (of|from)|built (of|from)", "color": r"color|what colou?r",
        "name": r"name|called", "type": r"type|what kind|which kind|class",
    }

    def _get(self, c: str, ctx: ParseContext) -> list[Step] | None:
        m = re.match(r"^(how (high|tall) is|what is) the (ceiling|room)( height)? (in|of|here|in here)"
                     r" ?(?P<np>.*)$", c) or re.match(
            r"^what is the (ceiling|room) height (in|of) (?P<np>.+)$", c)
        if m:
            sel = self.selector(m.group("np"), ctx)
            if sel is not None and sel.get("class") == ["IfcSpace"]:
                return [{"op": "get", "target": sel, "property": "height"}]
            room = ctx.user_room()
            if room is not None and re.fullmatch(r"(|here|this room|my room|the room)", m.group("np")):
                return [{"op": "get", "target": {"class": ["IfcSpace"], "ids": [room]}, "property": "height"}]
        m = re.match(r"^(what is|what are|tell me|give me|show me|how|what)( the)? ?(?P<p>tall|high|wide|deep|thick|"
                     r"long|big|large|height|width|depth|thickness|length|area|size|volume|elevation|material|"
                     r"color|name|type|kind|floor area|surface area|[\w -]+?)"
                     r"(?P<of> is| are| of| does| do| on| for| in)\s+(?P<np>.+?)( have| measure| stand| sit)?$", c)
        if m and not re.match(r"^(many|far|close)\b", m.group("p")):
            prop = self._prop_word(m.group("p"))
            np_text = m.group("np")
            if prop in ("name", "type") and re.fullmatch(r"(this|the|our|my|your) (whole )?(building|house|block|"
                                                         r"school|office|model)", np_text):
                return [{"op": "get", "target": {"class": ["IfcBuilding"]}, "property": prop}]  # its own name
            if m.group("of") == " in" and (prop is None or prop in self.PROPS):
                prop = None  # "what is the height in …" is left to the other readings
            elif prop is not None and prop not in self.PROPS and m.group("of") in (" on", " for", " in"):
                prop = self.lex.property_name(prop)  # "the fire rating on C4": only a property the building has
            elif prop is not None and prop not in self.PROPS:
                prop = self._building_property(prop, np_text, ctx)
            if prop == "color" and np_text.startswith(("is ", "are ")):
                np_text = np_text[3:]
            if prop is not None:
                storey = self._storey_target(np_text, ctx)
                if storey is not None:
                    if prop in ("area", "volume"):
                        st = self.building.storey(storey["ids"][0])
                        return [{"op": "get", "target": {"class": ["IfcSpace"], "storey": st.name if st else ""},
                                 "property": prop}]
                    if prop == "height" and re.search(r"above (the )?ground|from the ground", np_text):
                        prop = "elevation"
                    return [{"op": "get", "target": storey, "property": prop}]
                sel = self.selector(np_text, ctx)
                if sel is not None:
                    if prop in ("area", "volume") and not _has_noun(sel) and not sel.get("relations") and (
                            sel.get("storey")):
                        sel["class"] = ["IfcSpace"]
                    if m.group("p") == "size" and set(sel.get("class") or ()) & _MEMBER_CLASSES:
                        prop = "profile"  # "what size is this column": its section
                    return [{"op": "get", "target": _singular(sel, np_text), "property": prop}]
        m = re.match(r"^what (is|are) (?P<np>.+?) made (of|from)$", c) or re.match(
            r"^what (material|materials) (is|are) (?P<np>.+?)( made of)?$", c)
        if m:
            sel = self.selector(m.group("np"), ctx)
            if sel is not None:
                return [{"op": "get", "target": _singular(sel, m.group("np")), "property": "material"}]
        m = re.match(r"^what colou?r (is|are) (?P<np>.+)$", c)
        if m:
            sel = self.selector(m.group("np"), ctx)
            if sel is not None:
                return [{"op": "get", "target": _singular(sel, m.group("np")), "property": "color"}]
        m = re.match(r"^(measure|get) the (?P<p>\w+) of (?P<np>.+)$", c)
        if m:
            prop = self._prop_word(m.group("p"))
            sel = self.selector(m.group("np"), ctx)
            if prop and sel is not None:
                return [{"op": "get", "target": _singular(sel, m.group("np")), "property": prop}]
        return None

    def _storey_target(self, np_text: str, ctx: ParseContext) -> Selector | None:
        """"the top floor", "level 2", "the attic floor": the storey itself, not what is on it."""
        t = re.sub(r"\b(the|this|that|a|above ground|from the ground)\b", " ", ascii_fold(np_text)).strip()
        if re.search(r"\b(on|in|at|upstairs|downstairs)\b", t) or self._class_re.search(
                re.sub(r"\b(floor|floors)\b", "", t)):
            return None
        spec = self._storey_spec(t, ctx)
        if spec is None:
            return None
        if self._strip_storey(" " + t + " ").strip():
            return None
        return {"class": ["IfcBuildingStorey"], "ids": [spec]}

    def _building_property(self, word: str, np_text: str, ctx: ParseContext) -> str | None:
        """A property asked for by everyday words, as the building names it ("u value" ->
        ThermalTransmittance); a word that names no property here is refused naming the closest ones."""
        if word in BUILTIN_PROPERTIES or word.endswith(("grade", "strength class", "quality")):
            return word
        own = self.lex.property_name(word)
        if own is not None:
            return own
        if not self.lex.properties or self._class_re.search(word) or self._kind_re.search(word) \
                or self.selector(np_text, ctx) is None:
            return word
        near = self.lex.closest_properties(word)
        raise ClauseError(f"this building has no property '{word}'; the closest it has are {', '.join(near)}")

    def _prop_word(self, word: str) -> str | None:
        w = word.strip()
        w = re.sub(r"^(total|overall|exact|approximate|combined|summed|entire|whole|full) ", "", w)
        if w in ("sill", "sill height", "parapet height"):
            return "elevation"
        for key, pattern in self.PROPS.items():
            if re.fullmatch(pattern.replace("how ", ""), w) or re.fullmatch(pattern, w):
                return key
        table = {"tall": "height", "high": "height", "wide": "width", "deep": "depth", "thick": "thickness",
                 "long": "length", "big": "area", "large": "area", "size": "area", "floor area": "area",
                 "surface area": "area", "kind": "type", "colour": "color"}
        if w in table:
            return table[w]
        if re.fullmatch(r"[a-z][a-z -]{0,30}", w) and w not in ("thing", "object", "one", "this", "that", "it"):
            return w  # a property by name, e.g. "fire rating"
        return None

    def _describe(self, c: str, ctx: ParseContext) -> list[Step] | None:
        m = re.match(r"^(describe|tell me (about|more about)|what (is|are) (this|that|these|those|it)( thing| one|"
                     r" object| element)?|what am i (looking at|pointing at)|info(rmation)? (on|about)|"
                     r"details (of|on|about)|identify)( (?P<np>.+))?$", c)
        if not m:
            return None
        np_text = m.group("np") or ""
        if "looking at" in c:
            return [{"op": "describe", "target": {"relations": [{"rel": "visible"}, {"rel": "in_front"}],
                                                   "order": "nearest", "limit": 1}}]
        if not np_text or np_text in ("this", "that", "it", "these", "those"):
            return [{"op": "describe", "target": self._deictic(ctx)}]
        sel = self.selector(np_text, ctx)
        if sel is None:
            return None
        return [{"op": "describe", "target": _singular(sel, np_text)}]

    def _what_noun(self, c: str, ctx: ParseContext) -> list[Step] | None:
        m = re.match(r"^what (is|are) the (?P<p>[\w -]+?) in ", c)
        if m and self.lex.property_name(m.group("p")) is not None:
            return None  # "what's the floor finish in office 4": a property of the building's, asked of a room
        finish = _FINISH_ASKED.fullmatch(c)
        if finish is not None:
            # "what's the floor finish in the living room" of a file that says it with a covering there, not a
            # property of the room's: what that covering is made of
            sel = self.selector(f"the {finish.group('p')} {finish.group('rest')}", ctx)
            if sel is not None and set(sel.get("class") or ()) and set(sel["class"]) <= _COVERINGS \
                    and ctx.scene.peek(sel):
                return [{"op": "get", "target": sel, "property": "material"}]
        m = re.match(r"^(which|what) (room|space|floor|level|storey|rooms|spaces|floors|levels|storeys) (is|are)"
                     r" (?P<np>.+?) (in|on|located in|placed in)$", c)
        if m:
            sel = self.selector(m.group("np"), ctx)
            if sel is not None:
                prop = "room" if m.group(2).rstrip("s") in ("room", "space") else "storey"
                return [{"op": "get", "target": _singular(sel, m.group("np")), "property": prop}]
        m = re.match(r"^(what|which) (?P<noun>[a-zü\- ]+?) (is|are|was|were|has|have|stands?|sits?|lies|lie)"
                     r" (?P<rest>.+)$", c)
        if m and (self._class_re.search(m.group("noun")) or self._kind_re.search(m.group("noun"))):
            np_text = m.group("noun") + " " + re.sub(r"^(there|located|placed|situated)\b", "", m.group("rest"))
            sel = self.selector(np_text.strip(), ctx)
            if sel is not None:
                if not _is_singular(m.group("noun"), self._heads):
                    sel.pop("limit", None)
                return [{"op": "list", "target": sel}]
        return None

    def _list_query(self, c: str, ctx: ParseContext) -> list[Step] | None:
        m = re.match(r"^(which|what|list|name|tell me|show me a list of|give me a list of|give me|"
                     r"find( me)?|locate|search for|what are|what is)( all)?( the| of the)? ?(?P<np>.*)$", c)
        if not m:
            return None
        np_text = m.group("np")
        np_text = re.sub(r"\b(are there|is there|are|is|do (we|i|you) have|exist|can (i|you) see|do (i|you) see|"
                         r"have we got)\b", " ", np_text)
        np_text = re.sub(r"\s+", " ", np_text).strip()
        if re.search(r"\b(i|you) (can )?see\b", c):
            np_text += " visible"
        sel = self.selector(np_text or "things", ctx, allow_empty=True)
        if sel is None:
            return None
        if not _has_noun(sel) and not sel.get("relations") and not sel.get("order"):
            if sel.get("storey") or sel.get("room"):
                has_rooms = any(e.storey for e in self.building.spaces())
                return [{"op": "list", "target": ({"class": ["IfcSpace"]} if has_rooms and "room" not in sel else {})
                         | sel}]
            return None
        if not _has_noun(sel) and "limit" not in sel and not sel.get("ordinal"):
            sel.setdefault("order", "nearest")
        return [{"op": "list", "target": sel}]

    # ---- changes --------------------------------------------------------------------------
    def _change(self, c: str, ctx: ParseContext) -> list[Step] | None:
        m = re.match(r"^(see|show( me)?|view|display) (the )?[a-z ]*?(without|minus|but not|with no)"
                     r"( any of| all)?( the)? (?P<np>.+)$", c)
        if m:
            sel = self.selector(m.group("np"), ctx)
            if sel is not None:
                sel.pop("limit", None)
                return [{"op": "hide", "target": sel}]
        m = re.match(r"^(show( me)? only|only show|isolate|just show|show just|focus on|hide everything (but|except)"
                     r"|hide all but|i (only|just) want to see|(only|just) let me see|let me see only|"
                     r"i want to see only)"
                     r"\s+(?P<np>.+)$", c)
        if m:
            sel = self.selector(m.group("np"), ctx)
            if sel is None:
                return self._isolate_each(m.group("np"), ctx)
            return [{"op": "isolate", "target": isolated(sel)}]
        m = re.match(r"^(un-?hide|show|reveal|bring back|make visible|display|restore|show me)( again)?\s+(?P<np>.+?)"
                     r"( again| back)?$", c)
        if m:
            np_text = m.group("np")
            if np_text in ("everything", "all", "it all", "all of it", "everything again", "all elements",
                           "all hidden elements", "hidden elements", "hidden things", "what is hidden"):
                return [{"op": "show", "target": {}}]
            sel = self.selector(np_text, ctx)
            if sel is None:
                return None
            sel.pop("limit", None) if not _is_singular(np_text, self._heads) else None
            if m.group(1) == "show me" and not ctx.hidden_any(sel):
                return [{"op": "select", "target": sel}]
            return [{"op": "show", "target": sel}]
        m = re.match(r"^(make|turn|set|render)\s+(?P<np>.+?)\s+(visible|appear|reappear)$", c)
        if m:
            sel = self.selector(m.group("np"), ctx)
            return [{"op": "show", "target": sel}] if sel is not None else None
        m = re.match(r"^(hide|conceal|make invisible|turn off|switch off|blank out|get (\w+ )?out of (my|the) way|"
                     r"take away|cloak)\s+(?P<np>.+?)( from (view|sight))?( too| as well)?$", c)
        m = m or re.match(r"^(make|turn|set)\s+(?P<np>.+?)\s+(invisible|disappear|vanish|hidden)$", c)
        if m:
            sel = self.selector(m.group("np"), ctx)
            return [{"op": "hide", "target": sel}] if sel is not None else None
        m = re.match(r"^(delete|remove|demolish|erase|get rid of|tear down|knock down|destroy|take out|eliminate)\s+"
                     r"(?P<np>.+)$", c)
        if m:
            sel = self.selector(m.group("np"), ctx)
            return [{"op": "delete", "target": sel}] if sel is not None else None
        got = self._transparency(c, ctx)
        if got is not None:
            return got
        got = self._colour(c, ctx)
        if got is not None:
            return got
        got = self._move_rotate(c, ctx)
        if got is not None:
            return got
        got = self._add_prop(c, ctx)
        if got is not None:
            return got
        m = re.match(r"^(select|highlight|mark|pick|choose|point out|flash|emphasi[sz]e)\s+(?P<np>.+)$", c)
        if m:
            if m.group("np") in ("nothing", "none"):
                return [{"op": "select", "target": {"ids": []}}]
            sel = self.selector(m.group("np"), ctx)
            return [{"op": "select", "target": sel}] if sel is not None else None
        if re.match(r"^(deselect|unselect|clear( the)? selection|select nothing|unhighlight)( all| everything)?$", c):
            return [{"op": "select", "target": {"ids": []}}]
        m = re.match(r"^(reset|restore|remove)( the)? colou?rs? (of|on)\s+(?P<np>.+)$", c) or re.match(
            r"^(restore|reset)\s+(?P<np>.+?)( to (its|their) original colou?rs?| colou?rs?)$", c)
        if m:
            sel = self.selector(m.group("np"), ctx)
            return [{"op": "reset_color", "target": sel}] if sel is not None else None
        return None

    def _transparency(self, c: str, ctx: ParseContext) -> list[Step] | None:
        degrees = phrasing.see_through_degrees()
        deg_words = "|".join(map(re.escape, sorted(degrees, key=len, reverse=True)))
        m = re.match(rf"^(make|turn|set|render)\s+(?P<np>.+?)\s+(?P<how>(\d+(\.\d+)? (%|percent) )?"
                     rf"((?P<deg>{deg_words}) )?(semi-?)?"
                     r"(transparent|see-? ?through|translucent|ghosted|ghost|opaque|solid|x-?ray|glassy|faded))$", c)
        m = m or re.match(r"^(ghost|fade|x-?ray)( out)?\s+(?P<np>.+)$", c)
        m2 = re.match(  # "make the slabs see-through, 20 percent opacity", then "make the slabs 20 % opacity"
            r"^(make|turn|set|render)\s+(?P<np>.+?)\s+(see-? ?through|transparent|translucent)\s*,?\s*(at |with )?"
            r"(?P<n>\d+(\.\d+)?) ?(%|percent) (?P<kind>opacity|transparency)$", c) or re.match(
            r"^(make|turn|set|render|put)\s+(?P<np>.+?)\s+(to |at |with )?(?P<n>\d+(\.\d+)?) ?(%|percent)"
            r" (?P<kind>transparency|transparent|opacity|opaque|see-? ?through)$", c)
        if m2:
            sel = self.selector(m2.group("np"), ctx)
            if sel is None:
                return None
            frac = max(0.0, min(1.0, float(m2.group("n")) / 100.0))
            alpha = frac if m2.group("kind") in ("opacity", "opaque") else 1.0 - frac
            return [{"op": "transparency", "target": sel, "alpha": round(alpha, 4)}]
        if not m:
            return None
        sel = self.selector(m.group("np"), ctx)
        if sel is None:
            return None
        how = m.groupdict().get("how") or "transparent"
        alpha = 1.0 if re.search(r"opaque|solid", how) else 0.3
        if m.groupdict().get("deg") and alpha < 1.0:
            alpha = degrees[m.group("deg")]
        pct = re.search(r"(\d+(\.\d+)?) (%|percent)", how)
        if pct:
            alpha = max(0.0, min(1.0, 1.0 - float(pct.group(1)) / 100.0))
        return [{"op": "transparency", "target": sel, "alpha": alpha}]

    def _colour(self, c: str, ctx: ParseContext) -> list[Step] | None:
        colour_words = "|".join(sorted(COLOURS, key=len, reverse=True))
        mods = "|".join(COLOUR_MODIFIERS)
        col = (rf"(?P<col>((very |really )?({mods})(er)? )?({colour_words})(ish)?|darker|lighter|brighter|"
               rf"the same colou?r)")
        m = re.match(rf"^(paint|color|colour|make|turn|set|change|dye|tint|shade|recolou?r)\s+(?P<np>.+?)\s+(to |in |"
                     rf"into |as )?(a )?{col}( colou?r)?$", c)
        m = m or re.match(rf"^(paint|color|colour|make|turn)\s+(?P<np>it|them|that|this|those|these)\s+{col}$", c)
        m = m or re.match(rf"^(change|set) the colou?r of\s+(?P<np>.+?)\s+to\s+{col}$", c)
        # "make red all the doors of the cellar" (the colour said first, as some speakers do)
        m = m or re.match(rf"^(paint|color|colour|make|turn)\s+{col}\s+(?P<np>(all |every |each |both )?"
                          rf"(the|those|these|this|that|my|our) .+)$", c)
        if not m:
            return None
        sel = self.selector(m.group("np"), ctx)
        if sel is None:
            return None
        col_text = m.group("col")
        rgba = self._rgba(col_text, sel, ctx)
        if rgba is None:
            return None
        return [{"op": "color", "target": sel, "rgba": rgba}]

    def _rgba(self, text: str, sel: Selector, ctx: ParseContext) -> list[float] | None:
        t = text.replace("ish", "").strip()
        if t in ("darker", "lighter", "brighter") or t.startswith("the same"):
            base = ctx.current_colour(sel)
            if base is None:
                return None
            if t.startswith("the same"):
                return base
            f = 0.7 if t == "darker" else 1.3
            if t == "darker":
                rgb = [c * f for c in base[:3]]
            else:
                rgb = [c + (1 - c) * 0.35 for c in base[:3]]
            return [round(min(1.0, max(0.0, v)), 4) for v in rgb] + [base[3]]
        parts = t.split()
        if " ".join(parts[-2:]) in COLOURS:  # a named compound colour: "light blue"
            parts = [*parts[:-2], " ".join(parts[-2:])]
        name = parts[-1]
        if name not in COLOURS:
            return None
        r, g, b = COLOURS[name]
        for mod in parts[:-1]:
            mod = mod.removesuffix("er")
            k = COLOUR_MODIFIERS.get(mod)
            if k is None:
                continue
            if k > 0:
                r, g, b = (v + (1 - v) * k for v in (r, g, b))
            else:
                r, g, b = (v * (1 + k) for v in (r, g, b))
        return [round(r, 4), round(g, 4), round(b, 4), 1.0]

    def _move_rotate(self, c: str, ctx: ParseContext) -> list[Step] | None:
        m = re.match(r"^(rotate|turn|spin|twist|swivel|flip)\s+(?P<np>.+?)\s+(by )?(?P<deg>-?\d+(\.\d+)?) degrees"
                     r"( (?P<dir>clockwise|counter-?clockwise|anti-?clockwise|to the left|to the right|left|right))?$",
                     c) or re.match(r"^(rotate|turn|spin)\s+(?P<np>.+?)\s+(?P<dir>clockwise|counter-?clockwise|"
                                    r"anti-?clockwise)( by)? (?P<deg>\d+(\.\d+)?) degrees$", c)
        if m:
            sel = self.selector(m.group("np"), ctx)
            if sel is None:
                return None
            deg = float(m.group("deg"))
            d = m.group("dir") or ""
            if d in ("clockwise", "to the right", "right"):
                deg = -deg
            return [{"op": "rotate", "target": sel, "degrees": deg}]
        m = re.match(r"^(flip|turn around|rotate)\s+(?P<np>.+?)( around| round)?$", c)
        if m and m.group(1) == "flip":
            sel = self.selector(m.group("np"), ctx)
            return [{"op": "rotate", "target": sel, "degrees": 180}] if sel is not None else None
        towards = self._moved_towards(c, ctx)
        if towards is not None:
            return towards
        dirs = r"(?P<dir>forwards?|ahead|backwards?|back|left|right|up|upwards|down|downwards|north|south|east|west)"
        m = re.match(rf"^(move|shift|push|pull|slide|nudge|drag|bring|raise|lift|lower|drop|displace)\s+(?P<np>.+?)\s+"
                     rf"(by )?(?P<n>\d+(\.\d+)?) ?(?P<unit>[a-z]+)\s+"
                     rf"(to the |towards the |to |towards |further |more )?(my )?{dirs}( of me)?$", c) or re.match(
            rf"^(move|shift|push|pull|slide|nudge|drag|bring)\s+(?P<np>.+?)\s+(to the |towards the |to |towards |)?"
            rf"(my )?{dirs}( by)? (?P<n>\d+(\.\d+)?) ?(?P<unit>[a-z]+)$", c)
        if m:
            unit = length_units().get(m.group("unit"))
            if unit is None:
                return None
            sels = self._each_listed(m.group("np"), ctx)
            if sels is None:
                return None
            d = m.group("dir")
            d = {"ahead": "forward", "forwards": "forward", "backwards": "back", "backward": "back", "upwards": "up",
                 "downwards": "down"}.get(d, d)
            return [{"op": "move", "target": sel, "direction": d, "distance": round(float(m.group("n")) * unit, 4)}
                    for sel in sels]
        m = re.match(r"^(raise|lift|lower|drop)\s+(?P<np>.+?)\s+(by )?(?P<n>\d+(\.\d+)?) ?(?P<unit>[a-z]+)$", c)
        if m and length_units().get(m.group("unit")):
            sel = self.selector(m.group("np"), ctx)
            if sel is None:
                return None
            d = "up" if m.group(1) in ("raise", "lift") else "down"
            return [{"op": "move", "target": sel, "direction": d,
                     "distance": round(float(m.group("n")) * length_units()[m.group("unit")], 4)}]
        return None

    def _each_listed(self, np_text: str, ctx: ParseContext) -> list[Selector] | None:
        """The things ``np_text`` names, or each of the things it lists ("the tables and chairs", "the doors and
        the windows"): one selector for each; None where any part names nothing."""
        sel = self.selector(np_text, ctx)
        if sel is not None:
            return [sel]
        parts = re.split(r" and (?:the |all the |all )?|, (?:and )?(?:the )?", np_text)
        if len(parts) < 2:
            return None
        lead = re.match(r"(all the|all of the|the|all|both the|both|those|these) ", parts[0])
        sels = [self.selector(p if i == 0 or lead is None else f"{lead.group(1)} {p}", ctx)
                for i, p in enumerate(parts)]
        return [x for x in sels if x is not None] if all(x is not None for x in sels) else None

    def _add_prop(self, c: str, ctx: ParseContext) -> list[Step] | None:
        assets = {"sofa": "sofa", "couch": "sofa", "settee": "sofa", "armchair": "armchair", "chair": "chair",
                  "table": "table", "dining table": "table", "desk": "desk", "bed": "bed", "lamp": "lamp",
                  "floor lamp": "lamp", "light": "lamp", "plant": "plant", "pot plant": "plant", "shelf": "shelf",
                  "bookshelf": "shelf", "bookcase": "shelf", "shelves": "shelf", "tv": "tv", "television": "tv"}
        names = "|".join(sorted(assets, key=len, reverse=True))
        c = re.sub(r"^(i'?d like|i would like|i want|i need|give me|can i have|could i get|get me)"
                   r"(?= (an?|one|some|another|the) )", "add", c)
        m = re.match(rf"^(add|put|place|insert|drop|set|position|stick|bring in|create|spawn|pop|plonk|chuck|throw in"
                     rf"|stand)( me)?"
                     rf"( an?| one| some| another| the| new| a new)?( new)? (?P<asset>{names})(?P<rest>.*)$", c)
        if not m:
            return None
        asset = assets[m.group("asset")]
        rest = m.group("rest").strip()
        step: Step = {"op": "add_prop", "asset": asset}
        if not rest or re.fullmatch(r"(here|in front of me|right here|where i am|(next to|beside|near|by) me)", rest):
            step["placement"] = "at_user"
            return [step]
        if re.fullmatch(r"(in|into|inside) (here|this room|my room|the room i am in)", rest) and ctx.user_room():
            step["placement"] = "in"  # "put a bed in here": in the user's room
            step["anchor"] = {"class": ["IfcSpace"], "ids": [ctx.user_room()]}
            return [step]
        rm = re.match(r"^(next to|beside|near|by|close to|alongside|against|in front of|facing|opposite|under|below|"
                      r"in|into|inside|to)\s+(?P<np>.+)$", rest)
        if not rm:
            return None
        prep = rm.group(1)
        np_said = rm.group("np")
        each = re.match(r"(each of|every one of|all of|each|every|all|both|both of)( the)? (?=\w)", np_said)
        sel = self.selector(np_said[each.end():] if each else np_said, ctx)
        if sel is None:
            return None
        if prep in ("in", "into", "inside", "to") and sel.get("class") == ["IfcSpace"]:
            step["placement"] = "in"
        else:
            step["placement"] = "in_front_of" if prep in ("in front of", "facing", "opposite") else "next_to"
        if each and len(sel.get("ids") or ()) > 1:  # "put a desk in each of the three small offices": one in each
            anchors = [{k: v for k, v in sel.items() if k not in ("ids", "order", "limit")} | {"ids": [i]}
                       for i in sel["ids"]]
            return [{**step, "anchor": a} for a in anchors]
        step["anchor"] = _singular(sel, np_said, force=True)
        return [step]

    # ---- follow-ups -----------------------------------------------------------------------
    def _the_other(self, c: str, last: list[Step], ctx: ParseContext) -> list[Step] | None:
        """"No, the other one", "what about the other one?": the last request again on the other thing of
        the same kind (a room of the same name), not the one it was about; asks which if there are more."""
        if not re.fullmatch(r"(no ,? )?(i meant |i mean |not that one ,? )?"
                            r"(and |what about |how about |and what about )?(the )?other (one|1)", c):
            return None
        steps = []
        for s in last:
            sel = self._other_than_it(s["target"], ctx) if isinstance(s.get("target"), dict) else None
            if sel is None:
                return None
            steps.append({**copy.deepcopy(s), "target": sel})
        return steps

    def _count_again_of_the_same(self, c: str, ctx: ParseContext, so_far: list[Step]) -> str:
        """"How many windows face north?" ... "and how many face south?": the same things counted, said again
        with their noun, where the count names none."""
        m = re.fullmatch(r"how many (?P<rest>(face|faces|facing|are facing|look|looks|looking|point|points|"
                         r"pointing|open|opens|are (on|in|at|facing|upstairs|downstairs|there on|left|on the|in the))"
                         r"\b.*)", c)
        last = so_far[-1:] or ctx.dialogue.last_steps[-1:]
        if m is None or not last or last[0].get("op") not in ("count", "list", "exists") \
                or not isinstance(last[0].get("target"), dict):
            return c
        target = last[0]["target"]
        if target.get("ids") or target.get("ref"):
            return c
        noun = target.get("kind") or (class_noun(target["class"][0]) if target.get("class") else None)
        return f"how many {plural_noun(str(noun))} {m.group('rest')}" if noun else c

    def _which_of_those(self, c: str, ctx: ParseContext, so_far: list[Step]) -> list[Step] | None:
        """"How many kitchens are there, and which one's the biggest?": the things the clause before was about,
        the one that is most so. "Which of the two armchairs is closer to me?": of those, the one."""
        m = re.fullmatch(r"which( one| ones)?(?P<of> of them| of those| of these)? (is|are) (the )?(?P<sup>[a-z]+?)"
                         r"( one| ones)?( to me| to us| from me| from here)?", c)
        earlier = so_far[-1].get("target") if so_far else None
        if m is not None and isinstance(earlier, dict):
            pool: Selector | None = {k: copy.deepcopy(v) for k, v in earlier.items()
                                     if k not in ("order", "limit", "ordinal")}
        elif m is not None and not so_far and ctx.dialogue.last_steps \
                and ctx.dialogue.last_steps[-1].get("op") in ("count", "list", "exists") \
                and isinstance(ctx.dialogue.last_steps[-1].get("target"), dict):
            # "how many bedrooms has this flat got?" ... "and which one's the bigger?": of those, where they were
            pool = {k: copy.deepcopy(v) for k, v in ctx.dialogue.last_steps[-1]["target"].items()
                    if k not in ("order", "limit", "ordinal")}
        elif m is not None and m.group("of") and ctx.scene.it():
            pool = {"ref": "it"}  # "... and which one of those is the biggest?" after the turn before
        else:
            m = re.fullmatch(r"which of (?P<np>(the|these|those|all the|both|both the|the \d+) [^,]+?) (is|are) "
                             r"(the )?(?P<sup>[a-z]+?)( one)?( to me| to us| from me| from here)?", c)
            pool = self.selector(m.group("np"), ctx) if m is not None else None
            if m is not None and pool is None:
                pool = self._rooms_of_either(m.group("np"), ctx)
        if m is None or pool is None:
            return None
        order = self._most(m.group("sup"))
        if order is None:
            return None
        pool = {k: v for k, v in pool.items() if k not in ("order", "limit", "ordinal")}
        return [{"op": "list", "target": {**pool, "order": order, "limit": 1}}]

    def _count_in_each(self, c: str, ctx: ParseContext) -> list[Step] | None:
        """"How many cabinets are there in each of the kitchens?", "how many windows per floor": the count in
        each room (storey) of those said, every one of them."""
        m = re.fullmatch(r"how many (?P<x>.+?) (are there |are |is there |do we have |have we got )?"
                         r"((in|on) (each|every) (one )?(of )?|per )(?P<y>.+)", c)
        if m is None:
            return None
        y = m.group("y")
        things = self.selector(m.group("x"), ctx)
        if not things or not _has_noun(things):
            return None
        if things.get("limit") == 1 and not re.search(r"\b(\w+est|first|last|one)\b", m.group("x")):
            # "is there a kitchen on every floor" (said as "how many kitchen are there on each floor"): every one
            x = m.group("x")
            said_many = self.selector(x[: x.rfind(" ") + 1] + plural_noun(x.split()[-1]), ctx)
            things = said_many if said_many and said_many.get("limit") != 1 else \
                {k: v for k, v in things.items() if k not in ("order", "limit")}
        if re.fullmatch(r"(the )?(floors?|storeys?|stories|story|levels?|rooms?)", y):  # per floor, in each room
            return [{"op": "group", "target": things, "by": "room" if "room" in y else "storey"}]
        rooms = self.selector(y if y.startswith(("the ", "all ")) else f"all the {plural_noun(y)}", ctx)
        if not rooms or rooms.get("class") != ["IfcSpace"]:
            return None
        rooms = {k: v for k, v in rooms.items() if k not in ("order", "limit")}
        return [{"op": "group", "target": things, "by": "room", "among": rooms}]

    def _rooms_of_either(self, np_text: str, ctx: ParseContext) -> Selector | None:
        """"The kitchen and the living room on the east side": two rooms, the place said after the second
        said of the first too where the first says none (then where that names no room, the first as said);
        None unless each names one room."""
        parts = np_text.split(" and ")
        if len(parts) != 2:
            return None
        a, b = parts
        tail = re.search(r" ((on|in|at) the [a-z ]+|upstairs|downstairs)$", b)
        first = [a + tail.group(0), a] if tail and not re.search(r" (on|in|at) the ", a) else [a]
        ids: list[str] = []
        for readings in (first, [b]):
            sel = next((s for s in (self.selector(r, ctx) for r in readings) if s), None)
            if not sel or sel.get("class") != ["IfcSpace"] or len(sel.get("ids") or ()) != 1:
                return None
            ids += sel["ids"]
        return {"class": ["IfcSpace"], "ids": ids}

    def _most(self, word: str) -> str | None:
        """The ordering a superlative or a comparative says ("biggest", "closer": nearest), from the noun
        phrases' words; None for any other word."""
        from lemminflect import getInflection, getLemma

        for said in (word, *(getInflection(lemma, "JJS")[0] for lemma in getLemma(word, upos="ADJ")
                             if word.endswith("er") and getInflection(lemma, "JJS"))):
            phrase = self.noun_phrases.read(f"the {said} one")
            if phrase is not None and len(phrase.superlatives) == 1:
                return phrase.superlatives[0]
        return None

    def _other_than_it(self, base: Selector, ctx: ParseContext) -> Selector | None:
        """The other thing of the kind ``base`` (the last request's target) named besides what it was about (a
        room of the same name), or None when nothing was meant or too much."""
        it = ctx.scene.it()
        things = [self.building.elements[g] for g in it if g in self.building.elements]
        if not things or len(it) > load_schema()["$defs"]["selector"]["properties"]["ids"]["maxItems"]:
            return None  # nothing was meant, or so many that "the other one" means nothing
        sel: Selector = {k: copy.deepcopy(base[k]) for k in ("class", "kind") if k in base}
        sel.setdefault("class", sorted({e.ifc_class for e in things}))
        sel["except"] = {"ids": list(it)}
        for label in ({e.long_name for e in things}, {e.name for e in things}):
            if len(label) == 1 and next(iter(label)) and ctx.scene.peek({**sel, "name": next(iter(label))}):
                sel["name"] = next(iter(label))  # "the other С/У": the other room of that name
                break
        sel["limit"] = 1
        return sel

    def _other_asked(self, c: str, ctx: ParseContext) -> list[Step] | None:
        """A request about "the other one" after one about a thing ("front door, how wide?" ... "hide the other
        one", "paint the other one red"): the new request, made on the other thing of that kind."""
        m = re.fullmatch(r"(?P<v>[a-z]+) the other (one|1)(?P<rest>( .+)?)", c)
        last = ctx.dialogue.last_steps
        if m is None or not last or not (m.group("v") in VERBS_AFTER_AND or m.group("v") in _MORE_VERBS) \
                or not isinstance(last[-1].get("target"), dict):
            return None
        other = self._other_than_it(last[-1]["target"], ctx)
        got = self._clause(f"{m.group('v')} it{m.group('rest')}", ctx, []) if other is not None else None
        if got is None or not all(s.get("target") == {"ref": "it"} for s in got[0]):
            return None
        return [{**s, "target": copy.deepcopy(other)} for s in got[0]]

    def _follow_up(self, c: str, ctx: ParseContext) -> list[Step] | None:
        """"and upstairs?", "what about the kitchen", "the windows too", "again"."""
        last = ctx.dialogue.last_steps
        if not last:
            return None
        if re.fullmatch(r"(again|do (it|that) again|same again|once more|one more time|repeat( that)?)", c):
            return [copy.deepcopy(s) for s in last if s["op"] not in ("undo", "redo", "save")]
        m = re.fullmatch(r"(and|what about|how about|and what about|and how about|now)?\s*(on|in|at|for)?\s*(the )?"
                         r"(one|floor|level|storey) (?P<dir>above|below|under|over) (that|it|this)( one)?", c)
        if m:  # "and on the one above that?": the storey next to the one just asked about
            steps = []
            for s in last:
                base = s.get("target") if isinstance(s.get("target"), dict) else None
                st = next((x for x in self.building.storeys if base and base.get("storey") in (x.name, x.id)), None)
                if base is None or st is None:
                    return None
                step = -1 if m.group("dir") in ("below", "under") else 1
                nxt = next((x for x in self.building.storeys if x.index == st.index + step), None)
                if nxt is None:
                    raise ClauseError(f"There is no storey {m.group('dir')} {st.name}.")
                s2 = copy.deepcopy(s)
                s2["target"]["storey"] = nxt.name
                steps.append(s2)
            return steps
        other = self._the_other(c, last, ctx)
        if other is not None:
            return other
        if _WHOLE_BUILDING.fullmatch(c):  # "and in the whole building?": the last question, nowhere in particular
            return _unscoped(last)
        most = re.fullmatch(r"(and |so )?(which|what) (?P<by>floor|storey|level|room)( (has|have|gets|got|holds))?"
                            r"( got)? the (?P<m>most|fewest|least)( of them| ones)?", c)
        if most is not None and len(last) == 1 and last[0]["op"] in ("count", "list") \
                and isinstance(last[0].get("target"), dict):
            # "how many windows are there?" ... "and which floor has the most?": those, grouped
            target = {k: v for k, v in copy.deepcopy(last[0]["target"]).items()
                      if k not in ("storey", "limit", "order")}
            by = "room" if most.group("by") == "room" else "storey"
            pick = "most" if most.group("m") == "most" else "fewest"
            return [{"op": "group", "target": target, "by": by, "pick": pick}]
        meant = re.fullmatch(r"(i meant|i mean|i said|make that|not (that|those|them|it) ,?)( (just|only))? "
                             r"(?P<np>.+)", c)
        if meant is not None:  # "no, I meant the windows": the last request on those instead
            return self._instead(last, meant.group("np"), ctx)
        recolour = re.fullmatch(rf"(and|also|now|then) (?P<np>.+?) (?P<c>{_colour_pattern()})( too| as well)?", c)
        if recolour is not None and any(s["op"] == "color" for s in last):  # "and the coffee tables green"
            sel = self.selector(recolour.group("np"), ctx)
            rgba = self._rgba(recolour.group("c"), sel, ctx) if sel is not None and _has_noun(sel) else None
            if sel is not None and rgba:
                return [{"op": "color", "target": sel, "rgba": rgba}]
        c = re.sub(r"^(now|and|then|and now)\s+(?=(do )?(the )?same\b)", "", c)
        m = re.match(r"^(and|what about|how about|and what about|and how about|same for|now|also|"
                     r"(do |repeat )?(the |that )?same( thing)? (to|for|with|on))?\s*(?P<np>.+?)"
                     r"(?P<tail> too| as well| also)?$", c)
        if not m:
            return None
        connected = bool(m.group(1) or m.group("tail"))
        only_queries = all(s["op"] in ("count", "list", "exists", "get", "distance", "route", "describe")
                           for s in last)
        if not connected and not (only_queries and len(re.sub(r"^(on|in|at|for) (the )?", "", c).split()) <= 4):
            return None
        np_text = m.group("np")
        sel = self.selector(np_text, ctx, allow_empty=True)
        if not sel:
            return None
        if sel.get("class") == ["IfcSpace"] and sel.get("ids") and re.match(r"(down |up )?(in|on) ", np_text) \
                and any(isinstance(s.get("target"), dict) and s["target"].get("class") == ["IfcSpace"]
                        and s["target"].get("storey") for s in last):
            # "how many rooms on the top floor?" ... "and down in the cellar?": on the floor the word names
            as_floor = self.selector(f"rooms {re.sub(r'^(down|up) ', '', np_text)}", ctx)
            if as_floor is not None and as_floor.get("storey") and not as_floor.get("ids"):
                sel = {"storey": as_floor["storey"]}
        steps = []
        for s in last:  # copies: the program never shares parts with the dialogue it came from
            s2 = copy.deepcopy(s)
            key = "target" if "target" in s else ("to" if "to" in s else None)
            if key is None:
                return None
            base = s2[key]
            kind_said = singular_noun(re.sub(r"^(the|all the|any) ", "", np_text))
            if base.get("kind") and sel.get("class") == ["IfcSpace"] and kind_said in KIND_WORDS:
                sel = {"kind": kind_said}  # "how many showers ..." "and toilets?": the fittings, not the rooms
            if sel.get("class") == ["IfcSpace"] and sel.get("ids") and base.get("class") not in (["IfcSpace"], None):
                room_sel = {k: v for k, v in sel.items() if k in ("class", "ids", "order", "limit", "relations")}
                base.pop("room", None)
                rels = [r for r in base.get("relations", []) if r["rel"] != "in"]
                base["relations"] = rels + [{"rel": "in", "of": room_sel}]
                s2[key] = base
                steps.append(s2)
                continue
            if "storey" in sel and (not _has_noun(sel) or sel.get("ids") and sel.get("ids") == base.get("ids")):
                self._same_things_there(base, sel, np_text)  # "and upstairs?", "and the one upstairs?"
            if _has_noun(sel):  # other things: how many of them is theirs too ("the table?" ... "and the chairs?")
                for k in ("class", "kind", "name", "ids", "ref", "limit", "order", "ordinal"):
                    base.pop(k, None)
            if "storey" in sel or "room" in sel:
                base.pop("storey", None)
                base.pop("room", None)
                base["relations"] = [r for r in base.get("relations", []) if r["rel"] not in ("in", "on_floor")]
                if not base["relations"]:
                    base.pop("relations")
            base.update(sel)
            s2[key] = base
            if s2["op"] == "isolate" and _has_noun(sel) and (
                    m.group("tail") or re.search(r"\b(too|as well|also)\b", ctx.raw.lower())):
                s2 = {"op": "show", "target": base}  # "isolate the columns" ... "and the beams too": both shown
            steps.append(s2)
        return steps

    def _asked_of_both(self, clause: str, ctx: ParseContext, so_far: list[Step]) -> tuple[list[Step], bool] | None:
        """"What are the cellar walls made of, and the walls upstairs?": the question (or change: "colour the
        professor's office blue, and Kris's office as well"), then the same of the things said after it (as the
        follow-up "and the walls upstairs?" would ask it)."""
        pair = re.fullmatch(r"(?P<a>.+?) , (and|and also|also|what about|and what about|and how about|same for) "
                            r"(?P<b>((the|all the|those|these|my|our|this|that) |[a-z]+'s )[^,]+?)( too| as well)?",
                            clause)
        if pair is None:
            return None
        try:
            first = self._clause(pair.group("a"), ctx, so_far)
        except ClauseError:
            return None
        if first is None or not all(st["op"] in _QUESTION_OPS | _SAME_AGAIN_OPS for st in first[0]):
            return None
        asked = dataclasses.replace(ctx, dialogue=Dialogue(last_steps=copy.deepcopy(first[0])))
        then = self._follow_up(f"and {pair.group('b')}", asked)
        if not then:
            return None
        return [*first[0], *then], first[1]

    def _same_things_there(self, base: Selector, sel: Selector, np_text: str) -> None:
        """"The bedroom on the first floor?" ... "and the one upstairs?": the storey said is the one above
        (below) the storey just asked about where "upstairs" from the user is that storey itself (a follow-up
        changes something), and things picked by id are swapped for those of the same class and name there (the
        long name where there is one: a room's name is often its number)."""
        def named(value: Any) -> Storey | None:
            return next((s for s in self.building.storeys if value in (s.name, s.id)), None)
        was, now = named(base.get("storey")), named(sel.get("storey"))
        if was is None or now is None:
            return
        if now is was:
            step = -1 if re.search(r"\b(downstairs|down|below)\b", np_text) else (
                1 if re.search(r"\b(upstairs|up|above)\b", np_text) else 0)
            now = next((s for s in self.building.storeys if step and s.index == was.index + step), None)
            if now is None:
                return
            sel["storey"] = now.name
        ids = base.get("ids")
        if not ids:
            return
        olds = [self.building.elements[i] for i in ids if i in self.building.elements]
        keys = {(e.ifc_class, e.long_name or e.name) for e in olds}
        there = [e.id for e in self.building.elements.values()
                 if e.storey == now.id and (e.ifc_class, e.long_name or e.name) in keys]
        if olds and all(e.long_name or e.name for e in olds) and there:
            if sel.get("ids") == ids:  # "the one" read as the thing just asked about
                sel["ids"] = there
            base["ids"] = there

    def _bare(self, c: str, ctx: ParseContext) -> list[Step] | None:
        """A noun phrase said alone: a room is where to go ("exit lobby, please"); the nearest or biggest
        of something is a question ("nearest bathroom?"); anything else is too vague to act on."""
        sel = self.selector(c, ctx)
        if not sel or sel.get("ref"):
            return None
        if sel.get("class") == ["IfcSpace"] and sel.get("ids") and not sel.get("relations") \
                and sel.get("order") in (None, "nearest") and not re.search(r"\b(nearest|closest)\b", c):
            return [{"op": "teleport", "target": _singular(sel, c, force=True)}]  # "kitchen": the one meant
        if sel.get("order") and sel.get("limit") and re.search(r"\b(\w+est|nearest|closest)\b", c):
            return [{"op": "list", "target": sel}]
        return None

    def _instead(self, last: list[Step], np_text: str, ctx: ParseContext) -> list[Step] | None:
        """The last request done to other things: its changes taken back (the hidden shown again, the
        coloured given their colour back) and made on these; a question asked about these."""
        sel = self.selector(np_text, ctx)
        if not sel:
            return None
        undo_of = {"hide": "show", "show": "hide", "color": "reset_color", "select": None, "isolate": None,
                   "transparency": "reset_color"}
        back: list[Step] = []
        for s in last:
            if "target" not in s:
                return None
            if s["op"] in undo_of and undo_of[s["op"]] is not None:
                back.append({"op": undo_of[s["op"]], "target": copy.deepcopy(s["target"])})
            elif s["op"] not in undo_of and s["op"] not in ("count", "list", "exists", "get", "describe", "aggregate"):
                return None  # moves, deletions, furniture: "undo" says what it takes back
        return back + _retargeted(last, sel)

    # ---- noun phrases -> selectors --------------------------------------------------------
    def _deictic(self, ctx: ParseContext) -> Selector:
        return {"ref": "selected"} if ctx.selected else {"ref": "it"}

    def upper_level(self, said: str) -> dict[str, Any] | None:
        """"Upstairs" ("downstairs") in a file of one storey whose rooms stand at two levels (an upper floor
        modelled on the one storey): a filter on the height things stand at, at the upper rooms' floor; None
        elsewhere."""
        up = re.fullmatch(r"upstairs|up there|(on )?(the )?(upper|top) (floor|level)", said)
        down = re.fullmatch(r"downstairs|down there|(on )?(the )?(lower|bottom) (floor|level)", said)
        if len(self.building.storeys) > 1 or not (up or down):
            return None
        floors = sorted(float(e.bbox_min[2]) for e in self.building.spaces() if e.has_geometry)
        upper = [z for z in floors if floors and z >= floors[0] + _STOREY_RISE]
        if not upper:
            return None
        return {"key": "elevation", "cmp": "gt" if up else "lt", "value": round(upper[0] - 0.05, 2)}

    def _storey_spec(self, text: str, ctx: ParseContext) -> str | None:
        t = ascii_fold(text)
        for pattern, phrase in self._storey_name_res:
            if pattern.search(t):
                return self.lex.storeys[phrase]
        for m in _storey_numbers(t):
            st = resolve_storey(m.group(0), self.building.storeys, roof_only=self.lex.roof_storeys)
            return st.id if st is not None else f"missing:{m.group(0)}"
        for pattern, spec in self._storey_word_res:
            if pattern.search(t):
                return storey_for(self.building, ctx.scene.user_storey(), spec, self.lex.roof_storeys)
        if re.search(r"\b(up there|above us|upper|top)\b", t):
            return storey_for(self.building, ctx.scene.user_storey(), "upper")
        return None

    def _named_for_place(self, text: str, ctx: ParseContext, allow_empty: bool) -> Selector | None:
        """"The sliding doors out to the terrace" where no room is a terrace but doors are named for it
        ("Terrassentuer"): the terrace doors; None where that names nothing either."""
        m = _FOR_A_PLACE.fullmatch(text.strip(" ,"))
        if m is None:
            return None
        sel = self.selector(f"{m.group('lead')}{m.group('pre')}{m.group('x')} {m.group('noun')}", ctx, allow_empty)
        return sel if sel is not None and sel.get("name") and sel.get("class") else None

    def _one_stack(self, ids: list[str]) -> bool:
        """Do these things (stair flights and their parts) stand one over another in plan, as one staircase
        running through the floors does?"""
        boxes: dict[str, tuple[Any, Any]] = {}  # each staircase (a whole, else the thing) with all its parts
        for g in ids:
            e = self.building.elements.get(g)
            if e is None or not e.has_geometry:
                continue
            key = e.whole or e.id
            lo, hi = boxes.get(key, (e.bbox_min[:2], e.bbox_max[:2]))
            boxes[key] = (np.minimum(lo, e.bbox_min[:2]), np.maximum(hi, e.bbox_max[:2]))
        if len(boxes) < 2:
            return False
        lo = np.max([b[0] for b in boxes.values()], axis=0)
        hi = np.min([b[1] for b in boxes.values()], axis=0)
        return bool(np.all(hi > lo - STACKED_SLACK_M))

    def _read_again(self, text: str, ctx: ParseContext, allow_empty: bool) -> Selector | None:
        """A noun phrase the grammar did not read, read again in other words (the doors named for a place, a
        code alone, the thing before a generic noun): each way once, never one inside another."""
        if getattr(self._again, "busy", False):
            return None
        self._again.busy = True
        try:
            return self._named_for_place(text, ctx, allow_empty) or self._code_alone(text, ctx, allow_empty) \
                or self._without_generic_noun(text, ctx, allow_empty)
        finally:
            self._again.busy = False

    def _without_generic_noun(self, text: str, ctx: ParseContext, allow_empty: bool) -> Selector | None:
        """"The bekisting boards", "the formwork bits": the things the word before a generic noun names;
        None where that names nothing either."""
        m = re.fullmatch(r"(?P<np>.+? [a-z]+) (boards|panels|sheets|pieces|bits|elements|parts|items|members|units)",
                         text.strip(" ,"))
        if m is None:
            return None
        sel = self.selector(m.group("np"), ctx, allow_empty)
        return sel if sel is not None and _has_noun(sel) else None

    def _code_alone(self, text: str, ctx: ParseContext, allow_empty: bool) -> Selector | None:
        """"The TT33 double tees" where the words after the code name nothing here: the things the code (a
        word with letters and digits) names; None where no such code names anything alone either."""
        codes = [w for w in re.findall(r"[a-z0-9][a-z0-9-]*", text) if re.search(r"\d", w) and re.search(r"[a-z]", w)]
        if len(codes) != 1:
            return None
        lead = re.match(r"(all |both |all of |each of )?(the |those |these )?", text.strip(" ,"))
        sel = self.selector(f"{lead.group(0) if lead else ''}{codes[0]}", ctx, allow_empty)
        return sel if sel is not None and sel.get("name") and not sel.get("class") else None

    def selector(self, text: str, ctx: ParseContext, allow_empty: bool = False) -> Selector | None:
        """The selector a noun phrase means, read by the noun-phrase grammar (``noun_phrase``), or None when
        it names nothing recognisable here or says something the grammar does not decide."""
        measured = _MEASURED.match(text.strip(" ,"))
        if measured is not None:  # "windows with a U-value above 1": a property compared with a number
            return self._measured(measured, ctx, allow_empty)
        clause = _RELATIVE.match(text.strip(" ,"))
        if clause is not None:  # "everything that is S355", "the walls that are load-bearing"
            held = self._held(clause.group("np"), clause.group("pred"), ctx, every=False, allow_empty=allow_empty)
            if held is not None:
                return held
        flag = self.lex.flag_in(text)
        if flag is not None:  # "the load-bearing walls": the walls whose LoadBearing is true
            name, value, said = flag
            sel = self.selector(" ".join(text.replace("-", " ").replace(said, " ").split()), ctx, allow_empty)
            if sel is not None and _has_noun(sel):
                sel.setdefault("where", []).append({"key": name, "cmp": "eq", "value": value})
                return sel
            return None
        if _GROUND_SLAB.fullmatch(text.strip(" ,")):
            ground = self._ground_slabs()
            if ground:  # "the ground slab": the slab on grade
                return {"class": ["IfcSlab"], "ids": ground}
        phrase = self.noun_phrases.read(text.strip(" ,"))
        try:
            sel = selector_of(phrase, self, ctx, allow_empty) if phrase is not None else None
        except NotCovered:
            sel = None
        if sel is None:
            again = self._read_again(text, ctx, allow_empty)
            if again is not None:
                self._sanitary_said(again, text, ctx)
            return again
        if sel.get("class") and set(sel) <= {"class", "limit", "order"} and sel["class"] != ["IfcSpace"] \
                and sel.get("limit") == 1:
            rooms = self._rooms_for_missing_class(sel["class"], text)
            if rooms:  # "the staircase" of a floor with no stair but a stair hall: that room
                return {"class": ["IfcSpace"], "ids": rooms, "limit": 1}
        if set(sel) == {"class", "limit"} and sel["limit"] == 1 and "IfcStair" in sel["class"] \
                and self._one_stack(ctx.scene.peek({"class": sel["class"]})):
            del sel["limit"]  # "the staircase" of flights stacked floor over floor: all of it
        self._room_right_under(sel, text, ctx)
        if sel.get("external") is True and sel.get("relations") and self._narrows_to_nothing(sel, "external", ctx):
            del sel["external"]  # "the posts outside the front door" in a file that flags no post as outside
        if sel.get("kind") and sel.get("name") in _WHERE_PARTS_GO and self._narrows_to_nothing(sel, "name", ctx):
            del sel["name"]  # "the roof purlins" where none is named for the roof: the purlins (all are on it)
        if sel.get("class") == ["IfcMember"] and sel.get("name") and not ctx.scene.peek(sel) \
                and ctx.scene.peek({**sel, "class": list(_STRUCTURAL_MEMBERS)}):
            sel["class"] = list(_STRUCTURAL_MEMBERS)  # "the HEA 100 members" that are beams and columns
        if sel.get("kind") and isinstance(sel.get("name"), str) and self._said_of_nothing(sel["name"]) \
                and self._narrows_to_nothing(sel, "name", ctx):
            del sel["name"]  # "the rainwater downpipes" in a file that says "rainwater" of nothing: the downpipes
        if isinstance(sel.get("name"), str) and sel.get("class") and sel.get("limit") == 1 \
                and any(r.get("rel") in _POINTED for r in sel.get("relations") or []) \
                and self._narrows_to_nothing(sel, "name", ctx):
            del sel["name"]  # "that garden door in front of me" where no door is named so: the door there
        if sel.get("kind") and sel.get("relations") == [{"rel": "in", "of": {"class": ["IfcRoof"]}}] \
                and self._narrows_to_nothing(sel, "relations", ctx):
            del sel["relations"]  # "the purlins of the roof" where the roof's body holds none: the purlins
        if isinstance(sel.get("name"), str) and sel.get("class") and not sel.get("kind") \
                and self._place_not_named(sel["class"], sel["name"]):
            # "the balcony railings" where no railing is named so and no room is a balcony: the railings
            del sel["name"]
        self._sanitary_said(sel, text, ctx)
        self._fitting_unnamed(sel, ctx)
        self._material_unrecorded(sel, ctx)
        return self._these_said_before(sel, text, ctx)

    @staticmethod
    def _these_said_before(sel: Selector, text: str, ctx: ParseContext) -> Selector:
        """"How many columns are on the second floor?" ... "show only these columns": the ones just counted or
        listed (the things the last step was about, where they are of what is named now)."""
        if not re.fullmatch(r"(these|those)( \d+)? [a-z]+", text.strip(" ,")) or set(sel) - {"class", "kind"}:
            return sel
        last = ctx.last_steps()
        prev = (last[-1].get("target") if last else None) or {}
        if not isinstance(prev, dict) or set(prev) <= {"class", "kind"}:
            return sel  # nothing narrower was said before: the same things
        if prev.get("class") == sel.get("class") and prev.get("kind") == sel.get("kind"):
            return {"ref": "it"}
        return sel

    def _material_unrecorded(self, sel: Selector, ctx: ParseContext) -> None:
        """"The cubic metres of concrete in the footings" of a file that records no material for any footing: the
        material cannot pick among them, so the footings (a material the file does say picks as it is)."""
        where = sel.get("where")
        if not isinstance(where, list) or not any(w.get("key") == "material" for w in where) \
                or not sel.get("class") or not self._narrows_to_nothing(sel, "where", ctx):
            return
        rest = [w for w in where if w.get("key") != "material"]
        unfiltered = {k: v for k, v in sel.items() if k != "where"} | ({"where": rest} if rest else {})
        els = self.building.elements
        found = [g for g in ctx.scene.peek(unfiltered) if g in els]
        if found and not any(els[g].materials for g in found):
            sel.pop("where")
            if rest:
                sel["where"] = rest

    @staticmethod
    def _fitting_unnamed(sel: Selector, ctx: ParseContext) -> None:
        """"The bath tub in the bathroom" of a file that names no fitting: the one sanitary fitting there (for a
        tub, the biggest of them: no fitting is bigger), where no element anywhere is named as the kind."""
        if sel.get("kind") not in _FITTING_KINDS or not (sel.get("relations") or sel.get("room")) \
                or ctx.scene.peek(sel) or ctx.scene.peek({"kind": sel["kind"]}):
            return
        place = {k: v for k, v in sel.items() if k not in ("kind", "limit", "order")}
        found = ctx.scene.peek({**place, "class": ["IfcSanitaryTerminal", "IfcFlowTerminal"]})
        if len(found) == 1 or found and sel["kind"] == "bathtub":
            sel.pop("kind")
            sel.update({**place, "class": ["IfcSanitaryTerminal", "IfcFlowTerminal"]})
            if len(found) > 1:
                sel.update({"order": "largest", "limit": 1})

    def _full_height(self, clause: str) -> str:
        """"How many columns run the full height of the building": those at least nine tenths as tall as the
        building's storeys stand (from the lowest storey's level to the top one's, plus one storey's height
        more), said as a height ("are taller than 11.52 meters")."""
        m = _FULL_HEIGHT.search(clause)
        if m is None:
            return clause
        levels = sorted(st.elevation for st in self.building.storeys)
        if len(levels) < 2:
            return clause
        full = levels[-1] - levels[0] + (levels[-1] - levels[-2])
        be = "" if m.group("that") else "are "
        return f"{clause[:m.start()]} {m.group('that') or ''}{be}taller than {0.9 * full:.2f} meters{clause[m.end():]}"

    @staticmethod
    def _sanitary_said(sel: Selector, text: str, ctx: ParseContext) -> None:
        """"The bathroom fittings" where no room is said (a file with no bathroom): the sanitary ones, where
        the file has any, not every flow terminal (lights, vents)."""
        if sel.get("class") == ["IfcFlowTerminal", "IfcSanitaryTerminal"] and not sel.get("relations") \
                and not sel.get("room") and re.search(r"\b(bathroom|bath|toilet|wc|washroom|shower room)\b", text) \
                and ctx.scene.peek({**sel, "class": ["IfcSanitaryTerminal"]}):
            sel["class"] = ["IfcSanitaryTerminal"]

    def _said_of_nothing(self, words: str) -> bool:
        """Does no name of the building (an element's, its type's or a room's) hold ``words``: a word that only
        describes a kind ("rainwater" of downpipes), not one that picks some of them?"""
        folded = ascii_fold(words)
        return not any(folded in text for text, _cls in self.lex.all_names) \
            and not any(folded in room.phrase for room in self.lex.rooms)

    @staticmethod
    def _narrows_to_nothing(sel: Selector, key: str, ctx: ParseContext) -> bool:
        """Does ``sel`` mean nothing here with ``key`` and something without it (a word said of things the
        file does not say it of)?"""
        return not ctx.scene.peek(sel) and bool(ctx.scene.peek({k: v for k, v in sel.items() if k != key}))

    @staticmethod
    def _room_right_under(sel: Selector, text: str, ctx: ParseContext) -> None:
        """"What's directly underneath this room" (nothing else said of what): the one room right under it,
        not every room on every floor below; of the room the user is in, the one under where the user stands.
        Rooms asked for in the plural are left as they are."""
        rels = sel.get("relations") or []
        if not set(sel) <= {"relations", "order", "limit", "class"} or sel.get("class") not in (None, ["IfcSpace"]) \
                or re.search(r"\b(rooms|spaces|all|every)\b", text) or len(rels) != 1 \
                or rels[0].get("rel") not in ("above", "below") \
                or (rels[0].get("of") or {}).get("class") != ["IfcSpace"]:
            return
        sel.update({"class": ["IfcSpace"], "order": "nearest", "limit": 1})
        of = rels[0]["of"]
        if of.get("ids") == [ctx.user_room()] or of.get("room") == "mine":
            sel["relations"] = [{"rel": rels[0]["rel"]}]

    def _rooms_for_missing_class(self, classes: list[str], said: str) -> list[str]:
        """The rooms a class noun names where the building has nothing of the class ("the staircase" of a
        storey with a stair hall and no stair): rooms the same word names in data/room_words.yaml."""
        keys = _room_words_of(singular_noun(said.split()[-1]) if said.split() else "")
        wanted = set(classes)
        if not keys or any(class_matches(self.building.schema, c, p, wanted) for c, p in self._kinds_present):
            return []
        names = set(keys) | {alias for alias, k in ROOM_WORD_ALIASES.items() if k in keys}
        return sorted({i for entry in self.lex.rooms if entry.phrase in names for i in entry.ids})

    @cached_property
    def _kinds_present(self) -> frozenset[tuple[str, Any]]:
        """The (class, predefined type) pairs of the building's things, once."""
        return frozenset((el.ifc_class, el.properties.get("PredefinedType")) for el in self.building.elements.values())

    def _ground_slabs(self) -> list[str]:
        """The slab on grade: the slabs typed BASESLAB, else those named so (data/name_words.yaml), else the
        lowest slabs (within a few centimetres of the lowest one)."""
        slabs = [el for el in self.building.elements.values() if el.ifc_class == "IfcSlab" and el.has_geometry]
        typed = [el.id for el in slabs if el.properties.get("PredefinedType") == "BASESLAB"]
        if typed:
            return typed
        from pyagent.actions.selectors import name_rows

        ids = [el.id for el in slabs]
        for fragment in NAME_WORDS["ground_slab"]:
            named = name_rows(self.building.elements, ids, np.arange(len(ids)), str(fragment))
            if len(named):
                return [ids[int(r)] for r in named]
        if not slabs:
            return []
        low = min(float(el.bbox_min[2]) for el in slabs)
        return [el.id for el in slabs if float(el.bbox_min[2]) <= low + 0.05]

    def _place_not_named(self, classes: list[str], name: str) -> bool:
        """Is ``name`` a word for a kind of place (data/room_words.yaml) that names none of the building's
        things of ``classes``, where other things of the building are named by it?"""
        word = singular_noun(name.lower())
        if word not in ROOM_SYNONYMS and word not in ROOM_WORD_ALIASES:
            return False
        from pyagent.actions.selectors import name_rows

        els = self.building.elements
        wanted = set(classes)
        ids = [g for g, el in els.items() if el.ifc_class in wanted]
        if not ids or len(name_rows(els, ids, np.arange(len(ids)), name)):
            return False
        # ... but that the building has somewhere (balcony doors): "the garage door" of a house with no
        # garage is refused
        others = [g for g, el in els.items() if el.ifc_class not in wanted]
        fragments = self.NAME_FRAGMENTS.get(word, ()) + (word,)
        return any(len(name_rows(els, others, np.arange(len(others)), f)) for f in fragments)

    NAME_FRAGMENTS: dict[str, tuple[str, ...]] = {str(k): tuple(str(f) for f in v)
                                                  for k, v in NAME_WORDS["modifiers"].items()}

    def _front_door(self) -> str | list[str] | None:
        """The building's main entrance: the one door named so (data/name_words.yaml), else the external doors
        that open into an entrance hall or corridor (one per house of a terrace), else None (any external
        door)."""
        frags = tuple(NAME_WORDS["front_door"])
        named = [n for n in self.lex.names if any(f in n for f in frags)
                 and any(self.building.elements[g].ifc_class == "IfcDoor" for g in self.lex.names[n])]
        if len(named) == 1:
            return named[0]
        if not named:  # doors all named "Door", one of a type that says so ("Eingangstür")
            typed = [e.id for e in self.building.elements.values() if e.ifc_class == "IfcDoor"
                     and any(f in ascii_fold(f"{e.type_name} {e.object_type}") for f in frags)]
            if typed:
                return typed
        entry_rooms = {i for r in self.lex.rooms if r.phrase in NAME_WORDS["front_door_rooms"] for i in r.ids}
        doors = [e.id for e in self.building.elements.values() if e.ifc_class == "IfcDoor"
                 and "outside" in e.sides and entry_rooms & set(e.sides)]
        return doors or None  # several (a terrace of houses): "the front door" is the nearest of them

    @cached_property
    def front_side(self) -> str | None:
        """The side of the building its main entrance is on ("north", ...), by the file's true north: where the
        front door(s) stand from the middle of the building; None without a front door."""
        door = self._front_door()
        ids = self.lex.names.get(door, []) if isinstance(door, str) else door or []
        els = [self.building.elements[g] for g in ids if g in self.building.elements]
        solid = [e for e in self.building.elements.values() if e.has_geometry and e.ifc_class != "IfcSpace"]
        if not els or not solid:
            return None
        middle = (np.min([e.bbox_min for e in solid], axis=0) + np.max([e.bbox_max for e in solid], axis=0)) / 2
        at = np.mean([(e.bbox_min + e.bbox_max) / 2 for e in els], axis=0) - middle
        best, side = 0.0, None
        for name in ("north", "south", "east", "west"):
            heading = math.radians(self.building.compass_heading(name) or 0.0)
            along = float(at[0] * math.cos(heading) + at[1] * math.sin(heading))
            if along > best:
                best, side = along, name
        return side

    def _finish_said(self, t: str) -> tuple[str, dict[str, Any]] | None:
        """"The rooms with a parquet floor", "which rooms have a tiled floor": the words without the finish,
        and the filter on the rooms' floor covering that says it (data/finish_words.yaml); None where no
        finish is said."""
        m = _FINISH_SAID.search(t)
        if m is None:
            return None
        word = FINISH_WORDS["said"].get(m.group("w"), m.group("w"))
        fragments = FINISH_WORDS["finishes"].get(word)
        if fragments is None:
            return None
        values = [str(v).lower() for v in self._floor_coverings]
        fragment = next((f for f in fragments if any(f in v for v in values)), word)
        rest = re.sub(r"\s+", " ", t[:m.start()] + t[m.end():]).strip()
        return rest, {"key": "floor covering", "cmp": "contains", "value": fragment}

    @cached_property
    def _floor_coverings(self) -> set[Any]:
        """The values of the rooms' floor covering property in this building."""
        out: set[Any] = set()
        for el in self.building.spaces():
            for key, value in el.properties.items():
                if re.sub(r"[^a-z]", "", str(key).lower().rsplit(".", 1)[-1]) in ("floorcovering", "floorfinish"):
                    out.add(value)
        return out

    def _front_said(self, t: str) -> str:
        """"The columns out the front", "the windows at the front of the house": on the side of the building
        its front door is on."""
        if not re.search(r"\bfront\b", t):
            return t
        if not _FRONT_SAID.search(t) or self.front_side is None:
            return t
        return _FRONT_SAID.sub(f"on the {self.front_side} side", t)

    def rooms_named_by(self, room_ids: list[str], words: Sequence[str]) -> list[str]:
        """Those of the rooms whose name has a fragment of a word said before the room word (data/name_words.yaml:
        "teacher" finds "docent"), or none."""
        frags = [f for w in words for f in self.NAME_FRAGMENTS.get(w, (w,) if len(w) >= 4 else ())]
        if not frags:
            return []
        out = []
        for gid in room_ids:
            el = self.building.elements.get(gid)
            text = ascii_fold(f"{el.name} {el.long_name}").lower() if el is not None else ""
            if any(ascii_fold(f).lower() in text for f in frags):
                out.append(gid)
        return out

    def _name_modifier(self, t: str, sel: Selector) -> str | None:
        """A word before the head noun that picks elements of that class by name ("terrace door")."""
        head = (self._kind_re.search(t) if sel.get("kind") else self._class_re.search(t))
        if head is None:
            return None
        classes = set(sel.get("class") or [])
        own = {w for c in classes for w in class_name_words(c).split()}  # "shading" of "shading fins"
        words = [w for w in re.findall(r"[a-zü\-]+", t[:head.start()])[-2:]
                 if w not in MODIFIER_STOP and w not in COLOURS and spoken_numbers.ordinal(w) is None
                 and w not in own]
        candidates = [" ".join(words)] if len(words) == 2 else []
        candidates += list(reversed(words))
        for phrase in candidates:
            frags = self.NAME_FRAGMENTS.get(phrase, (phrase,) if len(phrase) >= 4 else ())
            for frag in frags:
                if any(frag in text and (not classes or cls.startswith(tuple(classes)))
                       for text, cls in self.lex.all_names):
                    return frag
        # A word right before the noun that names nothing here ("the garage door"): keep it, so that the
        # request is refused with a clear message instead of picking some other door. A word that can only
        # describe ("the big chunky pillars": an adjective and no noun) picks nothing out.
        last = words[-1] if words else ""
        if last and len(last) >= 4 and last not in KNOWN_ADJECTIVES and not self._room(" " + last + " ") \
                and last not in MATERIAL_WORDS and last not in STOREY_WORDS and not only_describes(last):
            return last
        return None

    def _strip_storey(self, t: str) -> str:
        t = ascii_fold(t)
        for pattern in self._storey_strip_res:
            t = pattern.sub(" ", t)
        t = re.sub(r"\b(on|at|of|in) (the )?(floor|level) \d+\b|\b\d+(st|nd|rd|th)? (floor|level)\b", " ", t)
        for m in _storey_numbers(t)[:1]:
            t = t[:m.start()] + " " + t[m.end():]
        t = re.sub(r"\b(up there|upper|top)\b", " ", t)
        return t

    def _room(self, t: str) -> RoomHit | None:
        """The first of the building's rooms that ``t`` names, where, and whether said in the plural."""
        folded = fold(t)
        af = ascii_fold(t)
        for pattern, entry in self._room_res:
            for hay in (folded, af):
                m = pattern.search(hay)
                if m:
                    return RoomHit(entry.ids, (m.start(), m.end()), m.group(1) in ("s", "es"))
        return None

    def room_as_head(self, sel: Selector, relations: list[dict[str, Any]], ids: list[str], plural: bool, said: str,
                     noun_found: bool, ctx: ParseContext) -> bool:
        """A room named as what the phrase is about ("the kitchen", "all the bedrooms"): the selector becomes
        the room's; with another class noun ("the rooms ..." aside) the things in the room. Whether the
        phrase now has a noun."""
        sided = any(r.get("rel") in ("north", "south", "east", "west") for r in relations)
        beside = {"rel": "adjacent", "of": {"class": ["IfcSpace"], "room": "mine"}} in relations
        one_way = beside and not plural and any(r.get("rel") in DIRECTIONAL for r in relations)
        if beside:  # "the office next door": of the rooms so called, the ones beside the user's (not the user's own)
            plural, ids = True, [r for r in ids if r != ctx.user_room()] or ids
        rsel = self._room_selector(ids, ctx, plural=plural or sided or bool(
            re.search(r"\b(rooms|all|both|every|each)\b", said)))
        if one_way:  # "the office next door in front of me": the nearest that way
            rsel = {**rsel, "order": "nearest", "limit": 1}
        if noun_found and sel.get("class") not in (["IfcSpace"], None):
            relations.append({"rel": "in", "of": rsel})
            return True
        sel.pop("class", None)
        sel.update(rsel)
        return True

    def name_as_head(self, sel: Selector, said: str) -> bool:
        """The head noun is the last word: "the roof battens" are battens (on the roof), not the roof. Sets
        the selector's name to one of the building's names said last (dropping a class none of those
        elements has); whether it was said in the plural."""
        if "name" in sel or sel.get("ref") or "ids" in sel:
            return False
        head = self._head_name(said)
        if head is None:
            return False
        name, plural = head
        ids = self.lex.names[name]
        if not sel.get("class") or not any(self.building.elements[g].ifc_class in sel["class"] for g in ids):
            sel.pop("class", None)
            sel.pop("kind", None)
        sel["name"] = name
        return plural

    def _head_name(self, t: str) -> tuple[str, bool] | None:
        """An element name that is the phrase's last word, not a class or kind word ("roof battens" ->
        "batten", plural), or None."""
        words = re.findall(r"[^\W\d_][\w-]*", t)
        if len(words) < 2:
            return None
        last = words[-1]
        if self._class_re.search(f" {last} ") or self._kind_re.search(f" {last} "):
            return None
        for name in dict.fromkeys((last, singular_noun(last))):  # as said, then its singular
            if len(name) >= 4 and name in self.lex.names:
                return name, name != last
        return None

    def _rooms_up_or_down(self, room_hit: RoomHit, sel: Selector, text: str, ctx: ParseContext) -> RoomHit:
        """The rooms of that name on the storey named with them ("the toilet upstairs"); when none is on the
        storey "upstairs" picked, the ones on the nearest storey above (below for "downstairs") that has
        one, and the storey filter goes; not for a storey said exactly ("the floor above")."""
        els = self.building.elements
        st = next((s for s in self.building.storeys if sel["storey"] in (s.name, s.id)), None)
        if st is None:
            return room_hit
        on_it = [i for i in room_hit.ids if els[i].storey == st.id]
        if on_it:
            return RoomHit(on_it, room_hit.span, room_hit.plural)
        if re.search(r"\b(floor|storey|story|level) (above|below|up|down)\b|\b(one|next) (floor|storey|level)\b", text):
            return room_hit  # "the kitchen on the floor above": that storey only (none there: none)
        up = re.search(r"\b(upstairs|up there|upper|above|up)\b", text)
        down = re.search(r"\b(downstairs|down there|lower|below|down)\b", text)
        mine = self.building.storey(storey_for(self.building, ctx.scene.user_storey(), "mine") or "")
        if mine is None or bool(up) == bool(down):
            return room_hit
        levels = {i: self.building.storey(els[i].storey or "") for i in room_hit.ids}
        found = [(s.elevation, i) for i, s in levels.items()
                 if s is not None and ((s.elevation > mine.elevation) if up else (s.elevation < mine.elevation))]
        if not found:
            return room_hit
        best = min(found)[0] if up else max(found)[0]
        del sel["storey"]
        return RoomHit([i for e, i in found if e == best], room_hit.span, room_hit.plural)

    def _room_selector(self, ids: list[str], ctx: ParseContext, plural: bool = False) -> Selector:
        if len(ids) == 1:
            return {"class": ["IfcSpace"], "ids": list(ids)}
        here_storey = storey_for(self.building, ctx.scene.user_storey(), "mine")
        mine = [i for i in ids if self.building.elements[i].storey == here_storey]
        if plural:
            return {"class": ["IfcSpace"], "ids": sorted(ids)}
        here = ctx.user_room()
        if here in ids and not plural:
            return {"class": ["IfcSpace"], "ids": [here]}
        pool = mine or ids
        labels = {self.building.elements[i].label() for i in pool}
        if len(labels) == 1:
            return {"class": ["IfcSpace"], "ids": sorted(pool), "order": "nearest", "limit": 1}
        return {"class": ["IfcSpace"], "ids": sorted(pool), "limit": 1}

    def _exclusion(self, text: str, ctx: ParseContext) -> Selector | None:
        t = " " + text + " "
        if re.search(r"\b(outer|exterior|external|outside)\b", t) and not self._class_re.search(
                re.sub(r"\b(ones?|walls?)\b", "", t)):
            return {"external": True}
        if re.search(r"\b(inner|interior|internal|inside)\b", t) and not self._class_re.search(
                re.sub(r"\b(ones?|walls?)\b", "", t)):
            return {"external": False}
        m = re.match(r"^\s*(what is|what are|whatever is|whatever is|the ones?|those|things|anything|everything|"
                     r"the stuff|what (we|i) have)\s+(in|inside|on)\s+(?P<place>.+)$", text)
        if m:  # "except what's in the bedroom": the things in that room, not the room
            hit = self._room(" " + m.group("place") + " ")
            if hit is not None:
                return {"relations": [{"rel": "in", "of": self._room_selector(hit.ids, ctx, plural=hit.plural)}]}
        sel = self.selector(text, ctx)
        if sel is not None:
            sel.pop("limit", None) if not _is_singular(text, self._heads) else None
        return sel


@dataclass(frozen=True)
class ParseContext:
    """Everything one parse reads besides the text and the building's vocabulary, made anew for each
    parse (``Parser.parse``): the scene, read-only (``scene_view.SceneView``), the dialogue, and the
    utterance as said (notes keep the user's own words). Nothing in it is written during the parse."""

    scene: SceneView
    dialogue: Dialogue
    raw: str = ""
    #: the steps of the clauses said before this one in the same utterance ("how many WCs are there, and how big
    #: is the largest one": the WCs)
    said_before: tuple[Step, ...] = ()

    def last_steps(self) -> list[Step]:
        """What "one" and "the same" go back to: the clauses before in this utterance, else the last request."""
        return list(self.said_before) or list(self.dialogue.last_steps)

    @property
    def selected(self) -> list[str]:
        return self.scene.selected()

    def user_room(self) -> str | None:
        return self.scene.user_room()

    def hidden_any(self, sel: Selector) -> bool:
        """Would ``show`` change anything for this selector? (Else "show me X" means point it out.)"""
        return self.scene.any_hidden() and self.scene.is_hidden(self.scene.peek(sel))

    def current_colour(self, sel: Selector) -> list[float] | None:
        if sel.get("ref") == "it":
            ids = self.scene.it()
        elif sel.get("ref") == "selected":
            ids = self.selected
        else:
            ids = self.scene.peek(sel)
        return self.scene.colour_of(ids)


def storey_for(b: Building, mine_id: str | None, spec: str, roof_only: Collection[str] = ()) -> str | None:
    """The storey a spoken spec ("mine", "above", "top", ...) means for a user on storey ``mine_id``
    (None: the ground storey); ``roof_only``: storeys holding only the roof (not "the top floor")."""
    if not b.storeys:
        return None
    ground = b.storey(b.ground_storey) or b.storeys[0]
    mine = (b.storey(mine_id) if mine_id is not None else None) or ground
    idx = {s.index: s for s in b.storeys}
    if spec == "mine":
        return mine.id
    if spec == "ground":
        return ground.id
    if spec == "below_or_ground":
        return (idx.get(mine.index - 1) or ground).id if mine.index > ground.index else ground.id
    if spec == "upper":
        if mine.index > ground.index:
            # upstairs already: the floor with rooms above this one ("the bathroom upstairs" from the first
            # floor of a three-storey house), else this floor (the top of a two-storey house)
            with_rooms = {e.storey for e in b.spaces() if e.long_name.lower() != "roof"} - set(roof_only)
            above = next((st for st in b.storeys if st.index > mine.index and st.id in with_rooms), None)
            return (above or mine).id
        nxt = idx.get(ground.index + 1)
        return nxt.id if nxt else None
    if spec == "ground_up":  # "the floor above the ground floor" (the British first floor), wherever one stands
        nxt = idx.get(ground.index + 1)
        return nxt.id if nxt else None
    if spec == "upper2":
        nxt = idx.get(ground.index + 2)
        return nxt.id if nxt else None
    if spec == "above":
        nxt = idx.get(mine.index + 1)
        return nxt.id if nxt else None
    if spec == "below":
        prv = idx.get(mine.index - 1)
        return prv.id if prv else None
    if spec == "top":
        rooms_storeys = [s for s in b.storeys if any(e.storey == s.id for e in b.spaces()
                                                     if e.long_name.lower() not in ("roof",))]
        floors = [s for s in b.storeys if s.id not in roof_only] or b.storeys
        return (rooms_storeys[-1] if rooms_storeys else floors[-1]).id
    if spec == "lowest":
        return b.storeys[0].id
    return None


#: Going to the place just talked about.
_THERE = re.compile(r"(take|bring|get|send|beam|walk|lead) (me|us) (over |in |into |inside |in over |up |down )?there"
                    r"|(go|get|walk|head) (over |in |into |inside )?there"
                    r"|(can|could) (i|we) go there")
#: A noun phrase's own determiner ("the doors and all the windows": each has its own words).
_DETERMINER = re.compile(r"^(the|a|an|all|all the|all of the|my|this|that|these|those|both|every|each|any|some|our|"
                         r"your|its|their)\b ?")
#: What after a second noun said bare is shared with the first: a place or a relation.
_SHARED_AFTER = re.compile(r"^ (on|in|at|upstairs|downstairs|inside|outside|of|near|next to|above|below|under|"
                           r"along|by|facing|within|on the|in the|from|to my|on my|behind|in front)\b")
#: A question's first word.
_ASKED = r"(what|which|who|where|how|why|when|is|are|do|does|did|can|could)\b"
#: A noun phrase first, then, after a comma, a clause that takes it up with a pronoun.
_TOPIC = re.compile(r"^(?P<np>(?:(?:the|that|this|those|these|my|all the|both) )?[^,]+?(?: , [^,]+?)*) , "
                    r"(?P<rest>[^,]*\b(?:it|them|they|those|these|its|their|which one|which|that one|this one)\b"
                    r"[^,]*)$")
#: "where is the nearest toilet from here": for a room, the way there from where one stands.
_WHERE_FROM_HERE = re.compile(r"^where (is|are) .+ from (here|where (i am|we are)( standing| now)?)( please)?$")
#: Kinds of sanitary fitting a file may hold as unnamed flow terminals.
_FITTING_KINDS = frozenset({"bathtub", "shower", "toilet", "sink", "urinal", "bidet"})
#: Changes that one thing and the things around it may both get ("..., and its chairs too").
_CHANGES_OF_THINGS = frozenset({"hide", "show", "delete", "color", "transparency", "reset_color"})
#: How far things "around" a thing (its chairs, its fittings) may stand from it, metres.
AROUND_M = 0.5

#: A remark about a thing said before a question about it: the thing, then how it is ("this kitchen feels
#: nice and bright", "the hall is a bit dark").
_REMARK = re.compile(r"^(?P<np>(?:the|that|this|those|these|my|our) [a-z0-9 ]+?) (?:is|are|feels|feel|looks|look|"
                     r"seems|seem|gets|get|appears|appear|sounds|was|were)(?: [a-z ]+)?$")
#: What a structural engineer's "members" are where no IfcMember is what was named: beams and columns too.
_STRUCTURAL_MEMBERS = ("IfcBeam", "IfcColumn", "IfcMember")
#: Floor finishes said of rooms (data/finish_words.yaml).
FINISH_WORDS: dict[str, Any] = yaml.safe_load((Path(__file__).parent / "data" / "finish_words.yaml").read_text(
    encoding="utf-8"))
_FINISH_SAID = re.compile(r"\b(?:with|that have|that has|which have|which has|having|have got|has got|have|has|got) "
                          r"(?:a |an )?(?P<w>[a-z]+) (?:floors?|flooring|floor coverings?|floor finish(?:es)?)\b")
#: A question said after a thing named first ("..., and how big is it").
_QUESTION = re.compile(r"(and )?(how|what|which|where|is|are|does|do)\b")
#: "How many are there" with the things left out (said of a thing named first).
_HOW_MANY_BARE = re.compile(r"how many( are there| are| in total| of them)?")
#: "Out the front", "at the front of the house": the side the front door is on.
_FRONT_SAID = re.compile(r"\b(out|at|on|along|across|round|around) (the )?front( of (the|this) (building|house|block|"
                         r"school|office|property))?\b(?! (door|entrance|garden|porch|yard|wall|room|desk|of))")
#: A remark the speaker makes of their own wish or plan ("for the photos I want this flat empty").
_SPEAKER_REMARK = re.compile(r"(?:(?:so|right|okay|ok|well|now|and|but|yeah|hmm) )*(i|we)\b")
#: A remark, not a request: what the speaker, the team or someone else thinks, wants or does ("i want to check
#: the walls against the drawings", said without "i want to" once politeness is taken off).
_REMARKER = re.compile(r"^(?:(?:so|right|okay|ok|well|now|and|but|yeah|hmm) )*(?:i|we|they|he|she|somebody|someone|"
                       r"the client|the owner|the architect|the engineer|my client|our client|check|inspect|review|"
                       r"compare|verify|examine|audit)\b(?! (can|could|would|will|shall) (you|we)\b)")
_PRONOUN = re.compile(r"\b(?:that one|this one|it|them|they|those|these)\b(?: both| all)?")
_POSSESSIVE = re.compile(r"\b(?:its|their) (?P<p>[a-z]+(?: value| rating| height| area)?)\b")


#: A noun phrase with a property compared with a number ("windows with a U-value above 1", "how many walls
#: have a fire rating of 60").
_CMP_WORDS = {"above": "gt", "over": "gt", "greater than": "gt", "more than": "gt", "higher than": "gt",
              "at least": "gte", "below": "lt", "under": "lt", "less than": "lt", "lower than": "lt",
              "at most": "lte", "of": "eq", "equal to": "eq"}
_MEASURED = re.compile(r"^(?P<np>.+?) (with|having|that have|that has|which have|which has|have|has|whose) "
                       r"(an? |the )?(?P<prop>[a-z][\w\- ]*?) (is |are |of )?(?P<cmp>"
                       + "|".join(sorted(_CMP_WORDS, key=len, reverse=True)) + r") (?P<n>\d+(\.\d+)?|one)( [a-z]+)?$")
#: A noun phrase with a relative clause that says what its things are ("everything that is stainless").
_RELATIVE = re.compile(r"^(?P<np>.+?) (that|which|who) (is|are) (?P<pred>.+)$")


def _already_on(storey: str, way: str) -> ClauseError:
    """Going up or down to the storey one is on ("can we go up to the first floor" on the only one)."""
    return ClauseError(f"you are on {storey} already: there is no storey {'above' if way == 'up' else 'below'} "
                       "called so to go to")


def _with_test(target: Selector, test: Selector) -> Selector:
    """``target`` with the fields of a test added (filters appended to its own)."""
    out = dict(target)
    for key, value in test.items():
        out[key] = [*out.get(key, []), *value] if key == "where" else value
    return out


@lru_cache(maxsize=4096)
def only_describes(word: str) -> bool:
    """Is ``word`` only ever an adjective in English (lemminflect's lexicon: "chunky", "massive", "shiny";
    not "garage", "glass" or "square", which are nouns too)?"""
    from lemminflect import getAllLemmas

    readings = getAllLemmas(word)
    return bool(readings) and set(readings) <= {"ADJ", "ADV"}


#: Words after which a question or request word goes on the same phrase ("how far do i have to walk to get
#: to", "can you hide", "tell me what"), not a new one.
_NO_PAUSE_AFTER = frozenset({
    "to", "of", "the", "a", "an", "and", "or", "i", "you", "we", "they", "it", "me", "us", "can", "could", "would",
    "will", "should", "shall", "please", "lets", "let", "do", "does", "did", "not", "dont", "know", "wonder",
    "tell", "show", "ask", "asking", "see", "is", "are", "am", "was", "that", "than", "then", "also", "just",
    "about", "on", "in", "at", "from", "into", "onto", "with", "for", "by", "if", "whether", "where", "when",
    "what", "which", "how", "who", "so", "go", "want", "wanna", "need", "like", "try", "help", "must"})
_QUESTION_WORDS = frozenset({"how", "what", "whats", "which", "where", "wheres"})
_STATEMENT_STARTS = frozenset({"i", "im", "we", "were"})
#: Request verbs that start a new phrase (not "is", "how", "then": they go on one).
_PAUSE_VERBS = frozenset(VERBS_AFTER_AND) - {"is", "are", "how", "what", "which", "where", "then"} | _MORE_VERBS


def with_pauses(text: str) -> str:
    """``text`` as a speech recogniser writes it, with commas where a speaker pauses between a thing named
    and the question about it, a statement and a request, or two requests ("the window on my left how wide
    is it", "okay im in the kitchen now colour the cabinets", "isolate the stairs i wanna see them"): before
    a question word, a request verb or "I" that starts a new phrase. The first word never gets one."""
    words = text.split()
    out: list[str] = []
    for i, word in enumerate(words):
        w = fold(word)
        prev = fold(words[i - 1]) if i else ""
        starts = w in _QUESTION_WORDS or w in _STATEMENT_STARTS or w in _PAUSE_VERBS
        # "... feels a bit dark to me how many ...": "to me" ends a phrase ("tell me how" does not)
        ends_phrase = prev in ("me", "us") and i > 1 and fold(words[i - 2]) in ("to", "for")
        if i > 1 and starts and (prev not in _NO_PAUSE_AFTER or ends_phrase) and not prev.endswith("ly"):
            out.append(",")
        out.append(word)
    return " ".join(out).replace(" ,", ",")


#: Questions about a whole place said without naming it, which a remark before them can name ("we're buying
#: this half, what's the total floor area"): the place goes at the end.
_PLACELESS = re.compile(r"^(what is|how big is|how large is) the (total |overall |combined |whole |gross |net )?"
                        r"(floor area|area|floor space|size|living area|living space|usable area)$")


def _asked_of_place(clause: str, place: str) -> str:
    """``clause`` about ``place`` where it asks the size of a whole place and names none; else as it is (a
    count after "I'm pricing the kitchen" may be of the whole house)."""
    return f"{clause} of {place}" if _PLACELESS.match(clause) is not None else clause


def _is_filler_clause(c: str) -> bool:
    words = c.split()
    return len(words) <= 3 and not any(w in VERBS_AFTER_AND or w in CLASS_WORDS for w in words)


_ARTICLES_AND_QUANTIFIERS = frozenset({"the", "a", "an", "all", "both", "every", "each", "some", "any", "of", "those",
                                       "these", "this", "that", "my", "our", "its", "their"})


def isolated(sel: Selector) -> Selector:
    """What isolating ``sel`` shows: one room said by its name is the room with what is in it ("show me only
    the bathroom"), not the room's volume alone."""
    if sel.get("class") == ["IfcSpace"] and len(sel.get("ids", [])) == 1 \
            and set(sel) <= {"class", "ids", "storey", "limit", "order"}:
        return {"room": sel["ids"][0]}
    return sel


@lru_cache(maxsize=1)
def _colour_pattern() -> str:
    mods = "|".join(sorted(COLOUR_MODIFIERS, key=len, reverse=True))
    return rf"(?:(?:{mods}) )?(?:{'|'.join(sorted(COLOURS, key=len, reverse=True))})"


_CORRECTED_TARGET = re.compile(r"(?P<req>.+?) , i mean(t)? (only |just )?"
                               r"(?P<np>(the|all the|all of the|both of the|both the|both|those|these|that|this|my) "
                               r"[^,]+?)"
                               r"(?: , (?P<rest>[^,]+))?")
_REQUEST_ON_THEM = re.compile(r"(?P<v>make|paint|colou?r|turn|hide|show|select|highlight|delete|remove|isolate) "
                              r"(them|it|those|these)( both| all| all of them| too)?(?P<tail>.*)")
_NUMBERED_PLACE = r"(?:room|office|flat|unit|apartment|bedroom|suite|lab|house) [a-z]?\d+[a-z]?"
_CORRECTED_NUMBER = re.compile(rf"(?P<head>.*?\b){_NUMBERED_PLACE}(?P<tail>[^,]*) , i mean(t)? (the )?"
                               rf"(?P<new>{_NUMBERED_PLACE})")
_CORRECTED_INDEFINITE = re.compile(r"(?P<req>.+?) , i mean(t)? (?P<np>(a|an) [a-z]+( [a-z]+)?)")
_CORRECTED_INDEFINITE_MID = re.compile(r"(?P<req>.+?) , i mean(t)? (?P<np>(a|an) [a-z]+) (?P<rest>(in|on|into|next to|"
                                       r"by|near|beside|at|under|over|against|between)\b.*)")
_INDEFINITE_OBJECT = re.compile(r"\b(a|an) [a-z]+( [a-z]+)?(?= (in|on|into|next|by|near|beside|at|under|over|to|"
                                r"against|between)\b|$)")
#: Where a thing is, said from where the user stands ("on my left", "behind me").
_SAID_WHERE = (r"(?:on|to) (?:my|the) (?:left|right)(?: hand side)?|behind me|in front of me|ahead of me|"
               r"straight ahead|(?:above|below|under|over) me|"
               r"(?:near|next to|closest to|nearest to|nearest|closest) me")
_LAST_DETERMINER = re.compile(r"\b(all the|the|those|these|that|this|my)\b(?!.*\b(the|those|these|that|this|my)\b)")


_PLACING = re.compile(r"(put|place|add|pop|stick|drop|set|stand|bring|chuck|plonk) (a|an|some|one|two|\d+) ")


def _of_the_room_before(clause: str, steps: list[Step]) -> tuple[str, Selector | None]:
    """A clause about the one room the step before asked about, said with "in there" ("how many windows are in
    the bedroom, and what's the floor area in there") or as a bare count ("this bedroom, how big is it? and how
    many windows?"): the clause with "it" for the room, and the room ("it" is put back as the room in its
    steps); else the clause as said and None."""
    bare_count = re.fullmatch(r"(and )?how many (?!(in|on|at|up|down|upstairs|downstairs|of)\b)"
                              r"(?P<x>[a-z]+( [a-z]+)?)( are there| has it( got)?| does it have)?", clause)
    there = re.search(r"\bin there\b", clause)
    room = _room_asked_of(steps[-1]) if steps and (there or bare_count) else None
    if room is None:
        return clause, None
    if bare_count is not None:
        return f"how many {bare_count.group('x')} are there in it", room
    return re.sub(r"\bin there\b", "in it" if _PLACING.match(clause) else "of it", clause, count=1), room


def _room_asked_of(step: Step) -> Selector | None:
    """The one room a step asked about things in ("how many windows are in the bedroom"), or None."""
    target = step.get("target")
    if not isinstance(target, dict):
        return None
    if target.get("class") == ["IfcSpace"] and len(target.get("ids") or ()) == 1:
        return copy.deepcopy(target)
    rooms = [r["of"] for r in target.get("relations", []) if r.get("rel") == "in" and isinstance(r.get("of"), dict)
             and r["of"].get("class") == ["IfcSpace"] and len(r["of"].get("ids") or ()) == 1]
    return copy.deepcopy(rooms[0]) if len(rooms) == 1 else None


def _it_replaced(step: Step, room: Selector) -> Step:
    """The step with "it" standing for ``room``."""
    return {k: (copy.deepcopy(room) if isinstance(v, dict) and v == {"ref": "it"} else v) for k, v in step.items()}


def _ones_named(clause: str, steps: list[Step]) -> str:
    """"Just show me the columns, and paint the steel ones red": "ones" is the class an earlier request of the
    same utterance named."""
    if not steps or not re.search(r"\b(the|those|these|all the) ([a-z]+ )?ones\b", clause):
        return clause
    named = next((st["target"]["class"] for st in reversed(steps)
                  if isinstance(st.get("target"), dict) and st["target"].get("class")), None)
    if not named:
        return clause
    return re.sub(r"\bones\b", plural_noun(class_noun(named[0])), clause, count=1)


def _target_corrected(t: str, only_room: Callable[[str], bool] | None = None) -> str | None:
    """"Colour the bathroom door, sorry, I mean the office door, yellow", "the total weight of the HEA one
    twenty, sorry, the HEA hundred beams" (normalised to "..., i mean ..."): the request said again with the
    thing meant in place of the last thing named before the correction, and what followed it; None when the
    text has no such correction."""
    numbered = _CORRECTED_NUMBER.fullmatch(t)
    if numbered is not None:  # "colour the windows in room two blue, no wait, room four": that room instead
        return f"{numbered.group('head')}{numbered.group('new')}{numbered.group('tail')}"
    m = _CORRECTED_TARGET.fullmatch(t)
    if m is None:
        # "put a sofa in the living room, i mean an armchair": the thing to place said again
        one = _CORRECTED_INDEFINITE.fullmatch(t)
        placed = _INDEFINITE_OBJECT.search(one.group("req")) if one is not None else None
        if one is None or placed is None:
            # "put a chair, no, a lamp next to the bench": the thing corrected at once, where to put it after
            mid = _CORRECTED_INDEFINITE_MID.fullmatch(t)
            if mid is None or not re.search(r"\b(a|an) [a-z]+( [a-z]+)?$", mid.group("req")):
                return None
            req = re.sub(r"\b(a|an) [a-z]+( [a-z]+)?$", "", mid.group("req"))
            return f"{req}{mid.group('np')} {mid.group('rest')}"
        req = one.group("req")
        return f"{req[:placed.start()]}{one.group('np')}{req[placed.end():]}"
    last = _LAST_DETERMINER.search(m.group("req"))
    if last is None:
        return None
    rest = f" {m.group('rest')}" if m.group("rest") else ""
    np_said = m.group("np")
    if re.fullmatch(r"(but )?not (the|those|these) [a-z ]+", m.group("rest") or ""):
        rest = ""  # "..., sorry, just the base cabinets, not the wall ones": the ones meant say it
    which = re.fullmatch(r"(the|that) (?P<a>[a-z]+) ones?", m.group("rest") or "")
    if which is not None and re.match(r"(the|that|this) ", np_said):
        # "hide the front door, no wait, the garage door, the big one": the big garage door
        np_said = re.sub(r"^(the|that|this) ", rf"\1 {which.group('a')} ", np_said)
        rest = ""
    again = _REQUEST_ON_THEM.fullmatch(m.group("rest") or "")
    if again is not None:  # "paint the front door red, no wait, both of the outside doors, make them both red"
        return f"{again.group('v')} {np_said}{again.group('tail')}"
    moved = re.fullmatch(rf"(the|that) ones? ((straight|right|directly|just) )?(?P<rel>{_SAID_WHERE})", np_said)
    said_before = list(re.finditer(rf"\b(?:{_SAID_WHERE})\b", m.group("req"))) if moved is not None else []
    if moved is not None and said_before:
        # "the window on my left... no sorry, the one behind me": the same thing, where it was said to be instead
        was = said_before[-1]
        return f"{m.group('req')[:was.start()]}{moved.group('rel')}{m.group('req')[was.end():]}{rest}"
    head_said = re.match(r"(the|that|this) (?P<w>[a-z]+) (on|at|in|to) ", np_said)
    if head_said is not None:
        # "the doors of the office on the south side, i meant the office on the north side": the whole thing
        # said again, not the side alone
        same = list(re.finditer(rf"\b(the|that|this) {head_said.group('w')} (on|at|in|to) ", m.group("req")))
        if same and same[-1].end() == last.start():
            last = same[-1]
    placed = re.fullmatch(r"(the|that) ones? (?P<p>in|on|at|of|from|inside) (?P<where>(the|this|that|my) .+)", np_said)
    said_at = list(re.finditer(rf"\b{placed.group('p')} (the|this|that|my) ", m.group("req"))) if placed else []
    if placed is not None and said_at:
        # "hide the ceiling in the changing room, no sorry, the one in the boiler room": the same thing, in the
        # other place
        return f"{m.group('req')[:said_at[-1].start()]}{placed.group('p')} {placed.group('where')}{rest}"
    named = m.group("req")[last.start():].split()
    # "paint the bathroom door red, i meant the door to the office": the colour said before stays
    said_how = re.search(rf"\s{_colour_pattern()}$", m.group("req")[last.start():])
    if said_how is not None:  # "colour the columns orange, only the concrete ones": the columns, not "orange"
        named = m.group("req")[last.start():last.start() + said_how.start()].split()
    if said_how is not None and not rest and not re.search(rf"\b{_colour_pattern()}$", np_said):
        rest = said_how.group(0)
    if re.search(r"\bones?\b", np_said) and len(named) > 1:  # "hide the columns, no, only the ones upstairs"
        np_said = re.sub(r"\bones?\b", named[-1], np_said, count=1)
    if only_room is not None and only_room(np_said):
        # "colour the kitchen doors red, i mean the bedroom": the room in place of the room, the doors kept
        things = named[1:]
        for k in range(len(things) - 1, 0, -1):
            if only_room(" ".join(things[:k])) and not only_room(" ".join(things[k:])):
                np_said = f"{np_said} {' '.join(things[k:])}"
                break
    return f"{m.group('req')[:last.start()]}{np_said}{rest}"


def _value_corrected(t: str) -> str:
    """A value said again in place of the one before it ("paint the walls red, sorry, I mean black", "move
    it 2 metres left, sorry, I mean 3 metres"): the request with the later value where the earlier stands.
    The later one must be a value alone, of the same kind as one the request has (a colour, a length)."""
    for _ in range(3):  # "blue, no, green, a light green": each value said again in turn
        again = _value_corrected_once(t)
        if again == t:
            return t
        t = again
    return t


def _value_corrected_once(t: str) -> str:
    m = re.fullmatch(r"(?P<req>.+) , (?:i mean(?:t)? |make (?:it|that|them) |rather |actually )?(?P<val>[^,]+)", t)
    if m is None:
        return t
    req, val = m.group("req"), re.sub(r"^(just|only|a|an) ", "", m.group("val").strip())
    req = re.sub(r"( , (no|sorry|no sorry|sorry no|wait|no wait|oops|hmm))+$", "", req)
    val = "1" if val == "one" else val  # every other number is digits already (``spoken_numbers.digits``)
    colour = _colour_pattern()
    length = rf"\d+(?:\.\d+)? ?(?:{_unit_words()})"
    side = r"(?:to the |to my |on the |on my |my |the )?(?:left|right)|(?:anti|counter)?clockwise"
    storey = r"(?:floor|level|storey|story) \d+"  # "take me to level 3, sorry, I mean level 2"
    number = r"\d+(?:\.\d+)?"  # "go up 2 floors, no wait, just one": the count
    # "hide the windows on the east side, sorry, no, I mean the west side": the side of the building
    compass = r"(?:on |to |at )?(?:the )?(?:north|south|east|west)(?:ern)?(?: side| end| facade| front)?"
    for kind in (colour, length, side, storey, number, compass):
        if re.fullmatch(kind, val):
            said_as = kind
            if kind == side:  # "hide the door on my right, no, my left": the side word alone in its place
                said_as = r"left|right|(?:anti|counter)?clockwise"
                val = re.sub(r"^(to|on)? ?(the|my) ", "", val)
            said = list(re.finditer(rf"\b(?:{said_as})\b", req))
            if said:
                last = said[-1]
                return req[:last.start()] + val + req[last.end():]
    return t



# "... run the full height of the building" (of columns, shafts, stairs).
_FULL_HEIGHT = re.compile(r" (?P<that>(?:that|which) (?:are |is )?)?(?:run|runs|go|goes|rise|rises|extend|extends"
                          r"|reach|reaches|span|spans|continue|continues|going|running|rising|extending|spanning)"
                          r" (?:up |through )?(?:the )?(?:full|whole|entire) height(?: of the (?:building|house|block"
                          r"|frame|structure|model))?(?=$| ,)")
# Relations that point at one thing from where the user stands.
_POINTED = frozenset({"in_front", "behind", "left", "right"})
# "What's the floor finish in the living room": the finish asked of a place.
_FINISH_ASKED = re.compile(r"what (?:is|are) the (?P<p>floor finish(?:es)?|flooring|floor coverings?"
                           r"|ceiling finish(?:es)?|wall finish(?:es)?|wall coverings?|wall linings?)"
                           r" (?P<rest>(?:in|of|on) .+)")
_COVERINGS = frozenset({"IfcCovering", "IfcFlooring", "IfcCeiling", "IfcCladding"})
# Parts of a building said before a kind of member ("the roof purlins", "the floor joists"): where such members
# are, not a name, where none is named so.
_WHERE_PARTS_GO = frozenset({"roof", "floor", "wall", "ceiling", "facade", "ground", "attic", "basement", "top",
                             "upper", "lower", "main", "structural", "steel", "timber", "wooden", "concrete", "porch",
                             "entrance", "entry", "front", "balcony", "terrace", "garden", "garage"})
# Words after "how many of those are" that ask something other than a name ("there", "left", "open").
_NOT_NAME_WORDS = frozenset({"there", "here", "left", "right", "open", "closed", "hidden", "visible", "shown",
                             "selected", "mine", "ours", "new", "old", "big", "small", "large", "tall", "wide",
                             "inside", "outside"})
_ROOMS_COUNTED_AGAIN = re.compile(r"((right|ok|okay|so) , )?(and|so|what about|and what about|then) "
                                  r"(?P<np>(the|those|these|my|our|both) [^,]+?) , how many( are there| have they got"
                                  r"| do they have| is that)?( between them| in both| in them| in total| altogether"
                                  r"| together| all together)?")
_FOR_A_PLACE = re.compile(r"(?P<lead>(?:all |both |all of |each of )?(?:the |those |these )?)(?P<pre>(?:[a-z]+ )*?)"
                         r"(?P<noun>[a-z]+) (?:out )?(?:to|onto|on to|into|towards|of|for|on) the (?P<x>[a-z]+)")
#: "Towards the sofa" within this many degrees of one of the building's axes moves along that axis (the two
#: stand in a row; their centres are rarely exactly in line).
ALONG_AN_AXIS_DEG = 10.0
# How far apart in plan the flights of one staircase, floor over floor, may stand.
STACKED_SLACK_M = 0.3
# How far a thing moves "closer to" another when no distance is said (as the move op's own default).
DEFAULT_NUDGE_M = 0.5


def _count_said_again(clause: str, steps: list[Step], before: str) -> str:
    """"Are there any windows behind me? How many?": how many of the things the clause before asked about;
    "how many windows in the bedroom, and how many in the living room": the same things counted there."""
    if not steps:
        return clause
    if re.fullmatch(r"(and )?how many( are there| of them| exactly| then)?", clause):
        return "how many of them are there"
    m = re.fullmatch(r"(?P<a>and )?how many (?P<rest>(in|on|at|upstairs|downstairs|up there|down there|down here|"
                     r"up here|here|on this floor|on the other floor)\b.*)", clause)
    said = re.match(r"(and )?how many (?P<n>[a-z ]+?) (are there |are |is there |do we have |have we got )?"
                    r"(in|on|at|upstairs|downstairs)\b", before)
    if m is None or said is None:
        return clause
    return f"{m.group('a') or ''}how many {said.group('n')} {m.group('rest')}"


@lru_cache(maxsize=1024)
def _room_words_of(word: str) -> tuple[str, ...]:
    """The everyday room words (data/room_words.yaml) whose fragments include ``word``."""
    return tuple(k for k, frags in ROOM_SYNONYMS.items() if word == k or word in frags)


#: "the ground slab", "the bottom slab", "the base plate" (said as a whole noun phrase).
_GROUND_SLAB = re.compile(r"(the |that |this )?(ground|bottom|base|foundation|lowest) (floor )?(slab|plate)")
#: Things whose size is their section ("what size is this beam": an HEA 200).
_MEMBER_CLASSES = frozenset({"IfcColumn", "IfcBeam", "IfcMember", "IfcPile"})


def _asked_again_dropped(steps: list[Step]) -> list[Step]:
    """Without a question asked again of the same thing ("is the door wide enough? how wide is it actually?"), or
    asked after a count on each floor that answers it ("where are they")."""
    out: list[Step] = []
    for st in steps:
        prev = out[-1] if out else None
        if prev is not None and st.get("op") == prev.get("op") == "get" and st.get("target") == {"ref": "it"} \
                and st.get("property") == prev.get("property"):
            continue
        if prev is not None and prev.get("op") == "group" and st.get("op") in ("list", "where_am_i") \
                and st.get("target") == {"ref": "it"}:
            continue  # "is there a kitchen on every floor? where are they": the count on each floor says where
        out.append(st)
    return out


_PLACE_KEYS = ("storey", "room")
_ASKED_OF_ALL = re.compile(r"\b(total|altogether|in all|overall|whole|entire|everywhere|building|house|in the model)\b")


def _place_shared(steps: list[Step], said: str) -> list[Step]:
    """"how many doors and how many windows are on the first floor", "count the doors and the windows
    upstairs": counts in a row said with one place at the end all count in that place (not the first ones
    in the whole building), unless the words ask for the whole building too or the first question was
    asked whole ("how many doors are there, and how many windows upstairs")."""
    head = re.split(r" and | , |[.?;] ", said)[0]
    if len(steps) < 2 or _ASKED_OF_ALL.search(said) or re.search(r"\b(there|have|has|got)\b", head):
        return steps
    last = steps[-1]
    target = last.get("target")
    if last.get("op") != "count" or not isinstance(target, dict) or not any(k in target for k in _PLACE_KEYS):
        return steps
    place = {k: target[k] for k in _PLACE_KEYS if k in target}
    out = list(steps)
    for i in range(len(steps) - 2, -1, -1):
        st = steps[i]
        before = st.get("target")
        if st.get("op") != "count" or not isinstance(before, dict) \
                or not set(before) <= {"class", "kind", "ids", "name"}:
            break
        out[i] = {**st, "target": {**place, **before}}
    return out


def _selections_joined(steps: list[Step]) -> list[Step]:
    """"select the columns and beams": one selection of both where two selections in a row differ only in
    their classes (a second select would replace the first)."""
    out: list[Step] = []
    for st in steps:
        prev = out[-1] if out else None
        if prev is not None and prev.get("op") == st.get("op") == "select":
            a, b = prev["target"], st["target"]
            if "class" in a and "class" in b and len(a["class"]) + len(b["class"]) <= 12 and \
                    {k: v for k, v in a.items() if k != "class"} == {k: v for k, v in b.items() if k != "class"}:
                out[-1] = {**prev, "target": {**a, "class": list(dict.fromkeys([*a["class"], *b["class"]]))}}
                continue
        out.append(st)
    return out


def _retargeted(steps: list[Step], sel: Selector) -> list[Step]:
    """Copies of ``steps`` made on ``sel`` instead, each keeping the place its own target looked in ("hide the
    windows on this floor" ... "I meant the doors": the doors on this floor)."""
    out = []
    for s in steps:
        s2 = copy.deepcopy(s)
        if isinstance(s.get("target"), dict):
            s2["target"] = {**copy.deepcopy(sel), **_place_of(s["target"], sel)}
        out.append(s2)
    return out


def _place_of(old: Selector, new: Selector) -> Selector:
    """Where ``old`` looked (its storey, room, ground, containing places), for ``new`` when it says no place
    of its own."""
    places = ("storey", "room", "ground")
    if any(k in new for k in places) or any(r.get("rel") in ("in", "on_floor", "unit")
                                             for r in new.get("relations", [])):
        return {}
    out: Selector = {k: copy.deepcopy(old[k]) for k in places if k in old}
    rels = [copy.deepcopy(r) for r in old.get("relations", []) if r.get("rel") in ("in", "on_floor", "unit")]
    if rels:
        out["relations"] = rels + copy.deepcopy(new.get("relations", []))
    return out


def split_clauses(t: str) -> list[str]:
    verbs = "|".join(sorted(set(VERBS_AFTER_AND), key=len, reverse=True))
    parts = re.split(rf"\s*(?:,\s*)?\b(?:and then|then|and also|and after that|after that|also)\b\s+|"
                     rf"\s*,\s*(?=(?:and\s+)?(?:{verbs})\b)|\s+and\s+(?=(?:{verbs})\b)", t)
    out = [p.strip(" ,") for p in parts if p and p.strip(" ,")]
    return out or [t]


def _is_singular(t: str, more_nouns: frozenset[str] = frozenset()) -> bool:
    """Does a noun phrase talk about one thing ("the door") rather than many ("doors", "all")?
    ``more_nouns``: the building's own class nouns' last words ("device" of "shading device")."""
    if re.search(r"\b(all|every|each|both|any of|some|them|they|these|those|everything|\d+ \w+s|furniture|"
                 r"furnishings?|stuff|roof|ceiling|facade|façade|formwork|shuttering|steelwork|glazing|cladding|"
                 r"brickwork|blockwork|masonry|insulation|pipework|ductwork|framing|bracing|decking|sheeting)\b", t):
        return False
    words = re.findall(r"[a-zü\-]+", t)
    nouns = [w for w in words if w in CLASS_WORDS or singular_noun(w) in CLASS_WORDS or w in KIND_WORDS
             or singular_noun(w) in KIND_WORDS or w in more_nouns or singular_noun(w) in more_nouns
             or w in ("thing", "things", "object", "objects", "element", "elements", "item", "items", "one", "ones")]
    if not nouns:
        return True
    head = nouns[0]
    if head in ("stairs", "steps"):
        return False
    return head in CLASS_WORDS or head in KIND_WORDS or head in more_nouns \
        or head in ("thing", "object", "element", "item", "one")


def one_or_many(sel: Selector, said: str, heads: frozenset[str], relations: Sequence[dict[str, Any]],
                order: str | None) -> None:
    """A phrase about one thing ("the door", "a window to my left") gets a limit of one (the nearest, where
    it is said relative to the user or with "a"); rooms said in the singular keep asking back when there are
    several. Nothing for a phrase about many, one already limited, an ordinal, a reference or given ids."""
    if not _is_singular(said, heads) or "limit" in sel or "ordinal" in sel or sel.get("ref") or sel.get("ids"):
        return
    if relations or order:
        sel["limit"] = 1
        if not order and any(r["rel"] in ("in_front", "behind", "left", "right", "near", "within", "visible",
                                          "next_to") for r in relations):
            sel.setdefault("order", "nearest")
    elif re.search(r"\b(a|an|one|any)\s", said):
        sel["order"] = "nearest"
        sel["limit"] = 1
    elif not sel.get("class") == ["IfcSpace"]:
        sel["limit"] = 1


def _has_noun(sel: Selector) -> bool:
    return any(k in sel for k in ("class", "kind", "name", "ids", "ref"))


def _singular(sel: Selector, text: str, force: bool = False) -> Selector:
    """For targets that must be one thing (distance, teleport, look at, get)."""
    s = dict(sel)
    if s.get("ref") or s.get("ids") and len(s["ids"]) == 1:
        return s
    if force and "limit" not in s and "ordinal" not in s:
        s["order"] = s.get("order", "nearest")
        s["limit"] = 1
    return s
