"""Noun phrases as typed tokens: the terminals of ``noun_phrase.lark``.

A normalised noun phrase ("the two nearest windows in the kitchen") is read left to right, taking at
each word the longest phrase any table knows: the closed-class words of ``data/noun_phrase_words.yaml``
(articles, relations to the user, comparatives...) and the loaded building's own words from its
``Lexicon`` (class nouns, kinds, rooms, storeys, element names, marks). A word no table knows becomes a
``WORD`` token; the grammar decides where such a word may stand. Nothing here edits the text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, cast

import yaml
from rapidfuzz import fuzz, process

from pyagent.language import rx as re  # re's functions, with a cache that holds all the front end's patterns
from pyagent.language import spoken_numbers
from pyagent.language.lexicon import (
    ROOM_NOUNS,
    ROOM_SYNONYMS,
    STOREY_WORDS,
    Lexicon,
    RoomEntry,
    ascii_fold,
    fold,
    squeeze,
)
from pyagent.language.storey_ordinals import storey_number
from pyagent.language.units import length_units
from pyagent.vocabulary import CLASS_WORDS, class_matches, plural_noun, singular_noun

WORDS: dict[str, Any] = yaml.safe_load(
    (Path(__file__).parent / "data" / "noun_phrase_words.yaml").read_text(encoding="utf-8"))

#: Phrases for what the user has selected (read as pronouns; the selector refers to the selection).
SELECTION_PHRASES: frozenset[str] = frozenset(str(w) for w in WORDS["selection"])

#: Material adjectives -> the material they name (a key of data/material_words.yaml).
MATERIAL_WORDS: dict[str, str] = {
    "concrete": "concrete", "steel": "steel", "wooden": "wood", "timber": "wood", "wood": "wood", "glass": "glass",
    "brick": "brick", "masonry": "masonry", "aluminium": "aluminium", "aluminum": "aluminium", "stone": "stone",
    "plasterboard": "plaster", "gypsum": "plaster", "plaster": "plaster", "drywall": "plaster",
    "stainless": "stainless steel", "reinforced": "reinforced concrete", "precast": "precast concrete",
    "prefab": "precast concrete", "prefabricated": "precast concrete"}
MATERIAL_FRAGMENTS: dict[str, tuple[str, ...]] = {
    str(k): tuple(str(f) for f in v) for k, v in yaml.safe_load(
        (Path(__file__).parent / "data" / "material_words.yaml").read_text(encoding="utf-8")).items()}
# Words that, after a room's name, say it is a room ("the caretaker's office", "the chemistry lab"): the
# room nouns and the everyday room words of one word.
_ROOM_HEADS = ROOM_NOUNS | frozenset(w for w in ROOM_SYNONYMS if " " not in w)
# Words before the head that are never part of one of the building's two-word names.
_NAME_PART_STOP = frozenset({"the", "a", "an", "all", "my", "this", "that", "of", "in", "on"})
# After "floor 2" these make a move, not a storey ("one floor up").
_MOVE_AFTER = frozenset({"up", "down", "above", "below", "higher", "lower", "further"})
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# Words between two room words that name one room together ("the entrance to the flats", "the living room
# with kitchen" of a room named for both).
_ROOM_LINKS = frozenset({"to", "of", "with", "and", "plus"})
_ROOM_SUFFIX = ("", "s", "es", "'s")
# Closed-class words a building's own word of the same length wins over (a room called "Home").
_WEAK = frozenset({"ARTICLE", "QUANTIFIER", "LOCATIVE", "ONE", "THINGS", "HOUSE", "AND", "USER", "FROM_OF",
                   "AREA_UNIT", "TO", "ANYWHERE"})


@dataclass(frozen=True)
class NPToken:
    """One typed token: its terminal name, the words it covers and what they mean."""

    type: str
    text: str
    value: Any = None
    plural: bool = False

    def __str__(self) -> str:
        return self.text


def _both_rooms(first: NPToken, second: NPToken) -> NPToken:
    """Two room words in a row ("the chemistry lab", "the caretaker's office"): the rooms both name, or,
    where none does, the ones the first, more particular word names."""
    a: RoomEntry = first.value
    b: RoomEntry = second.value
    both = sorted(set(a.ids) & set(b.ids))
    entry = RoomEntry(both, f"{a.phrase} {b.phrase}") if both else a
    return NPToken("ROOM", f"{first.text} {second.text}", entry, first.plural or second.plural)


def _phrases(words: list[str]) -> list[tuple[str, ...]]:
    return [tuple(str(w).split()) for w in words]


@lru_cache(maxsize=1)
def closed_class() -> dict[tuple[str, ...], tuple[str, Any]]:
    """The closed-class phrases: words -> (terminal, value). Where two tables share a phrase, the first
    listed here wins (relations before articles)."""
    table: dict[tuple[str, ...], tuple[str, Any]] = {}

    def add(words: list[str], terminal: str, value: Any = None) -> None:
        for p in _phrases(words):
            table.setdefault(p, (terminal, value))

    for key, terminal, value_of, several_words in _TABLES:
        sub_tables = WORDS[key].items() if value_of is not None else [(None, WORDS[key])]
        for name, phrases in sub_tables:
            chosen = [w for w in phrases if " " in w] if several_words else phrases
            add(chosen, terminal, value_of(name) if value_of is not None and name is not None else None)
    add([w for w in WORDS["partitive"] if w not in ("of", "of the")], "PARTITIVE")
    for key, terminal in _WEAK_WORDS:
        add(WORDS[key], terminal)
    return table


def _same(name: str) -> Any:
    return name


# Tables of data/noun_phrase_words.yaml in the order they win ties: (key, terminal, None for a list of
# phrases or what each sub-table's name becomes as the token's value, only the phrases of several words).
# Superlatives of several words ("nearest to me") come before the relations, the single words after.
_TABLES: tuple[tuple[str, str, Callable[[str], Any] | None, bool], ...] = (
    ("here_room", "HERE_ROOM", None, False), ("this_room", "THIS_ROOM", None, False),
    ("user_relations", "USER_RELATION", _same, False), ("superlatives", "SUPERLATIVE", _same, True),
    ("anchor_relations", "ANCHOR_RELATION", _same, False), ("between", "BETWEEN", None, False),
    ("connects", "CONNECTS", None, False), ("within", "WITHIN", None, False),
    ("comparatives", "COMPARATIVE", lambda name: tuple(name.split("_")), False),
    ("named", "NAMED", None, False), ("except", "EXCEPT", None, False), ("compass", "COMPASS", _same, False),
    ("front_door", "FRONT_DOOR", None, False), ("selection", "PRONOUN", None, False),
    ("pronouns", "PRONOUN", None, False), ("house", "HOUSE", None, False),
    ("superlatives", "SUPERLATIVE", _same, False), ("last", "LAST", None, False),
    ("sides", "SIDE", lambda name: name == "outside", False), ("sizes", "SIZE", _same, False),
    *((key, terminal, None, False) for key, terminal in (
        ("quantifiers", "QUANTIFIER"), ("articles", "ARTICLE"), ("demonstratives", "DEMONSTRATIVE"),
        ("one", "ONE"), ("things", "THINGS"), ("and", "AND"), ("existential", "EXISTENTIAL"),
        ("across", "ACROSS"), ("comma", "COMMA"))),
)
# Read after the partitives; a building word of the same spelling wins over these (``_WEAK``).
_WEAK_WORDS = (("adverbs", "ADVERB"), ("user", "USER"), ("away", "AWAY"), ("to", "TO"), ("anywhere", "ANYWHERE"),
               ("from_of", "FROM_OF"), ("locatives", "LOCATIVE"), ("area_units", "AREA_UNIT"))


# Words for one dwelling of several, said with its letter or number ("unit B", "flat 2").
_DWELLING_WORDS = frozenset({"unit", "flat", "apartment", "house", "dwelling", "home", "half", "side"})
PLACE_PARTS = frozenset(str(w) for w in WORDS["place_parts"])
UNIT_WORDS = frozenset(str(w) for w in WORDS["unit_words"])


class Tagger:
    """Typed tokens for noun phrases said about one building."""

    def __init__(self, lex: Lexicon) -> None:
        self.lex = lex
        self.closed = closed_class()
        self.building: dict[tuple[str, ...], NPToken] = {}
        # Lowest priority first: later tables overwrite earlier ones for the same words.
        for name in lex.names:
            if len(name) >= 4:
                for said, plural in ((name, False), (name + "s", True), (name + "es", True)):
                    final = name.split()[-1]
                    self._put(said, NPToken("NAME", said, name, plural or singular_noun(final) != final))
        for word in lex.kinds:
            kind = lex.kinds.get(word) or singular_noun(word)
            self._put(word, NPToken("KIND", word, kind, False))
            self._put(plural_noun(word), NPToken("KIND", plural_noun(word), kind, True))
        for word, classes in lex.class_words.items():
            self._put(plural_noun(word), NPToken("CLASS", plural_noun(word), (word, classes), True))
            self._put(word, NPToken("CLASS", word, (word, classes), False))
        for word in lex.kinds:  # a word both a kind and a class noun is the kind ("sofa", "bench"); an everyday
            # class noun only where the building names things of the kind ("girders" where some are "LIGGER")
            kind = lex.kinds.get(word) or singular_noun(word)
            present = kind in lex.kinds_present
            for said, plural in ((word, False), (plural_noun(word), True)):
                token = self.building.get(tuple(said.split()))
                if token is not None and token.type == "CLASS" and (present or not plural and word not in CLASS_WORDS):
                    self._put(said, NPToken("KIND", said, kind, plural))
        for entry in reversed(lex.rooms):  # longest phrases were first: keep them on top
            self._put_room(entry)
        for word in (*ROOM_SYNONYMS, *ROOM_NOUNS):  # "this office" where no room is called one, "this lab": the
            # room one is in
            if " " not in word and ((word,) not in self.building or word in ROOM_NOUNS):
                for mine in ("this", "my", "our", "the current"):
                    self._put(f"{mine} {word}", NPToken("THIS_ROOM", f"{mine} {word}", None, False))
                    self._put(f"in {mine} {word}", NPToken("HERE_ROOM", f"in {mine} {word}", None, False))
        for word, fragment in self._rooms_as_things().items():  # "the kitchen" with no kitchen: the kitchen unit
            self._put(word, NPToken("NAME", word, fragment, False))
            self._put(plural_noun(word), NPToken("NAME", plural_noun(word), fragment, True))
        for phrase in sorted(STOREY_WORDS, key=len):
            self._put(phrase, NPToken("STOREY", phrase, phrase))
        for phrase in ("up there", "above us", "upper", "top"):
            self._put(phrase, NPToken("STOREY", phrase, phrase))
        for phrase in sorted(lex.storeys, key=len):
            self._put(phrase, NPToken("STOREY", phrase, phrase))
        # The words of the rooms' own names (long ones), for words of other languages spelt alike.
        self.room_words: dict[str, list[str]] = {}
        for space in lex.building.spaces():
            for w in re.findall(r"[^\W\d_]+", ascii_fold(f"{space.name} {space.long_name}")):
                if len(w) >= 7:
                    self.room_words.setdefault(w, []).append(space.id)
        # The lengths of the phrases that start with each word, longest first: the tagger tries only those.
        sizes: dict[str, set[int]] = {}
        for key in (*self.closed, *self.building):
            sizes.setdefault(key[0], set()).add(len(key))
        self.sizes = {w: sorted(n, reverse=True) for w, n in sizes.items()}

    def _rooms_as_things(self) -> dict[str, str]:
        """Everyday room words that name no room here and no kind or class, but end a word of an element's
        name in one of their languages ("the kitchen" where the only kitchen is a unit typed
        "Konzeptküche"): word -> the fragment as the names write it (a compound's last part is what it is)."""
        heads = {words[-1] for e in self.lex.building.products() for t in (e.name, e.type_name, e.object_type)
                 if t and (words := re.findall(r"[^\W\d_]+", fold(t)))}
        out: dict[str, str] = {}
        for word, fragments in ROOM_SYNONYMS.items():
            if tuple(word.split()) in self.building or tuple(word.split()) in self.closed:
                continue
            for fragment in fragments:
                if len(fragment) >= 4 and fragment.isalpha() and (fragment,) not in self.building \
                        and any(h.endswith(fragment) for h in heads):
                    out[word] = fragment
                    break
        return out

    def _put(self, said: str, token: NPToken) -> None:
        key = tuple(said.split())
        if key:
            self.building[key] = token

    def _put_room(self, entry: RoomEntry) -> None:
        for suffix in _ROOM_SUFFIX:
            said = entry.phrase + suffix
            self._put(said, NPToken("ROOM", said, entry, suffix in ("s", "es")))
        if entry.phrase.isascii() and entry.phrase[-1:].isalpha():  # "balconies", "libraries"
            plural = plural_noun(entry.phrase)
            if plural not in (entry.phrase, entry.phrase + "s", entry.phrase + "es"):
                self._put(plural, NPToken("ROOM", plural, entry, True))

    def tokens(self, text: str) -> list[NPToken]:
        """The phrase as typed tokens."""
        out = list(self._tokens(text.split()))
        if out and out[0].type == "PRONOUN" and out[0].text in ("the ones", "those ones", "these ones") \
                and len(out) > 1:  # "the ones in the living room": ones like those said before, there
            article = out[0].text.split()[0]
            out[:1] = [NPToken("ARTICLE" if article == "the" else "DEMONSTRATIVE", article,
                               self.closed.get((article,), ("", article))[1]), NPToken("ONE", "ones", None, True)]
        for i, token in enumerate(out):  # "the parts", "the items": things in the plural
            if token.type == "THINGS" and token.text.endswith("s") and token.text not in ("stuff",):
                out[i] = NPToken("THINGS", token.text, token.value, True)
        for i, token in enumerate(out):  # "the columns of the first floor": on it
            nxt = out[i + 2] if i + 2 < len(out) and out[i + 1].type == "ARTICLE" else (
                out[i + 1] if i + 1 < len(out) else None)
            if token.type == "FROM_OF" and nxt is not None and nxt.type == "STOREY" and ("on",) in self.closed:
                kind, value = self.closed[("on",)]
                out[i] = NPToken(kind, token.text, value)
        for i, token in enumerate(out):  # "the letter boxes in the entrance": the room, not a door
            j = i - 1 if i > 0 and out[i - 1].type in ("ARTICLE", "DEMONSTRATIVE") else i
            if token.type == "CLASS" and j > 0 and out[j - 1].type == "LOCATIVE" \
                    and out[j - 1].text in ("in", "inside", "into", "within"):
                room = self.everyday_rooms.get(ascii_fold(token.text)) or self.everyday_rooms.get(
                    ascii_fold(singular_noun(token.text)))
                if room is not None:
                    out[i] = NPToken("ROOM", token.text, room, token.plural)
        for i, token in reversed(list(enumerate(out))):  # "how many of those cupboards": of + those + the noun
            words = tuple(token.text.split())
            if token.type == "PRONOUN" and len(words) == 2 and words[0] == "of" \
                    and any(t.type in ("CLASS", "KIND", "NAME", "THINGS") for t in out[i + 1:]) \
                    and ("of",) in self.closed and words[1:] in self.closed:
                of, that = self.closed[("of",)], self.closed[words[1:]]
                out[i:i + 1] = [NPToken(of[0], "of", of[1]), NPToken(that[0], words[1], that[1])]
        for i, token in enumerate(out[:-1]):  # "in unit B", "flat 2": one dwelling of several, by its letter or number
            after = out[i + 1]
            if token.text in _DWELLING_WORDS and (after.type == "NUMBER" or re.fullmatch(r"[a-h]", after.text)):
                out[i] = NPToken("HOUSE", token.text, token.text)
                out[i + 1] = NPToken("NUMBER", after.text, after.value if after.type == "NUMBER" else 0.0)
        for i, token in enumerate(out):  # "the square pillars": a shape, not the unit of an area
            if token.type == "AREA_UNIT" and not (i + 1 < len(out) and out[i + 1].type == "UNIT"):
                out[i] = NPToken("WORD", token.text, token.text)
        for i, token in enumerate(out):  # "wider than 1 meter" where a storey is called "1": a number
            if token.type == "STOREY" and _NUMBER.fullmatch(token.text) and (
                    (i + 1 < len(out) and out[i + 1].type in ("UNIT", "AREA_UNIT"))
                    or (i > 0 and out[i - 1].type == "COMPARATIVE")):
                out[i] = NPToken("NUMBER", token.text, float(token.text))
        if len(out) > 1 and out[-1].type == "ACROSS" and out[-2].type in ("ROOM", "CLASS", "KIND") \
                and out[-1].text.startswith(("in ", "of ")):
            out.pop()  # "all the bedrooms in the terrace": every one, wherever it is
        for i, token in enumerate(out):  # "how many rooms are in the cellar": on the floor the word names
            if token.type == "ROOM" and i >= 2 and out[0].type == "CLASS" and out[0].value[1] == ("IfcSpace",) \
                    and out[0].plural and out[i - 1].type == "ARTICLE" and out[i - 2].text in ("in", "on") \
                    and f"{token.text} floor" in STOREY_WORDS:
                out[i] = NPToken("STOREY", f"{token.text} floor", f"{token.text} floor")
        for i, token in enumerate(out[:-2]):
            # "the double tee roof units": double tees on the roof, read as "the roof double tees" are
            if token.type == "KIND" and out[i + 1].type == "CLASS" and out[i + 1].text in PLACE_PARTS \
                    and i + 2 < len(out) and out[i + 2].text in UNIT_WORDS:
                member = NPToken("KIND", token.text, token.value, token.plural or out[i + 2].text.endswith("s"))
                out[i:i + 3] = [out[i + 1], member]
                break
        for i, token in enumerate(out[:-1]):
            # "the bolt groups", "the steel members": the class said with a word for its pieces
            # ("the wall panels" too, where the building has no panels of its own)
            unit = out[i + 1]
            if token.type in ("CLASS", "KIND") and unit.text in UNIT_WORDS and (
                    unit.type == "WORD" or unit.type == "CLASS" and not set(unit.value[1]) & self.lex.classes_present):
                out[i:i + 2] = [NPToken(token.type, f"{token.text} {out[i + 1].text}", token.value,
                                        out[i + 1].text.endswith("s"))]
                break
        # a room word that is also a kind of fitting here, said with such a thing ("the bath and the
        # shower"): the fitting
        for i, token in enumerate(out):
            if token.type == "ROOM" and token.text in self.lex.kinds and (self._with_kind(out, i)
                                                                          or self._in_a_room(out, i)):
                out[i] = NPToken("KIND", token.text, self.lex.kinds[token.text], token.plural)
        return out

    @staticmethod
    def _in_a_room(tokens: list[NPToken], i: int) -> bool:
        """Is token ``i`` said to be in a room ("the toilet in the WC": the fitting, in that room)?"""
        j = i + 1
        if not (j < len(tokens) and tokens[j].type == "LOCATIVE" and tokens[j].text in ("in", "inside", "within")):
            return False
        j += 1
        if j < len(tokens) and tokens[j].type in ("ARTICLE", "DEMONSTRATIVE", "POSSESSIVE"):
            j += 1
        return j < len(tokens) and tokens[j].type == "ROOM"

    @staticmethod
    def _with_kind(tokens: list[NPToken], i: int) -> bool:
        """Is token ``i`` joined by "and" to a kind of thing (an article between allowed)?"""
        for step in (1, -1):
            j = i + step
            if 0 <= j < len(tokens) and tokens[j].type == "AND":
                j += step
                if 0 <= j < len(tokens) and tokens[j].type == "ARTICLE":
                    j += step
                if 0 <= j < len(tokens) and tokens[j].type == "KIND":
                    return True
        return False

    def _tokens(self, words: list[str]) -> Iterator[NPToken]:
        folded = [ascii_fold(w) for w in words]
        i = 0
        n = len(words)
        while i < n:
            word = words[i]
            token = self._mark(word) or self._mark_apart(words, i) or self._compound(words, folded, i) \
                or self._name_part(words, i)
            if token is None:
                token = self._storey_number(words, i) or self._longest(words, folded, i) or self._single(words, i)
            elif token.type == "NAME_PART":  # unless the word starts a longer phrase ("to the left of")
                longer = self._longest(words, folded, i)
                if longer is not None and len(longer.text.split()) > 1:
                    token = longer
            if token.type in ("NAMED", "EXCEPT"):  # the rest of the phrase is the name / what is left out
                rest = " ".join(words[i + len(token.text.split()):])
                yield NPToken(token.type, token.text, rest)
                return
            if token.type == "STOREY" and token.text == "top" and i + 1 < n and _NUMBER.fullmatch(words[i + 1]):
                token = NPToken("WORD", word, word)  # "the top 3 windows": a limit, not a storey
            i += len(token.text.split())
            of_room = self._room_of_room(token, words, folded, i)
            if of_room is not None:  # "the entrance to the flats": the room both words name
                token, i = of_room
            if token.type == "ROOM":  # "the chemistry lab", "the caretaker's office", "the waiting area"
                while i < n:
                    nxt = self._longest(words, folded, i)
                    if words[i] in _ROOM_HEADS and (nxt is None or nxt.type != "ROOM"):
                        token = NPToken("ROOM", f"{token.text} {words[i]}", token.value, token.plural)
                        i += 1
                    elif nxt is not None and nxt.type == "ROOM":
                        token = _both_rooms(token, nxt)
                        i += len(nxt.text.split())
                    else:
                        break
            yield token

    @cached_property
    def name_words(self) -> frozenset[str]:
        """The long words of the building's element and type names ("shopfront", "handrail")."""
        return frozenset(w for text, _cls in self.lex.all_names for w in re.findall(r"[a-z]+", text) if len(w) >= 6)

    def _compound(self, words: list[str], folded: list[str], i: int) -> NPToken | None:
        """Two words said apart that the building writes as one ("shop front" for doors of the type
        "Shopfront"): its elements of that name, unless either word starts a longer phrase of its own."""
        if i + 1 >= len(words):
            return None
        first, second = folded[i], folded[i + 1]
        if not (first.isalpha() and second.isalpha()) or (first,) in self.closed or (second,) in self.closed:
            return None
        joined, single = first + second, first + singular_noun(second)
        if joined not in self.name_words and single not in self.name_words:
            return None
        for at in (i, i + 1):
            longer = self._longest(words, folded, at)
            if longer is not None and len(longer.text.split()) > 1:
                return None
        name = joined if joined in self.name_words else single
        return NPToken("NAME", f"{words[i]} {words[i + 1]}", name, name != joined)

    @cached_property
    def everyday_rooms(self) -> dict[str, RoomEntry]:
        """The building's rooms by each single word of the everyday room words' fragments
        (data/room_words.yaml: "entrance" names the foyers), for words that are class nouns too."""
        out: dict[str, RoomEntry] = {}
        for key, fragments in ROOM_SYNONYMS.items():
            entry = self.building.get(tuple(key.split()))
            if entry is None or entry.type != "ROOM":
                continue
            for fragment in fragments:
                if " " not in fragment:
                    out.setdefault(ascii_fold(fragment), entry.value)
        return out

    def _room_of_room(self, token: NPToken, words: list[str], folded: list[str],
                      i: int) -> tuple[NPToken, int] | None:
        """A room word, "to" or "of", and another room word naming one room between them ("the entrance to
        the flats", "the kitchen of the flat"): that room and where the phrase goes on; else None."""
        if token.type == "ROOM":
            first: RoomEntry | None = token.value
        elif token.type == "CLASS":
            first = self.everyday_rooms.get(ascii_fold(token.text)) or self.everyday_rooms.get(
                ascii_fold(singular_noun(token.text)))
        else:
            return None
        if first is None or i >= len(words) or words[i] not in _ROOM_LINKS:
            return None
        j = i + 1
        if j < len(words) and self.closed.get((words[j],), ("",))[0] == "ARTICLE":
            j += 1
        second = self._longest(words, folded, j) if j < len(words) else None
        if second is None or second.type != "ROOM":
            return None
        both = sorted(set(first.ids) & set(second.value.ids))
        if not both:
            return None
        said = " ".join(words[i - len(token.text.split()):j + len(second.text.split())])
        return NPToken("ROOM", said, RoomEntry(both, said), token.plural), j + len(second.text.split())

    def _storey_number(self, words: list[str], i: int) -> NPToken | None:
        """A storey by number: "floor 2", "the 2nd floor" (not "one floor up")."""
        for pair in (words[i:i + 2],):
            if len(pair) < 2 or "floor" not in pair or pair[0] == pair[1]:
                continue
            after = words[i + 2] if i + 2 < len(words) else ""
            if after in _MOVE_AFTER:
                continue
            phrase = " ".join(pair)
            if phrase in self.lex.storeys:
                continue  # a storey's own name: the table has it
            if storey_number(phrase) is not None:
                return NPToken("STOREY", phrase, phrase)
        return None

    def _longest(self, words: list[str], folded: list[str], i: int) -> NPToken | None:
        sizes = self.sizes.get(words[i], [])
        if folded[i] != words[i]:
            sizes = sorted(set(sizes) | set(self.sizes.get(folded[i], ())), reverse=True)
        for size in sizes:
            if i + size > len(words):
                continue
            key = tuple(words[i:i + size])
            closed = self.closed.get(key)
            mine = self.building.get(key)
            if mine is None:
                mine = self.building.get(tuple(folded[i:i + size]))
            if closed is not None and (mine is None or closed[0] not in _WEAK):
                return NPToken(closed[0], " ".join(key), closed[1])
            if mine is not None:
                return NPToken(mine.type, " ".join(key), mine.value, mine.plural)
            if closed is not None:
                return NPToken(closed[0], " ".join(key), closed[1])
        return None

    @lru_cache(maxsize=256)  # noqa: B019 - one tagger per building, kept as long as its parser
    def flags_sides(self, classes: tuple[str, ...]) -> bool:
        """Does the building say, with IsExternal, which of these elements are outside?"""
        return any(e.ifc_class in classes and "IsExternal" in e.properties for e in self.lex.building.elements.values())

    @lru_cache(maxsize=256)  # noqa: B019 - one tagger per building, kept as long as its parser
    def material_fragment(self, material: str, classes: tuple[str, ...] = ()) -> str:
        """The fragment of the building's own material names that a material ("concrete") means: the one
        found in the materials of most elements of ``classes`` (any element without), "beton" where the walls
        are "Stahlbeton"; else the English word."""
        fragments = MATERIAL_FRAGMENTS.get(material, (material,))
        b = self.lex.building
        names = [fold(", ".join(e.materials)) for e in b.elements.values() if e.materials and (
            not classes or class_matches(b.schema, e.ifc_class, e.properties.get("PredefinedType"), set(classes)))]
        counts = [(sum(f in n for n in names), -i, f) for i, f in enumerate(fragments)]
        best = max(counts)
        broader = material.split()[-1]
        if not best[0] and broader != material and broader in MATERIAL_FRAGMENTS:
            return self.material_fragment(broader, classes)  # none says "reinforced": the concrete ones
        return best[2] if best[0] else fragments[0]

    @lru_cache(maxsize=256)  # noqa: B019 - one tagger per building, kept as long as its parser
    def material_filter(self, material: str, classes: tuple[str, ...] = ()) -> tuple[str, str]:
        """What picks things of a material: ("material", fragment) where the building gives these elements
        materials with it; where it gives them none with it but writes it into their names ("Metal column"
        for "the steel columns"), ("name", fragment)."""
        fragment = self.material_fragment(material, classes)
        b = self.lex.building
        mine = [e for e in b.elements.values() if not classes or class_matches(
            b.schema, e.ifc_class, e.properties.get("PredefinedType"), set(classes))]
        if any(fragment in fold(", ".join(e.materials)) for e in mine):
            return "material", fragment
        for candidate in MATERIAL_FRAGMENTS.get(material, (material,)):
            if any(candidate in fold(e.label()) for e in mine):
                return "name", candidate
        return "material", fragment

    def _mark(self, word: str) -> NPToken | None:
        """One of the building's marks ("C4", "SD2", "Floor-2"), as the building writes it: a mark wins
        over the words it looks like."""
        if fold(word) in self.lex.marks and (word,) not in self.closed:
            return NPToken("MARK", word, self.lex.marks[fold(word)])
        if fold(word) in self.lex.value_marks and (word,) not in self.closed and (word,) not in self.building:
            return NPToken("MARK", word, self.lex.value_marks[fold(word)])  # (property, value)
        return None

    def _mark_apart(self, words: list[str], i: int) -> NPToken | None:
        """A mark said in two parts, letters then digits ("HEA 300" for "HEA300", "sd 2")."""
        if i + 1 >= len(words) or not words[i].isalpha() or not re.fullmatch(r"\d+[\w.*/-]*", words[i + 1]):
            return None
        if (words[i],) in self.closed or (words[i],) in self.building:
            return None
        mark = self.lex.squeezed_marks.get(squeeze(words[i] + words[i + 1]))
        return NPToken("MARK", f"{words[i]} {words[i + 1]}", mark) if mark is not None else None

    def _single(self, words: list[str], i: int) -> NPToken:
        word = words[i]
        if word.endswith("'s") and len(word) > 3:  # "which window's nearest": the window (is)
            stem = self.building.get((word[:-2],))
            if stem is not None and stem.type in ("CLASS", "KIND"):
                return NPToken(stem.type, word, stem.value, stem.plural)
            # "Kris's office", "the professor's office": the room labelled with the name or its first letters
            if i + 1 < len(words) and words[i + 1] in _ROOM_HEADS:
                room = self._labelled(word[:-2])
                if room is not None:
                    return NPToken("ROOM", word, room, False)
        if _NUMBER.fullmatch(word):
            return NPToken("NUMBER", word, float(word))
        if word in length_units() and word != "in":
            return NPToken("UNIT", word, length_units()[word])
        if word in MATERIAL_WORDS:
            return NPToken("MATERIAL", word, MATERIAL_WORDS[word])
        if word in self.material_marks:  # "the S355 parts": a grade the building's material names carry
            return NPToken("MATERIAL", word, word)
        nth = spoken_numbers.ordinal(word)
        if nth is not None:
            return NPToken("ORDINAL", word, nth)
        cognate = self._cognate(word)
        if cognate is not None:
            return cognate
        if i + 1 < len(words) and words[i + 1] in _ROOM_HEADS and word.isalpha():  # "the seminar room": "semi"
            room = self._labelled(word)
            if room is not None:
                return NPToken("ROOM", word, room, False)
        ends = i + 1 >= len(words) or (words[i + 1],) in self.closed
        if ends and word.isalpha() and len(word) >= 4 and singular_noun(word) in self.head_nouns:
            return NPToken("NAME", word, singular_noun(word), singular_noun(word) != word)  # "the piano"
        return NPToken("WORD", word, word)

    @cached_property
    def material_marks(self) -> frozenset[str]:
        """Words of the building's material names with letters and digits ("s355", "c30"): grades said as
        words."""
        words = {w for e in self.lex.building.elements.values() for m in e.materials
                 for w in re.findall(r"[\w.]+", fold(m)) if re.search(r"\d", w) and re.search(r"[^\W\d_]", w)}
        words |= {m.group(0) for w in words if (m := re.match(r"[^\W\d_]+\d+", w))}  # "s355" of "s355j2"
        return frozenset(w for w in words if len(w) >= 3 and (w,) not in self.closed)

    @cached_property
    def head_nouns(self) -> frozenset[str]:
        """Whole words of the building's element and type names (4 letters or more), for a noun that names
        nothing else: "the piano" for "Piano - Baby Grand"."""
        return frozenset(w for text, cls in self.lex.all_names if cls != "IfcSpace"
                         for w in re.findall(r"[^\W\d_]{4,}", text))

    def _labelled(self, said: str) -> RoomEntry | None:
        """The one room whose whole name is ``said`` or a short label ``said`` starts with (4 letters or more:
        "prof" for "professor")."""
        entry = self.building.get((said,))
        if entry is not None and entry.type == "ROOM":
            return cast(RoomEntry, entry.value)
        found = [e for label, e in self.room_labels.items() if said.startswith(label) and len(said) > len(label)]
        return found[0] if len(found) == 1 else None

    @cached_property
    def room_labels(self) -> dict[str, RoomEntry]:
        """Rooms whose whole name is one short word of 4 or 5 letters (a drawing label: "prof", "kris")."""
        out: dict[str, RoomEntry] = {}
        for entry in self.lex.rooms:
            if entry.phrase.isalpha() and 4 <= len(entry.phrase) <= 5 and len(entry.ids) == 1:
                out[entry.phrase] = entry
        return out

    def _cognate(self, word: str) -> NPToken | None:
        """A room named by a word of another language that is spelt nearly the same ("bacteriology" for
        "BACTERIOLOGIE", "laboratory" for "Laboratoire"): long words only, 85 % alike or more."""
        plain = ascii_fold(word)
        if len(plain) < 7 or not plain.isalpha() or not self.room_words:
            return None
        hit = process.extractOne(plain, list(self.room_words), scorer=fuzz.ratio, score_cutoff=85)
        if hit is None:
            return None
        return NPToken("ROOM", word, RoomEntry(self.room_words[hit[0]], hit[0]))

    def _name_part(self, words: list[str], i: int) -> NPToken | None:
        """A word that, with the head noun after it, is one of the building's own names ("upper cabinet",
        "single flush door"): it picks elements by that name."""
        word = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if not nxt or word in _NAME_PART_STOP or not word.isalpha():
            return None
        head = self.building.get((nxt,))
        if head is None or head.type not in ("CLASS", "KIND"):
            return None
        phrase = f"{word} {singular_noun(nxt)}"
        return NPToken("NAME_PART", word, phrase) if self._in_names(phrase) else None

    @lru_cache(maxsize=2048)  # noqa: B019 - one tagger per building, kept as long as its parser
    def _in_names(self, phrase: str) -> bool:
        return any(phrase in text for text, _cls in self.lex.all_names)
