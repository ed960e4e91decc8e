"""Noun phrases read by a grammar: typed tokens (``noun_phrase_tokens``) parsed with Lark
(``noun_phrase.lark``) and turned by a Transformer into a typed ``NounPhrase``: head, determiners,
number, ordinal, ordering, side, material, storey, room, relations (with their own noun phrases),
comparisons, a name, an exclusion. ``noun_phrase_selector`` makes the action schema's selector of it.

    python -m pyagent.language.noun_phrase --building ifc/AC20-FZK-Haus.ifc "the two nearest windows upstairs"

prints the tokens, the tree and the typed phrase.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import LarkError
from lark.lexer import Lexer

from pyagent.language import fast_earley
from pyagent.language.lexicon import Lexicon, RoomEntry
from pyagent.language.noun_phrase_tokens import NPToken, Tagger

GRAMMAR = Path(__file__).with_name("noun_phrase.lark")


@dataclass(frozen=True)
class Head:
    """What the phrase is about: a class noun, a kind, an element name, things in general, "one" (the
    last request's kind), a pronoun, or the front door."""

    kind: str  # class | kind | name | things | one | pronoun | front_door | house
    text: str
    value: Any = None
    plural: bool = False
    noun_before: str = ""  # a noun said before the head ("roof" in "the roof battens")


@dataclass(frozen=True)
class StoreyRef:
    text: str  # as said: "upstairs", "floor 2", "erdgeschoss"


@dataclass(frozen=True)
class RoomRef:
    entry: RoomEntry | None  # None: the user's own room ("this room")
    text: str
    plural: bool = False
    size: str | None = None  # "in the small bathroom": "smallest" of several


@dataclass(frozen=True)
class Comparison:
    key: str  # height | width | depth | length | area
    cmp: str  # gt | lt
    number: float
    unit: str | None
    area_unit: str | None = None


@dataclass(frozen=True)
class Relation:
    """A relation to the user (``anchor`` None) or to the things another phrase names."""

    rel: str
    anchor: NounPhrase | None = None
    other: NounPhrase | None = None  # "between A and B"
    distance: float | None = None  # metres, for "within"
    words: str = ""  # the relation as said ("near", "next to", "closest to")


@dataclass(frozen=True)
class NounPhrase:
    head: Head | None
    text: str
    articles: tuple[str, ...] = ()
    quantifiers: tuple[str, ...] = ()
    demonstratives: tuple[str, ...] = ()
    numbers: tuple[float, ...] = ()
    ordinal: int | None = None
    superlatives: tuple[str, ...] = ()
    last: bool = False
    sides: tuple[bool, ...] = ()  # True: outside
    sizes: tuple[str, ...] = ()  # "smallest" | "largest": "the small bathroom" of several
    materials: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()
    value_marks: tuple[tuple[str, str], ...] = ()  # marks in property values: (property, value)
    name_parts: tuple[str, ...] = ()
    words_before: tuple[str, ...] = ()  # words no table knows, before the head
    words_after: tuple[str, ...] = ()  # ... after it (none of the readings below uses them)
    storeys: tuple[StoreyRef, ...] = ()
    rooms: tuple[RoomRef, ...] = ()
    rooms_listed: bool = False  # "the kitchen and the WC": the rooms together, nothing else said
    compass: tuple[str, ...] = ()
    relations: tuple[Relation, ...] = ()
    comparisons: tuple[Comparison, ...] = ()
    name: str | None = None
    exclusion: str | None = None
    unknown_place: str | None = None  # "in the garage" where no room is called so
    unknown_place_classes: tuple[str, ...] = ()  # the classes of a noun after it ("the technical room")
    house_number: str | None = None  # "in house 3"
    # The phrase as the head sees it: its determiners, numbers, unknown words and head, in order,
    # without storeys, rooms or relations ("the two nearest windows").
    core: str = ""
    tokens: tuple[NPToken, ...] = field(default=(), repr=False)


class _TokenLexer(Lexer):
    """Hands the tagger's tokens to Lark."""

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, data: Any, *args: Any) -> Any:  # noqa: ANN401 - Lark's lexer interface
        for token in data:
            yield Token(token.type, token)


@lru_cache(maxsize=2)
def grammar(fast: bool = True) -> Lark:
    """The noun-phrase parser; ``fast``: with fast_earley's predictor and completer (the same trees)."""
    lark = Lark(GRAMMAR.read_text(encoding="utf-8"), parser="earley", lexer=_TokenLexer, ambiguity="resolve")
    if fast:
        fast_earley.speed_up(lark)
    return lark


@lru_cache(maxsize=4096)
def _tree_of(types: tuple[str, ...]) -> Tree[Token] | None:
    """The parse of a sequence of token types (the tree's shape depends on nothing else), or None."""
    try:
        return grammar().parse([NPToken(t, t) for t in types])  # type: ignore[arg-type]  # the lexer takes these
    except LarkError:
        return None


def _with_tokens(tree: Tree[Token], tokens: Iterator[NPToken]) -> Tree[Token]:
    """``tree`` with its leaves, in order, made of ``tokens``."""
    children: list[Tree[Token] | Token] = []
    for child in tree.children:
        if isinstance(child, Tree):
            children.append(_with_tokens(child, tokens))
        else:
            children.append(Token(child.type, next(tokens)))
    return Tree(tree.data, children)


def _np(token: Token) -> NPToken:
    value = token.value
    assert isinstance(value, NPToken)
    return value


class _ToNounPhrase(Transformer[Token, Any]):
    """The parse tree -> NounPhrase."""

    def __init__(self, tokens: list[NPToken]) -> None:
        super().__init__()
        self.tokens = tokens

    # Modifiers become (field, value) pairs; the phrase collects them.
    def modifier(self, items: list[Any]) -> tuple[str, Any]:
        item = items[0]
        if isinstance(item, tuple):
            return item
        t = _np(item)
        if t.type == "USER_RELATION":
            return "relations", Relation(str(t.value), words=t.text)
        if t.type == "HERE_ROOM":
            return "relations", Relation("in", words=t.text)
        if t.type == "THIS_ROOM":
            return "rooms", RoomRef(None, t.text)
        if t.type == "ROOM":
            return "rooms", RoomRef(t.value, t.text, t.plural)
        if t.type == "STOREY":
            return "storeys", StoreyRef(t.text)
        if t.type == "COMPASS":
            return "compass", str(t.value)
        field_of = {"ARTICLE": "articles", "QUANTIFIER": "quantifiers", "DEMONSTRATIVE": "demonstratives",
                    "NUMBER": "numbers", "ORDINAL": "ordinal", "SUPERLATIVE": "superlatives", "LAST": "last",
                    "SIDE": "sides", "MATERIAL": "materials", "MARK": "marks", "NAME_PART": "name_parts",
                    "WORD": "words", "USER_RELATION": "relations", "HERE_ROOM": "relations",
                    "THIS_ROOM": "rooms", "EXISTENTIAL": "ignored", "ADVERB": "ignored", "SIZE": "sizes"}[t.type]
        return field_of, t

    anchor_modifier = modifier

    def storey(self, items: list[Token]) -> tuple[str, Any]:
        return "storeys", StoreyRef(_np(items[-1]).text)

    def room(self, items: list[Token]) -> tuple[str, Any]:
        t = _np(items[-1])
        size = next((str(_np(i).value) for i in items if _np(i).type == "SIZE"), None)
        return "rooms", RoomRef(t.value, t.text, t.plural, size)

    def whole_house(self, items: list[Token]) -> tuple[str, Any]:
        return "everywhere", True

    def from_user(self, items: list[Token]) -> tuple[str, Any]:
        return "from_user", True

    def compass(self, items: list[Token]) -> tuple[str, Any]:
        return "compass", str(_np(items[0]).value)

    def comparison(self, items: list[Token]) -> tuple[str, Any]:
        toks = [_np(i) for i in items]
        key, cmp = toks[0].value
        unit = next((t.text for t in toks if t.type == "UNIT"), None)
        area = next((t.text for t in toks if t.type == "AREA_UNIT"), None)
        return "comparisons", Comparison(key, cmp, float(toks[1].value), unit, area)

    def named(self, items: list[Token]) -> tuple[str, Any]:
        return "name", str(_np(items[0]).value)

    def exclusion(self, items: list[Token]) -> tuple[str, Any]:
        return "exclusion", str(_np(items[0]).value)

    def within_user(self, items: list[Token]) -> tuple[str, Any]:
        toks = [_np(i) for i in items]
        metres = float(toks[1].value) * float(toks[2].value)
        return "relations", Relation("within", distance=metres, words="within")

    def next_to(self, items: list[Any]) -> tuple[str, Any]:
        t = _np(items[0])
        return "relations", Relation(str(t.value), anchor=items[1], words=t.text)

    def between(self, items: list[Any]) -> tuple[str, Any]:
        return "relations", Relation("between", anchor=items[1], other=items[3], words="between")

    def part_of(self, items: list[Any]) -> tuple[str, Any]:
        return "relations", Relation("part_of", anchor=items[1], words=_np(items[0]).text)

    def side_of(self, items: list[Any]) -> tuple[str, Any]:
        side = _np(items[0])
        if side.value:  # "outside the door": outside, by it
            return "relations", Relation("outside", anchor=items[1], words=side.text)
        return "relations", Relation("part_of", anchor=items[1], words="in")  # "inside the cupboard": in it

    def side_anchor(self, items: list[Any]) -> NounPhrase:
        return self.anchor([self.modifier([items[0]]), *items[1:]])

    def connecting(self, items: list[Any]) -> tuple[str, Any]:
        return "relations", Relation("connecting", anchor=items[1], other=items[3], words=_np(items[0]).text)

    def answer_unit(self, items: list[Token]) -> tuple[str, Any]:
        return "ignored", True

    def between_them(self, items: list[Any]) -> tuple[str, Any]:
        return "relations", Relation("between", anchor=items[-1], words="between them")

    def within(self, items: list[Any]) -> tuple[str, Any]:
        toks = [_np(i) for i in items[:3]]
        metres = float(toks[1].value) * float(toks[2].value)
        return "relations", Relation("within", anchor=items[4], distance=metres, words="within")

    def relation(self, items: list[Any]) -> Any:
        return items[0]

    def anchor(self, items: list[Any]) -> NounPhrase:
        head_token = _np(items[-1])
        mods = list(items[:-1])
        said = [m[1].text for m in mods if isinstance(m, tuple) and hasattr(m[1], "text")] + [head_token.text]
        own = [NPToken("WORD", w) for w in said]  # the anchor's own words, for its text
        if head_token.type in ("ROOM", "THIS_ROOM"):  # "from the kitchen", "from this room"
            entry = head_token.value if head_token.type == "ROOM" else None
            mods.append(("rooms", RoomRef(entry, head_token.text, head_token.plural)))
            return _collect(mods, own)
        return _collect([*mods, _head(head_token)], own)

    def part_anchor(self, items: list[Any]) -> NounPhrase:
        return self.anchor(items)

    def head(self, items: list[Token]) -> Head:
        head = _head(_np(items[-1]))
        if len(items) == 2 and head.kind == "things" and _np(items[0]).type in ("CLASS", "KIND"):
            # "the wall elements", "the steel members": walls (the word for things says nothing more)
            noun = _head(_np(items[0]))
            return Head(noun.kind, f"{noun.text} {head.text}", noun.value, head.plural)
        if len(items) == 2:  # "the roof battens": battens, said with the noun before them
            return Head(head.kind, head.text, head.value, head.plural, noun_before=_np(items[0]).text)
        return head

    def classes(self, items: list[Token]) -> Head:
        nouns = [_np(t) for t in items if _np(t).type == "CLASS"]
        union = tuple(dict.fromkeys(c for t in nouns for c in t.value[1]))
        return Head("class", " and ".join(t.text for t in nouns), (nouns[-1].value[0], union), True)

    def partitive(self, items: list[Token]) -> tuple[str, Any]:
        return "ignored", True

    def house_number(self, items: list[Token]) -> tuple[str, Any]:
        return "house_number", _np(items[-1]).text

    def unknown_place(self, items: list[Token]) -> tuple[str, Any]:
        toks = [_np(i) for i in items]
        word = next(t for t in toks if t.type == "WORD")
        noun = next((t for t in toks if t.type == "CLASS"), None)
        return "unknown_place", (word.text, tuple(noun.value[1]) if noun is not None else ())

    def headed(self, items: list[Any]) -> NounPhrase:
        return _collect(items, self.tokens)

    def headless(self, items: list[Any]) -> NounPhrase:
        return _collect(items, self.tokens)

    def rooms_listed(self, items: list[Any]) -> NounPhrase:
        fields: list[Any] = []
        for item in items:
            t = _np(item) if isinstance(item, Token) else None
            if t is None:
                fields.append(item)
            elif t.type == "ROOM":
                fields.append(("rooms", RoomRef(t.value, t.text, t.plural)))
            elif t.type == "ARTICLE":
                fields.append(("articles", t))
            elif t.type == "QUANTIFIER":
                fields.append(("quantifiers", t))
        return replace(_collect(fields, self.tokens), rooms_listed=True)

    def start(self, items: list[NounPhrase]) -> NounPhrase:
        return items[0]


_HEADS = {"CLASS": "class", "KIND": "kind", "NAME": "name", "THINGS": "things", "ONE": "one", "PRONOUN": "pronoun",
          "FRONT_DOOR": "front_door", "HOUSE": "house"}
_CORE = frozenset({"ARTICLE", "QUANTIFIER", "DEMONSTRATIVE", "NUMBER", "ORDINAL", "SUPERLATIVE", "LAST", "SIDE",
                   "WORD", "NAME_PART", "SIZE"})


def _head(t: NPToken) -> Head:
    plural = t.plural or (t.type == "FRONT_DOOR" and t.text.endswith("doors"))
    return Head(_HEADS[t.type], t.text, t.value, plural)


def _collect(items: list[Any], tokens: list[NPToken]) -> NounPhrase:
    """The phrase of its head and modifiers, in the order said."""
    fields: dict[str, list[Any]] = {}
    ordinal: int | None = None
    head: Head | None = None
    core: list[str] = []
    before: list[str] = []
    after: list[str] = []
    for item in items:
        if isinstance(item, Head):
            head = item
            core.extend(w for w in (item.noun_before, item.text) if w)
            continue
        if not isinstance(item, tuple):
            continue
        key, value = item
        if isinstance(value, NPToken) and value.type in _CORE:
            core.append(value.text)
        if key == "words":
            (after if head is not None else before).append(value.text)
            continue
        if key == "ignored":
            continue
        if key == "ordinal":
            ordinal = ordinal if ordinal is not None else int(value.value)
            continue
        fields.setdefault(key, []).append(value)

    def texts(key: str) -> tuple[str, ...]:
        return tuple(t.text for t in fields.get(key, []))

    place: tuple[str, tuple[str, ...]] | None = (fields.get("unknown_place") or [None])[0]

    return NounPhrase(
        head=head,
        text=" ".join(t.text for t in tokens),
        articles=texts("articles"),
        quantifiers=texts("quantifiers"),
        demonstratives=texts("demonstratives"),
        numbers=tuple(float(t.value) for t in fields.get("numbers", [])),
        ordinal=ordinal,
        superlatives=tuple(str(t.value) for t in fields.get("superlatives", [])),
        last=bool(fields.get("last")),
        sides=tuple(bool(t.value) for t in fields.get("sides", [])),
        sizes=tuple(str(t.value) for t in fields.get("sizes", [])),
        materials=tuple(str(t.value) for t in fields.get("materials", [])),
        marks=tuple(str(t.value) for t in fields.get("marks", []) if not isinstance(t.value, tuple)),
        value_marks=tuple(t.value for t in fields.get("marks", []) if isinstance(t.value, tuple)),
        name_parts=tuple(str(t.value) for t in fields.get("name_parts", [])),
        words_before=tuple(before),
        words_after=tuple(after),
        storeys=tuple(fields.get("storeys", [])),
        rooms=tuple(fields.get("rooms", [])),
        compass=tuple(fields.get("compass", [])),
        relations=tuple(fields.get("relations", [])),
        comparisons=tuple(fields.get("comparisons", [])),
        name=(fields.get("name") or [None])[0],
        exclusion=(fields.get("exclusion") or [None])[0],
        unknown_place=place[0] if place else None,
        unknown_place_classes=place[1] if place else (),
        house_number=(fields.get("house_number") or [None])[0],
        core=" ".join(core),
        tokens=tuple(tokens),
    )


class NounPhraseReader:
    """Reads noun phrases said about one building (its ``Lexicon``)."""

    def __init__(self, lex: Lexicon) -> None:
        self.tagger = Tagger(lex)
        self._cache: dict[str, NounPhrase | None] = {}
        self._tokens: dict[str, list[NPToken]] = {}

    def tokens(self, text: str) -> list[NPToken]:
        """The phrase's typed tokens (kept with its reading)."""
        text = " ".join(text.split())
        if text not in self._tokens:
            if len(self._tokens) > 4096:
                self._tokens.clear()
            self._tokens[text] = self.tagger.tokens(text)
        return self._tokens[text]

    def read(self, text: str) -> NounPhrase | None:
        """The typed noun phrase, or None when the grammar does not cover it."""
        text = " ".join(text.split())
        if text in self._cache:
            return self._cache[text]
        phrase = self._read(text)
        if len(self._cache) > 4096:
            self._cache.clear()
        self._cache[text] = phrase
        return phrase

    def _read(self, text: str) -> NounPhrase | None:
        tokens = self.tokens(text)
        if not tokens:
            return None
        shape = _tree_of(tuple(t.type for t in tokens))
        if shape is None:
            return None
        phrase = _ToNounPhrase(tokens).transform(_with_tokens(shape, iter(tokens)))
        assert isinstance(phrase, NounPhrase)
        return phrase


def main(argv: list[str] | None = None) -> int:
    from pyagent.language.parser import normalise
    from pyagent.loader import load

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--building", default="ifc/AC20-FZK-Haus.ifc")
    ap.add_argument("phrases", nargs="+")
    args = ap.parse_args(argv)
    reader = NounPhraseReader(Lexicon.build(load(args.building).building))
    for said in args.phrases:
        text = normalise(said)
        tokens = reader.tagger.tokens(text)
        print(said)
        print("  tokens:", " ".join(f"{t.type}({t.text})" for t in tokens))
        phrase = reader.read(text)
        print("  phrase:", phrase if phrase is not None else "not covered by the grammar")
    return 0


if __name__ == "__main__":
    sys.exit(main())
