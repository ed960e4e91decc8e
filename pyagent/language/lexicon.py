"""The parser's vocabulary: fixed word lists (numbers, units, colours, directions) plus the words of
the loaded building (room and storey names in the file's language and their everyday meanings,
element kinds found in names and types)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from pyagent.model import Building
from pyagent.vocabulary import CLASS_WORDS, KIND_WORDS, class_name_words

NUMBER_WORDS = {
    "zero": 0, "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    "half": 0.5, "quarter": 0.25, "couple": 2, "few": 3,
}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
            "eighth": 8, "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5}
UNITS = {"m": 1.0, "meter": 1.0, "meters": 1.0, "metre": 1.0, "metres": 1.0, "cm": 0.01, "centimeter": 0.01,
         "centimeters": 0.01, "centimetre": 0.01, "centimetres": 0.01, "mm": 0.001, "millimeter": 0.001,
         "millimeters": 0.001, "millimetre": 0.001, "millimetres": 0.001, "ft": 0.3048, "foot": 0.3048,
         "feet": 0.3048, "in": 0.0254, "inch": 0.0254, "inches": 0.0254}

COLOURS: dict[str, tuple[float, float, float]] = {
    "red": (0.85, 0.1, 0.1), "green": (0.15, 0.65, 0.2), "blue": (0.15, 0.35, 0.85), "yellow": (0.95, 0.85, 0.15),
    "orange": (0.95, 0.55, 0.1), "purple": (0.55, 0.2, 0.7), "violet": (0.55, 0.3, 0.8), "pink": (0.95, 0.5, 0.7),
    "white": (0.97, 0.97, 0.97), "black": (0.05, 0.05, 0.05), "grey": (0.5, 0.5, 0.5), "gray": (0.5, 0.5, 0.5),
    "brown": (0.45, 0.28, 0.15), "beige": (0.87, 0.8, 0.65), "cyan": (0.1, 0.8, 0.85), "magenta": (0.85, 0.1, 0.75),
    "teal": (0.1, 0.5, 0.5), "navy": (0.05, 0.1, 0.4), "gold": (0.85, 0.68, 0.2), "silver": (0.75, 0.75, 0.78),
    "turquoise": (0.25, 0.85, 0.8), "cream": (0.98, 0.95, 0.82), "olive": (0.5, 0.5, 0.1), "maroon": (0.5, 0.05, 0.1),
    "lime": (0.6, 0.9, 0.2), "terracotta": (0.8, 0.45, 0.3), "charcoal": (0.2, 0.2, 0.22), "sand": (0.85, 0.75, 0.55),
    "wood": (0.6, 0.42, 0.25), "oak": (0.7, 0.55, 0.35), "concrete": (0.65, 0.65, 0.63), "ivory": (1.0, 1.0, 0.94),
}
COLOUR_MODIFIERS = {"light": 0.45, "pale": 0.55, "bright": 0.15, "dark": -0.45, "deep": -0.35}

# Everyday room words -> name fragments they match (the file's own language included).
ROOM_SYNONYMS: dict[str, tuple[str, ...]] = {
    "kitchen": ("kitchen", "küche", "kueche", "kuche", "cuisine", "cocina"),
    "bedroom": ("bedroom", "schlafzimmer", "schlafen", "bed room", "kinderzimmer"),
    "bathroom": ("bathroom", "bad", "badezimmer", "wc", "toilet", "restroom", "shower", "bath"),
    "office": ("office", "buero", "büro", "buro", "study", "arbeitszimmer"),
    "hallway": ("hallway", "flur", "corridor", "hall", "diele", "gang"),
    "living room": ("living room", "living", "wohnen", "wohnzimmer", "lounge", "sitting room", "family room"),
    "gallery": ("gallery", "galerie", "loft", "attic"),
    "foyer": ("foyer", "entrance", "entry", "lobby", "vestibule"),
    "utility": ("utility", "laundry", "hauswirtschaft"),
    "dining room": ("dining", "essen", "esszimmer"),
}
# Words that name a class or a generic thing: never taken as a room's name on their own.
GENERIC_WORDS = {"room", "rooms", "space", "spaces", "roof", "stair", "stairs", "floor", "level", "area", "zone",
                 "storey", "hall", "wall", "door", "window"}
ROOM_WORD_ALIASES = {"study": "office", "corridor": "hallway", "hall": "hallway", "lounge": "living room",
                     "loft": "gallery", "attic": "gallery", "toilet": "bathroom", "restroom": "bathroom",
                     "wc": "bathroom", "bath": "bathroom", "washroom": "bathroom", "entrance hall": "foyer",
                     "entry": "foyer", "lobby": "foyer", "laundry": "utility", "living": "living room",
                     "family room": "living room", "sitting room": "living room", "staircase room": "stair",
                     "stairwell": "stair"}

STOREY_WORDS = {
    "ground floor": "ground", "ground level": "ground", "ground storey": "ground", "downstairs": "below_or_ground",
    "ground": "ground", "groundfloor": "ground", "erdgeschoss": "ground", "main floor": "ground",
    "entry level": "ground", "street level": "ground",
    "upstairs": "upper", "upper floor": "upper", "upper level": "upper", "upper storey": "upper",
    "first floor": "upper", "top floor": "top", "top storey": "top", "attic floor": "upper", "second floor": "upper2",
    "floor above": "above", "storey above": "above", "level above": "above", "floor below": "below",
    "storey below": "below", "level below": "below", "this floor": "mine", "my floor": "mine",
    "same floor": "mine", "current floor": "mine", "up here": "mine", "down here": "mine",
    "this level": "mine", "this storey": "mine",
    "basement": "lowest", "foundation level": "lowest", "lowest floor": "lowest", "bottom floor": "lowest",
    "roof level": "top",
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
    names: dict[str, list[str]] = field(default_factory=dict)  # element name phrase -> ids
    all_names: list[tuple[str, str]] = field(default_factory=list)  # (folded name and type text, IFC class)
    # Everyday class nouns plus the building's own classes by their names ("shading device",
    # "curtain wall", "mechanical fastener"): noun (singular) -> classes.
    class_words: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def build(cls, b: Building) -> Lexicon:
        lex = cls(b)
        # Rooms: their own names and numbers, and everyday words that match them.
        phrases: dict[str, list[str]] = {}
        for sp in b.spaces():
            own = {fold(sp.long_name), fold(sp.name), ascii_fold(sp.long_name)}
            for word in list(own):
                if word and len(word) > 1 and word not in GENERIC_WORDS and word not in CLASS_WORDS:
                    phrases.setdefault(word, []).append(sp.id)
            name_text = ascii_fold(f"{sp.name} {sp.long_name}")
            tokens = set(re.findall(r"[a-z]+", name_text))
            for everyday, fragments in ROOM_SYNONYMS.items():
                for frag in fragments:
                    frag_f = ascii_fold(frag)
                    if (" " in frag_f and frag_f in name_text) or frag_f in tokens:
                        phrases.setdefault(everyday, []).append(sp.id)
                        break
        for alias, target in ROOM_WORD_ALIASES.items():
            if target in phrases and alias not in phrases:
                phrases[alias] = phrases[target]
        lex.rooms = [RoomEntry(sorted(set(ids)), p) for p, ids in phrases.items() if p not in GENERIC_WORDS]
        lex.rooms.sort(key=lambda r: -len(r.phrase))
        for st in b.storeys:
            for phrase in (st.name, st.long_name):
                if phrase and not phrase.startswith("ACID"):
                    for variant in (fold(phrase), ascii_fold(phrase), re.sub(r"\blevel\b", "floor", fold(phrase))):
                        if variant not in GENERIC_WORDS:
                            lex.storeys[variant] = st.id
                        else:  # "Roof": only as "roof level" / "roof floor"
                            lex.storeys[f"{variant} floor"] = st.id
                            lex.storeys[f"{variant} storey"] = st.id
        # Kinds present in the building.
        texts = [fold(f"{e.name} {e.object_type} {e.type_name}") for e in b.products()]
        for kind, words in KIND_WORDS.items():
            if any(any(w in t for w in words) for t in texts):
                for w in words:
                    lex.kinds[w] = kind
                lex.kinds[kind] = kind
        for kind in KIND_WORDS:
            lex.kinds.setdefault(kind, kind)
        # Element names (distinctive ones only: not the type strings shared by many).
        for e in b.products():
            if e.name and 3 <= len(e.name) <= 40:
                lex.names.setdefault(fold(e.name), []).append(e.id)
        lex.class_words = dict(CLASS_WORDS)
        present = {e.ifc_class for e in b.products()} | {e.whole_class for e in b.products() if e.whole_class}
        for ifc_class in sorted(present):
            noun = class_name_words(ifc_class)
            if noun and noun not in lex.class_words and " " in noun:
                lex.class_words[noun] = (ifc_class,)
        lex.all_names = sorted({(ascii_fold(f"{e.name} {e.type_name} {e.object_type}"), e.ifc_class)
                                for e in b.products()})
        return lex
