"""The parser's vocabulary: fixed word lists (colours, directions) plus the words of
the loaded building (room and storey names in the file's language and their everyday meanings,
element kinds found in names and types)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from rapidfuzz import fuzz, process

from pyagent.language import phrasing
from pyagent.language.building_words import ABBREVIATIONS, PROPERTY_WORDS, BuildingWords, closest, from_building
from pyagent.language.spoken_numbers import unglued
from pyagent.language.storey_ordinals import roof_storeys
from pyagent.language.units import length_units
from pyagent.language.wording import meaning_of
from pyagent.model import OUTSIDE, Building
from pyagent.vocabulary import CLASS_WORDS, KIND_WORDS, KINDS_FOUND_BY_SHAPE, class_name_words, names_kind

COLOURS: dict[str, tuple[float, float, float]] = {
    # named compound colours first (as CSS names them): "light blue" is not blue made lighter
    "light blue": (0.68, 0.85, 0.9), "light green": (0.56, 0.93, 0.56), "light grey": (0.83, 0.83, 0.83),
    "light gray": (0.83, 0.83, 0.83), "dark blue": (0.0, 0.0, 0.55), "dark green": (0.0, 0.39, 0.0),
    "dark red": (0.55, 0.0, 0.0), "sky blue": (0.53, 0.81, 0.92), "light pink": (1.0, 0.71, 0.76),
    "red": (0.85, 0.1, 0.1), "green": (0.15, 0.65, 0.2), "blue": (0.15, 0.35, 0.85), "yellow": (0.95, 0.85, 0.15),
    "orange": (0.95, 0.55, 0.1), "purple": (0.55, 0.2, 0.7), "violet": (0.55, 0.3, 0.8), "pink": (0.95, 0.5, 0.7),
    "white": (0.97, 0.97, 0.97), "black": (0.05, 0.05, 0.05), "grey": (0.5, 0.5, 0.5), "gray": (0.5, 0.5, 0.5),
    "brown": (0.45, 0.28, 0.15), "beige": (0.87, 0.8, 0.65), "cyan": (0.1, 0.8, 0.85), "magenta": (0.85, 0.1, 0.75),
    "teal": (0.1, 0.5, 0.5), "navy": (0.05, 0.1, 0.4), "gold": (0.85, 0.68, 0.2), "silver": (0.75, 0.75, 0.78),
    "turquoise": (0.25, 0.85, 0.8), "cream": (0.98, 0.95, 0.82), "olive": (0.5, 0.5, 0.1), "maroon": (0.5, 0.05, 0.1),
    "lime": (0.6, 0.9, 0.2), "terracotta": (0.8, 0.45, 0.3), "charcoal": (0.2, 0.2, 0.22), "sand": (0.85, 0.75, 0.55),
    "wood": (0.6, 0.42, 0.25), "oak": (0.7, 0.55, 0.35), "concrete": (0.65, 0.65, 0.63), "ivory": (1.0, 1.0, 0.94),
    # as window frames, cladding and paint are sold
    "anthracite grey": (0.22, 0.24, 0.25), "anthracite gray": (0.22, 0.24, 0.25), "anthracite": (0.22, 0.24, 0.25),
    "slate grey": (0.44, 0.5, 0.56), "slate gray": (0.44, 0.5, 0.56),
    "burgundy": (0.5, 0.0, 0.13), "mustard": (0.88, 0.68, 0.1), "lilac": (0.78, 0.64, 0.78),
    "coral": (1.0, 0.5, 0.31), "salmon": (0.98, 0.5, 0.45), "mint": (0.6, 0.98, 0.6), "sage green": (0.7, 0.75, 0.6),
}
COLOUR_MODIFIERS = {"light": 0.45, "pale": 0.55, "bright": 0.15, "dark": -0.45, "deep": -0.35}

# Everyday room words -> fragments of room names they match, in many languages (data/room_words.yaml).
_ROOM_DATA = yaml.safe_load((Path(__file__).parent / "data" / "room_words.yaml").read_text(encoding="utf-8"))
#: Everyday words that pick elements by fragments of their names (data/name_words.yaml).
NAME_WORDS: dict[str, Any] = yaml.safe_load((Path(__file__).parent / "data" / "name_words.yaml").read_text(
    encoding="utf-8"))
ROOM_SYNONYMS: dict[str, tuple[str, ...]] = {str(k): tuple(str(f) for f in v) for k, v in _ROOM_DATA["rooms"].items()}
ROOM_WORD_ALIASES: dict[str, str] = {str(k): str(v) for k, v in _ROOM_DATA["aliases"].items()}
ROOM_WORD_FALLBACKS: dict[str, str] = {str(k): str(v) for k, v in _ROOM_DATA["fallbacks"].items()}
NUMBERED_ROOM_NOUNS: tuple[str, ...] = tuple(str(w) for w in _ROOM_DATA["numbered"])
ROOM_NOUNS: frozenset[str] = frozenset(str(w) for w in _ROOM_DATA["room_nouns"])
STOREY_ENDINGS: tuple[str, ...] = tuple(str(w) for w in _ROOM_DATA["storey_endings"])  # ascii_fold'ed where used
#: Words for the four sides in room names ("Stue øst", "Bureau Ouest"): side -> words (lower case).
COMPASS_WORDS: dict[str, tuple[str, ...]] = {str(k): tuple(str(w) for w in v)
                                             for k, v in _ROOM_DATA.get("compass", {}).items()}
# Words that name a class or a generic thing: never taken as a room's name on their own.
GENERIC_WORDS = {"room", "rooms", "space", "spaces", "roof", "stair", "stairs", "floor", "level", "area", "zone",
                 "storey", "wall", "door", "window"}
STOREY_WORDS = {
    "ground floor": "ground", "ground level": "ground", "ground storey": "ground", "downstairs": "below_or_ground",
    "ground": "ground", "groundfloor": "ground", "erdgeschoss": "ground", "main floor": "ground",
    "entry level": "ground", "street level": "ground",
    "upstairs": "upper", "upstairs floor": "upper", "upper floor": "upper", "upper level": "upper",
    "upper storey": "upper",
    "top floor": "top", "top storey": "top", "attic floor": "upper",
    "floor above": "above", "storey above": "above", "level above": "above", "floor below": "below",
    "storey below": "below", "level below": "below", "next floor up": "above", "one floor up": "above",
    "floor up": "above", "next floor down": "below", "one floor down": "below", "floor down": "below",
    "this floor": "mine", "my floor": "mine",
    "same floor": "mine", "current floor": "mine", "up here": "mine", "down here": "mine",
    "this level": "mine", "this storey": "mine",
    "basement": "lowest", "basement floor": "lowest", "cellar floor": "lowest", "cellar storey": "lowest",
    "foundation level": "lowest", "lowest floor": "lowest", "bottom floor": "lowest",
    "roof level": "top", "floor above the ground floor": "ground_up", "storey above the ground floor": "ground_up",
    "level above the ground floor": "ground_up", "british first floor": "ground_up",
}


def fold(text: str) -> str:
    """Lower case, accents kept for matching (ü stays), apostrophes and punctuation normalised."""
    t = unicodedata.normalize("NFC", text).lower()
    t = t.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return t


def ascii_fold(text: str) -> str:
    t = fold(text).replace("ß", "ss")
    t = unicodedata.normalize("NFKD", t)
    return "".join(c for c in t if not unicodedata.combining(c))


_LETTERS = re.compile(r"[^\W\d_]+")
# An element name of the form "Family:Type:ElementId"; group 1 is the family's leading word (4+ letters).
_FAMILY_TYPE_ID = re.compile(r"^([^\W\d_]{4,})[^:]*:[^:]+:\d+$")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10, "xi": 11,
          "xii": 12, "xiii": 13, "xiv": 14, "xv": 15, "xvi": 16, "xvii": 17, "xviii": 18, "xix": 19, "xx": 20}
_ROOM_NUMBER = re.compile(r"\d+(?:[.\-]\d+)*[a-z]?")


def _has_fragment(fragment: str, text: str, tokens: set[str]) -> bool:
    """``fragment`` (folded) is a whole word of the name, or, for several words, marks or CJK, in it."""
    if _LETTERS.fullmatch(fragment) and not _CJK.search(fragment):
        # A whole word, or the first part of a compound ("keller" in "kellerraum"; the last part says only
        # what kind of room it is: "zimmer" in "wohnzimmer" is no bedroom).
        return fragment in tokens or (len(fragment) >= 4 and any(
            t.startswith(fragment) and len(t) >= len(fragment) + 3 for t in tokens))
    return fragment in text


#: Last parts of compounds that only say "room" or "space": they tell nothing of what the room is for.
_GENERIC_ENDS = frozenset({"zimmer", "raum", "ruimte", "kamer", "room", "rum", "stube", "space"})


def _ends_compound(fragment: str, tokens: set[str]) -> bool:
    """``fragment`` (5 letters or more, one word, not a word for "room") ends a longer word of the name."""
    return len(fragment) >= 5 and fragment.isalpha() and fragment not in _GENERIC_ENDS and any(
        t.endswith(fragment) and len(t) >= len(fragment) + 3 for t in tokens)


def room_numbers(name: str, long_name: str) -> set[str]:
    """Numbers a room goes by: a numeric name ("7", "1.02", "101"), a number or Roman numeral after a word
    ("Room IV" -> "4", "kitchen-space/13" -> "13", "Keller 2" -> "2")."""
    out: set[str] = set()
    for text in (name, long_name):
        folded = ascii_fold(text).strip()
        if _ROOM_NUMBER.fullmatch(folded):
            out.add(folded)
            continue
        m = re.search(r"[^\W\d_][\w]*[\s\-_/]+(\d+(?:[.\-]\d+)*[a-z]?|[ivx]+)$", folded) \
            or re.match(r"(\d+(?:[.\-]\d+)*)[\s\-_.:]+[^\W\d_]", folded)
        if m:
            num = m.group(1)
            out.add(str(_ROMAN[num]) if num in _ROMAN else num)
    out |= {n.lstrip("0") for n in out if n.isdigit() and n.startswith("0") and n.strip("0")}  # "07" is "7"
    return out


@lru_cache(maxsize=4096)
def _foreign(phrase: str) -> bool:
    """Has ``phrase`` a word that is no English word (lemminflect's lexicon: "salle", "espera")?"""
    from lemminflect import getAllLemmas

    return any(not getAllLemmas(w) for w in re.findall(r"[a-z]{3,}", ascii_fold(phrase)))


def room_phrases(name: str, long_name: str) -> set[str]:
    """How a user may name a room with this Name and LongName: the names themselves (folded, with and
    without accents), everyday words in English whose fragments (data/room_words.yaml) are in them,
    the distinctive word of a name with a room noun around it ("Bar Space" -> "bar"), and the room's
    number after a numbering noun or its own words ("room 7", "office 4", "room 4" for "Room IV")."""
    own = {fold(long_name), fold(name), ascii_fold(long_name), ascii_fold(name)}
    phrases = {w for w in own if w and len(w) > 1 and w not in GENERIC_WORDS and w not in CLASS_WORDS}
    name_text = ascii_fold(f"{name} {long_name}")
    raw_text = fold(f"{name} {long_name}")
    tokens = set(_LETTERS.findall(name_text)) | set(_LETTERS.findall(raw_text))
    # drawing abbreviations spelt out ("CORR" is a corridor, "KIT" a kitchen: data/abbreviations.yaml)
    spelt = [ABBREVIATIONS[t] for t in sorted(tokens) if t in ABBREVIATIONS]
    tokens |= {w for phrase in spelt for w in phrase.split()}
    name_text = " ".join([name_text, *spelt])
    everyday: set[str] = set()
    # the name's words apart, for fragments of several words ("WC _H_12": "wc h", the gents)
    spaced = f" {' '.join(_LETTERS.findall(name_text))} "
    for word, fragments in ROOM_SYNONYMS.items():
        if any(_has_fragment(ascii_fold(f), name_text, tokens) or _has_fragment(fold(f), raw_text, tokens)
               or " " in f and f" {ascii_fold(f)} " in spaced for f in fragments):
            everyday.add(word)
    if not everyday:  # else the last part of a compound, unless it only says "room" ("toestellenberging": storage)
        for word, fragments in ROOM_SYNONYMS.items():
            if any(_ends_compound(ascii_fold(f), tokens) for f in fragments):
                everyday.add(word)
    # a room labelled with one short word cut from an everyday room word ("kitc"): that room word
    labels = [t for t in (ascii_fold(long_name).strip(), ascii_fold(name).strip()) if t.isalpha() and 3 <= len(t) <= 5]
    if not everyday and labels:
        cut = {word for word in ROOM_SYNONYMS if " " not in word and word.startswith(labels[0]) and word != labels[0]}
        if len(cut) == 1:
            everyday |= cut
    phrases |= everyday
    # the same room word said in another language's words of more than one ("salle d'attente", "sala de espera"
    # for a waiting room; single words may be kinds of fitting too, "shower", and English ones may be narrower
    # rooms, "master bedroom")
    phrases |= {fold(f) for word in everyday for f in ROOM_SYNONYMS[word] if " " in f.strip() and _foreign(f)}
    for text in (name, long_name):
        words = _LETTERS.findall(ascii_fold(text))
        # a room noun written onto the word before it ("Technicalroom", "Meetingroom"): also said apart
        phrases.update(f"{w[:-len(noun)]} {noun}" for w in words for noun in ROOM_NOUNS
                       if w.endswith(noun) and len(w) - len(noun) >= 3)
        core = [w for w in words if w not in ROOM_NOUNS]
        if len(words) > len(core) >= 1 and len(" ".join(core)) > 2:
            phrases.add(" ".join(core))
    # a number glued to a short label ("AP2", "B12"): the room's own number for its everyday words ("flat 2")
    glued = {m.group(2).lstrip("0") or "0" for text in (name, long_name)
             if (m := re.fullmatch(r"([a-z]{1,3})(\d+)", ascii_fold(text).strip()))}
    everyday_said = everyday | {alias for alias, target in ROOM_WORD_ALIASES.items() if target in everyday}
    phrases.update(f"{noun} {number}" for noun in everyday_said for number in glued if noun not in GENERIC_WORDS)
    # ... and the label said with its letters apart ("A102" said "a one oh two", "ap 2"), alone or after a
    # room noun; a single letter only before three digits or more (else "a 1" would be an article and a number)
    for text in (name, long_name):
        m = re.fullmatch(r"([a-z]{1,3})[-_ ]?(\d+)", ascii_fold(text).strip())
        if m is not None and (len(m.group(1)) > 1 or len(m.group(2)) >= 3):
            apart = f"{m.group(1)} {m.group(2)}"
            phrases.add(apart)
            phrases.update(f"{noun} {apart}" for noun in everyday_said | set(NUMBERED_ROOM_NOUNS)
                           if noun not in GENERIC_WORDS or noun in NUMBERED_ROOM_NOUNS)
    for number in room_numbers(name, long_name):
        nouns = set(NUMBERED_ROOM_NOUNS) | (set() if glued else everyday_said)  # "flat 2" is AP2, not space 2
        for text in (name, long_name):
            words = [w for w in _LETTERS.findall(ascii_fold(text)) if w not in _ROMAN and len(w) > 1]
            if words:
                nouns.add(" ".join(words))
                nouns.add(words[-1])
        phrases.update(f"{noun} {number}" for noun in nouns if noun not in GENERIC_WORDS or noun in NUMBERED_ROOM_NOUNS)
    # a word that is also a class noun ("stair") stays here so that its aliases ("stairwell") name the room;
    # ``Lexicon.build`` leaves the word itself to the class
    return phrases


# A mark in a name: letters and digits together ("C4", "SD2", "W0", "HEA100", "PL10*120"), not an ordinal,
# a unit or a storey code spoken as a number ("2nd", "3m", "1F").
_MARK = re.compile(r"(?=[\w.*/-]*[^\W\d_])(?=[\w.*/-]*\d)[\w][\w.*/-]{0,15}")
_NOT_MARK = re.compile(r"\d+(st|nd|rd|th|m|mm|cm|f|s)?|[\d.]+")
_TOKEN = re.compile(r"[\w.*/-]+")
_VALUE_PART = re.compile(r"[^\W_]+")


def looks_like_mark(token: str) -> bool:
    """Letters and digits together, as a type mark or size is written ("M16", "HEA300", "C4"), not a number,
    an ordinal or a length ("2nd", "30mm")."""
    return _MARK.fullmatch(token) is not None and _NOT_MARK.fullmatch(token.lower()) is None


def _value_marks(b: Building, name_marks: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Marks in the text values of elements' properties that no name or type has, each with the property
    that holds it on most elements ("M12" in "Bolt Name": "M12*40"), parts of values included."""
    held: dict[str, dict[str, set[str]]] = {}
    written: dict[str, str] = {}
    for e in b.products():
        for key, value in e.properties.items():
            if "." in key or not isinstance(value, str) or len(value) > 64:
                continue
            for token in set(_TOKEN.findall(value)) | set(_VALUE_PART.findall(value)):
                token = token.strip(".-/")
                folded = fold(token)
                if folded in name_marks or not _MARK.fullmatch(token) or _NOT_MARK.fullmatch(token.lower()):
                    continue
                held.setdefault(folded, {}).setdefault(key, set()).add(e.id)
                written.setdefault(folded, token)
    return {folded: (max(sorted(by_key), key=lambda k: len(by_key[k])), written[folded])
            for folded, by_key in held.items()}
BUILTIN_PROPERTIES = frozenset({
    "height", "width", "depth", "length", "thickness", "area", "volume", "perimeter", "surface area", "elevation",
    "name", "class", "type", "material", "color", "colour", "external", "storey", "floor", "level", "room",
    "profile", "section", "cross section", "room number", "number",
    "space", "weight", "mass", "heavy", "tall", "high", "wide", "deep", "thick", "long", "size", "floor area",
    "surface_area"})


def squeeze(text: str) -> str:
    """Lower case without spaces, punctuation or underscores: "Fire_Rating" and "fire rating" -> "firerating"."""
    return re.sub(r"[\W_]+", "", fold(text))


@dataclass
class RoomEntry:
    ids: list[str]
    phrase: str  # how the user may say it (folded)


@dataclass
class Lexicon:
    building: Building
    rooms: list[RoomEntry] = field(default_factory=list)  # longest phrases first
    storeys: dict[str, str] = field(default_factory=dict)  # phrase -> storey id
    kinds: dict[str, str] = field(default_factory=dict)  # word -> kind
    kinds_present: set[str] = field(default_factory=set)  # the kinds some element's name or type says
    names: dict[str, list[str]] = field(default_factory=dict)  # element name phrase -> ids
    all_names: list[tuple[str, str]] = field(default_factory=list)  # (folded name and type text, IFC class)
    # Everyday class nouns plus the building's own classes by their names ("shading device",
    # "curtain wall", "mechanical fastener"): noun (singular) -> classes.
    class_words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Marks in element names and types ("c4", "sd2", "hea100"): folded -> as the building writes it; and
    # the same squeezed ("sd 2" -> "sd2").
    marks: dict[str, str] = field(default_factory=dict)
    squeezed_marks: dict[str, str] = field(default_factory=dict)
    # Marks found only in text property values ("M12" of a bolt's "Bolt Name" M12*40): folded -> (the
    # property's name, the mark as the building writes it), the property holding it on most elements.
    value_marks: dict[str, tuple[str, str]] = field(default_factory=dict)
    properties: dict[str, str] = field(default_factory=dict)  # squeezed property name -> the name
    classes_present: set[str] = field(default_factory=set)  # IFC classes of its elements, wholes and types
    roof_storeys: set[str] = field(default_factory=set)  # storeys that hold only the roof
    # Yes-or-no properties the building's elements carry, by the words for them ("load bearing",
    # "loadbearing", "structural" -> "LoadBearing"); longest first.
    flags: dict[str, str] = field(default_factory=dict)
    _flag_re: re.Pattern[str] | None = None
    _words: BuildingWords | None = None

    @classmethod
    def build(cls, b: Building) -> Lexicon:
        lex = cls(b)
        # Rooms: their own names and numbers, and everyday words that match them.
        phrases: dict[str, list[str]] = {}
        for sp in b.spaces():
            for phrase in room_phrases(sp.name, sp.long_name):
                phrases.setdefault(phrase, []).append(sp.id)
        texts = [fold(f"{e.name} {e.object_type} {e.type_name}") for e in b.products()]
        for word, other in ROOM_WORD_FALLBACKS.items():
            things = KIND_WORDS.get(word, ())
            if any(names_kind(things, t) for t in texts):
                continue  # "the toilet" where there are toilets (fittings) but no toilet rooms: the fitting
            if word not in phrases and other in phrases:
                phrases[word] = phrases[other]
        if "foyer" not in phrases and "reception" not in phrases:
            # no room is named an entrance: the rooms a door to the outside opens from ("the entrance room")
            entered = sorted({r for e in b.products() if e.ifc_class == "IfcDoor" and OUTSIDE in e.sides
                              for r in e.sides if r != OUTSIDE and r in b.elements})
            for said in ("entrance room", "entry room", "entrance area") if entered else ():
                phrases.setdefault(said, entered)  # (not "foyer": the front door is looked for by that)
        for alias, target in ROOM_WORD_ALIASES.items():
            if target in phrases and alias not in phrases:
                phrases[alias] = phrases[target]
        lex.rooms = [RoomEntry(sorted(set(ids)), p) for p, ids in phrases.items() if p not in GENERIC_WORDS]
        lex.rooms.sort(key=lambda r: -len(r.phrase))
        element_names = {fold(e.name) for e in b.products()} | {ascii_fold(e.name) for e in b.products()}
        nouns = "|".join(sorted(phrasing.storey_nouns(), key=len, reverse=True))
        cores: dict[str, list[str]] = {}
        for st in b.storeys:
            for phrase in (st.name, st.long_name):
                if phrase and not phrase.startswith("ACID"):
                    # ... and with its word and its number apart ("Pavimento1" said "pavimento 1")
                    apart = re.sub(r"(?<=[^\W\d_]{3})(?=\d)", " ", fold(phrase))
                    for variant in (fold(phrase), ascii_fold(phrase), re.sub(rf"\b({nouns})\b", "floor", fold(phrase)),
                                    unglued(fold(phrase)), apart):
                        if variant in element_names and variant != fold(phrase):
                            continue  # "Storey-2" read as "floor-2" must not take the slab named "Floor-2"
                        if variant not in GENERIC_WORDS:
                            lex.storeys[variant] = st.id
                        else:  # "Roof": only as "roof level" / "roof floor"
                            lex.storeys[f"{variant} floor"] = st.id
                            lex.storeys[f"{variant} storey"] = st.id
                    # The name without a storey noun decorating it: "2F - Story" is also "2F"; without a
                    # leading number: "00 Begane grond" is also "Begane grond".
                    core = re.sub(r"\s+", " ", re.sub(rf"\b({nouns})\b|[-_:/()\[\],]", " ", fold(phrase))).strip()
                    numbered = re.fullmatch(r"[+-]?\d+(\.\d+)?\s+(?P<rest>[^\d\s].*)", core)
                    if numbered is not None and len(numbered.group("rest")) > 3:
                        cores.setdefault(numbered.group("rest"), []).append(st.id)
                    if core and core != fold(phrase) and any(c.isalpha() for c in core) and len(core) > 1 \
                            and core not in GENERIC_WORDS and not all(w in length_units() for w in core.split()):
                        cores.setdefault(core, []).append(st.id)
            # ... and its first word when it has a digit ("OG1- OK RD" is also "OG1")
            first = re.split(r"[\s\-_:/()\[\],]+", fold(st.name).strip())[0] if st.name else ""
            if len(first) > 1 and any(c.isdigit() for c in first) and any(c.isalpha() for c in first):
                cores.setdefault(first, []).append(st.id)
        for core, ids in cores.items():
            if len(set(ids)) == 1:
                lex.storeys.setdefault(core, ids[0])
                if not core.endswith(" floor"):  # "on the Eerste verdieping level" (a storey noun reads "floor")
                    lex.storeys.setdefault(f"{core} floor", ids[0])
        # a storey named with a room word of its language and no room called so ("Keller": the cellar)
        room_said = {r.phrase for r in lex.rooms}
        endings = [ascii_fold(e) for e in STOREY_ENDINGS]
        for st in b.storeys:
            said_words = set(_LETTERS.findall(ascii_fold(f"{st.name} {st.long_name}")))
            # "Kellergeschoss": a room word and a word for a storey, one word
            said_words |= {w[:-len(e)] for w in said_words for e in endings if w.endswith(e) and len(w) > len(e)}
            for word, fragments in ROOM_SYNONYMS.items():
                if not any(ascii_fold(f) in said_words for f in fragments if len(f) >= 4):
                    continue
                # ... or with rooms called so that all lie on it, the storey named by that word alone ("Keller"
                # holding "Keller 1", "Keller 2" and "Diele-Keller": "in the cellar" is the whole storey)
                name = ascii_fold(st.name).strip()
                alone = {ascii_fold(f) for f in fragments} | {ascii_fold(f) + e for f in fragments for e in endings}
                if word in room_said and (name not in alone or any(
                        b.elements[i].storey != st.id for r in lex.rooms if r.phrase == word for i in r.ids)):
                    continue
                lex.storeys.setdefault(word, st.id)
                for alias, target in ROOM_WORD_ALIASES.items():
                    if target == word and alias not in room_said:
                        lex.storeys.setdefault(alias, st.id)
            # a storey whose name means a room word's floor ("Dachgeschoss": the attic floor, wording.json):
            # "in the attic" where no room is called so
            meaning = meaning_of(st.name.strip()) or ""
            if meaning.endswith(" floor"):
                core = meaning[: -len(" floor")]
                if (core in ROOM_SYNONYMS or core in ROOM_WORD_ALIASES) and core not in room_said:
                    lex.storeys.setdefault(core, st.id)
                    lex.storeys.setdefault(meaning, st.id)
        lex.roof_storeys = roof_storeys(b)
        # Kinds present in the building (texts: the products' names and types, read above).
        for kind, words in KIND_WORDS.items():
            if any(names_kind(words, t) for t in texts):
                lex.kinds_present.add(kind)
                for w in words:
                    lex.kinds[w] = kind
                lex.kinds[kind] = kind
        for kind, words in KIND_WORDS.items():  # a kind none has is still a thing one may ask about ("is there a
            # dish washer"), by its own word and the words of more than one word (which mean nothing else)
            lex.kinds.setdefault(kind, kind)
            for w in words:
                if " " in w or kind in KINDS_FOUND_BY_SHAPE:
                    lex.kinds.setdefault(w, kind)
        # Element names (distinctive ones only: not the type strings shared by many).
        for e in b.products():
            if e.name and 3 <= len(e.name) <= 40:
                lex.names.setdefault(fold(e.name), []).append(e.id)
            # "Family:Type:12345" names (Revit): the family's leading word names the element too
            family = _FAMILY_TYPE_ID.match(e.name or "")
            if family:
                lex.names.setdefault(fold(family.group(1)), []).append(e.id)
        lex.class_words = dict(CLASS_WORDS)
        present = {e.ifc_class for e in b.products()} | {e.whole_class for e in b.products() if e.whole_class} \
            | {e.type_class for e in b.products() if e.type_class}
        lex.classes_present = {str(c) for c in present}
        for ifc_class in sorted(present):
            noun = class_name_words(ifc_class)
            if noun and noun not in lex.class_words and " " in noun:
                lex.class_words[noun] = (ifc_class,)
        lex.all_names = sorted({(ascii_fold(f"{e.name} {e.type_name} {e.object_type}"), e.ifc_class)
                                for e in b.products()})
        # Marks and property names, from the building's own data.
        texts_seen: set[str] = set()
        keys: set[str] = set()
        for e in b.products():
            texts_seen.update((e.name, e.type_name, e.object_type))
            keys.update(e.properties)
        for sp in b.spaces():  # rooms' own properties ("Floor Finish")
            keys.update(sp.properties)
        for text in sorted(t for t in texts_seen if t):
            for token in _TOKEN.findall(text):
                token = token.strip(".-/")
                if _MARK.fullmatch(token) and not _NOT_MARK.fullmatch(token.lower()):
                    lex.marks.setdefault(fold(token), token)
                    lex.squeezed_marks.setdefault(squeeze(token), token)
        lex.value_marks = _value_marks(b, lex.marks)
        for bare in sorted({k.rsplit(".", 1)[-1].strip() for k in keys}):
            if bare and bare != "PredefinedType":
                lex.properties.setdefault(squeeze(" ".join(_words(bare))), bare)
        lex.flags = _flags(b)
        return lex

    def flag_in(self, text: str) -> tuple[str, bool, str] | None:
        """A yes-or-no property said in ``text`` ("the load-bearing walls", "non load bearing", "not
        combustible"): (the property's name, the value meant, the words said), or None."""
        if not self.flags:
            return None
        if self._flag_re is None:  # one pattern for them all, longest first
            said = "|".join(re.escape(p) for p in self.flags)
            self._flag_re = re.compile(rf"\b(?P<neg>non |not |un)?(?P<flag>{said})\b")
        m = self._flag_re.search(text.replace("-", " "))
        if m is None:
            return None
        return self.flags[m.group("flag")], m.group("neg") is None, m.group(0)

    def vocabulary(self) -> BuildingWords:
        """All the building's words (``building_words.from_building``), made when first asked for."""
        if self._words is None:
            self._words = from_building(self.building)
        return self._words

    def find_mark(self, text: str) -> tuple[str, tuple[int, int]] | None:
        """A mark of this building in ``text`` ("how far am I from sd2"), as the building writes it, and
        where; also when said apart ("sd 2") or one character off ("hea 10o")."""
        tokens = list(re.finditer(r"[\w.*/-]+", text))
        for size in (1, 2, 3):
            for i in range(len(tokens) - size + 1):
                group = tokens[i:i + size]
                said = "".join(m.group(0) for m in group).strip(".-/")
                if size == 1 and fold(said) in self.marks:
                    return self.marks[fold(said)], (group[0].start(), group[-1].end())
                if size > 1 and (not re.search(r"\d", group[-1].group(0))
                                 or any(len(m.group(0)) > 3 for m in group[:-1])):
                    continue  # "sd 2", "hea 100"; not "floor 3" (a storey) for a slab "Floor-3"
                if size > 1 and squeeze(said) in self.squeezed_marks:
                    return self.squeezed_marks[squeeze(said)], (group[0].start(), group[-1].end())
        if self.squeezed_marks:
            for m in tokens:
                said = squeeze(m.group(0))
                if len(said) >= 5 and re.search(r"\d", said) and re.search(r"[^\W\d_]", said):
                    hit = process.extractOne(said, list(self.squeezed_marks), scorer=fuzz.ratio, score_cutoff=90)
                    if hit is not None:
                        return self.squeezed_marks[hit[0]], (m.start(), m.end())
        return None

    def property_name(self, phrase: str) -> str | None:
        """The building's own property that everyday words mean ("u value" -> "ThermalTransmittance",
        "fire rating" -> "FireRating"), or None."""
        words = " ".join(phrase.replace("-", " ").split())
        if words not in PROPERTY_WORDS and words.endswith("s") and words[:-1] in PROPERTY_WORDS:
            words = words[:-1]  # "the u values of the doors": each one's
        keys = [squeeze(PROPERTY_WORDS[words])] if words in PROPERTY_WORDS else []
        keys += [squeeze(words), "is" + squeeze(words)]
        for key in keys:
            if key in self.properties:
                return self.properties[key]
        hit = process.extractOne(squeeze(words), list(self.properties), scorer=fuzz.ratio, score_cutoff=90)
        if hit is not None:
            return self.properties[hit[0]]
        # one property whose name has the words among its own ("glazing" in "Glazing Type"; as another language
        # writes it, "Ausführung Verglasung")
        wanted = set((PROPERTY_WORDS.get(words) or words).split())
        having = {name for name in self.properties.values() if wanted <= {fold(w) for w in _words(name)}}
        return next(iter(having)) if len(having) == 1 else None

    def closest_properties(self, phrase: str, limit: int = 3) -> list[str]:
        """The building's property names nearest in spelling to ``phrase``."""
        return closest(phrase, sorted(set(self.properties.values())), limit)


def _flags(b: Building) -> dict[str, str]:
    """The words for the yes-or-no properties of ``b``'s elements (not IsExternal: outside and inside are
    words of their own), longest first."""
    names = {k.rsplit(".", 1)[-1].strip() for e in b.products() for k, v in e.properties.items()
             if isinstance(v, bool)} - {"IsExternal", ""}
    out: dict[str, str] = {}
    for name in sorted(names):
        words = " ".join(_words(name))
        said = {words, squeeze(words), words.removeprefix("is ")}
        said |= {k for k, v in PROPERTY_WORDS.items() if v == words and len(k) > 4}
        for phrase in said:
            if len(phrase) > 2 and phrase not in _NOT_FLAG_WORDS:  # a flag "UP" is no reading of "up here"
                out.setdefault(phrase, name)
    return dict(sorted(out.items(), key=lambda kv: -len(kv[0])))


#: Words a flag's name may be that are words of their own in a request (where, which way, how many).
#: (Words of two letters, "up" or "in", are never flag words.)
_NOT_FLAG_WORDS = frozenset({"down", "out", "off", "over", "under", "here", "there", "top", "all", "any", "one", "two",
                             "new", "old", "left", "right", "front", "back", "near", "far"})


def _words(name: str) -> list[str]:
    """A property name as words: "ThermalTransmittance" -> ["thermal", "transmittance"]."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("_", " ").lower().split()
