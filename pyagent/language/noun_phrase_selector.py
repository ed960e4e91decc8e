"""A typed ``NounPhrase`` -> the action schema's selector, for one building and one moment of the dialogue.

What each part of the phrase means: the head's classes or kind, the storey and room it names (resolved
against the building and the user's place), relations to the user or to what another phrase names,
comparisons in metres, ordering and limits ("the two nearest", "the third", "the last"), and whether the
phrase is about one thing ("the door") or many ("doors", "all"). Where the phrase says something this
reading does not decide, ``NotCovered`` is raised and the phrase names nothing (``Parser.selector``: None).
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING, Any

from pyagent.language import rx as re  # re's functions, with a cache that holds all the front end's patterns
from pyagent.language.lexicon import COMPASS_WORDS, NAME_WORDS, looks_like_mark
from pyagent.language.noun_phrase import Head, NounPhrase, Relation
from pyagent.language.noun_phrase_tokens import PLACE_PARTS, SELECTION_PHRASES, UNIT_WORDS
from pyagent.language.units import length_units
from pyagent.vocabulary import KIND_WORDS, singular_noun

if TYPE_CHECKING:
    from pyagent.language.parser import ParseContext, Parser

Selector = dict[str, Any]

_ORDER = ("nearest", "furthest", "largest", "smallest", "tallest", "highest", "lowest", "widest")
#: Modifiers that say where outside a thing is (data/name_words.yaml).
_OUTDOOR_MODIFIERS = frozenset(NAME_WORDS["outdoor_modifiers"])
_NEAR_WORDS = frozenset({"near", "near to", "close to", "around", "nearby"})
_UNSURE_STOREY = ("upstairs", "downstairs", "upper floor", "ground floor", "top floor")
#: The user's own floor, said so.
_THIS_FLOOR = frozenset({"this floor", "this level", "this storey", "my floor", "our floor", "the floor i am on",
                         "this story", "the same floor"})


def _rooms_named_on(parser: Parser, room_ids: list[str], side: str, said_as_place: bool = False) -> list[str]:
    """Those of ``room_ids`` whose name or long name carries a word for ``side`` (east, west, north, south) in
    one of the languages buildings are written in (data/room_words.yaml, compass). A side said as a place
    (``said_as_place``: "the office at the west end", not "the west office") is the geometry's: a room whose
    name gives it the lie is not among them."""
    words = COMPASS_WORDS.get(side, ())
    els = parser.building.elements
    out = []
    for r in room_ids:
        el = els.get(r)
        said = set(re.findall(r"[^\W\d_]+", f"{el.name} {el.long_name}".lower())) if el is not None else set()
        if said & set(words):
            out.append(r)
    # said as a place, a name the geometry gives the lie to (the room named "west" lies east) is not trusted
    degrees = parser.building.compass_heading(side)
    if not said_as_place or degrees is None or len(room_ids) < 2:
        return out
    heading = math.radians(degrees)

    def score(r: str) -> float:
        el = els[r]
        centre = (el.bbox_min[:2] + el.bbox_max[:2]) / 2.0
        return float(centre[0] * math.cos(heading) + centre[1] * math.sin(heading))

    rooms = [r for r in room_ids if r in els and els[r].has_geometry]
    middle = sum(score(r) for r in rooms) / len(rooms) if rooms else 0.0
    return [r for r in out if r not in rooms or score(r) >= middle]


class NotCovered(Exception):
    """The phrase says something this reading does not decide: it names nothing here."""


def _said_in_names(head_text: str, sel: dict[str, Any], ctx: ParseContext) -> str | None:
    """One thing said with a class noun other than the class's own word, where several would do and just one
    of them has that word in its name ("the shop entrance" where one of the shop's two doors is named "retail
    entrance"): that word, to pick it."""
    from pyagent.vocabulary import class_name_words

    word = singular_noun(head_text.split()[-1])
    own = {w for c in sel.get("class") or () for w in class_name_words(c).split()}
    if len(word) < 4 or word in own or not sel.get("class"):
        return None
    pool = {k: v for k, v in sel.items() if k not in ("limit", "order", "ordinal")}
    return word if len(ctx.scene.peek(pool)) > 1 and len(ctx.scene.peek({**pool, "name": word})) == 1 else None

#: What things are "on" as parts of it or set in it ("the mullions on the curtain wall", "the windows on the
#: south wall", "the skylights on the roof").
_FACES = frozenset({"IfcWall", "IfcCurtainWall", "IfcRoof"})
#: Words for the things of a section size said after it ("the HEB 300 profiles").
_PROFILE_WORDS = frozenset({"profiles", "profile", "sections", "section", "sizes", "size", "bars", "shapes"})
#: Classes that make up a roof, a floor, a ceiling or a wall: a place part said before one says where it is ("the
#: ceiling slab", "the wall panels"), not another thing ("the roof windows").
_PARTS_OF_PLACES = frozenset({"IfcSlab", "IfcPlate", "IfcBeam", "IfcMember", "IfcCovering"})

def selector_of(phrase: NounPhrase, parser: Parser, ctx: ParseContext, allow_empty: bool = False) -> Selector | None:
    """The selector ``phrase`` means, or None when it names nothing here (as ``Parser.selector``)."""
    from pyagent.language.parser import _has_noun, one_or_many

    if phrase.words_after:
        raise NotCovered("unknown words after the head")
    if phrase.house_number is not None:
        # "the kitchen in house 2", "the stairs in house 5": the phrase without it, in the dwelling numbered so
        bare = dataclasses.replace(phrase, house_number=None)
        if bare.head is None and not (bare.rooms or bare.storeys or bare.relations):
            bare = dataclasses.replace(bare, head=Head("house", "house", "house"))
        inner = selector_of(bare, parser, ctx, allow_empty)
        if inner is None:
            return None
        if bare.head is None and len(bare.rooms) == 1 and bare.rooms[0].entry is not None \
                and inner.get("class") == ["IfcSpace"]:
            inner = {**inner, "ids": sorted(bare.rooms[0].entry.ids)}  # every kitchen: that house's is among them
        numbered = {"rel": "unit", "number": phrase.house_number}
        return {**inner, "relations": [*inner.get("relations", []), numbered]}
    if phrase.rooms_listed:  # "the kitchen and the WC"; in a duplex, the kitchen the user means of the two
        ids: set[str] = set()
        for listed in phrase.rooms:
            if listed.entry is None:
                continue
            if phrase.storeys:  # "the bedrooms and bathrooms upstairs": every one so named, on that floor
                ids |= set(listed.entry.ids)
                continue
            one = parser._room_selector(list(listed.entry.ids), ctx, plural=listed.plural)
            ids |= set(ctx.scene.peek(one) if one.get("limit") == 1 else one["ids"])
        if not ids:
            return None
        listed_sel: Selector = {"class": ["IfcSpace"], "ids": sorted(ids)}
        if phrase.storeys and not _storey_into(listed_sel, phrase, parser, ctx):
            return None
        return listed_sel
    if len(phrase.rooms) > 1 or len(phrase.storeys) > 1 or len(phrase.marks) + len(phrase.value_marks) > 1:
        raise NotCovered("more than one room, storey or mark")
    if phrase.head is None and phrase.marks and phrase.words_before \
            and set(phrase.words_before) <= UNIT_WORDS | _PROFILE_WORDS:
        phrase = dataclasses.replace(phrase, words_before=())  # "the HEB 300 sections": the things of that mark
    if phrase.head is None and phrase.words_before and not phrase.rooms:
        raise NotCovered("unknown words with no head")
    if phrase.head is not None and phrase.head.kind in ("front_door", "pronoun", "house") and phrase.words_before \
            and phrase.sides:
        # "the thingamajig outside the front door": the unknown thing is what is meant, not the door ("to get out
        # through the front door" is the door)
        raise NotCovered("an unknown thing beside a head that takes no name word")
    head = phrase.head
    if head is not None and head.noun_before and head.kind == "class":
        before = parser.lex.class_words.get(head.noun_before) or parser.lex.class_words.get(
            singular_noun(head.noun_before)) or ()
        if before and not set(before) & set(head.value[1]) \
                and not (head.noun_before in PLACE_PARTS and set(head.value[1]) & _PARTS_OF_PLACES):
            raise NotCovered("two class nouns of different things ('the roof windows')")
    sel: Selector = {}
    relations: list[dict[str, Any]] = []
    if phrase.exclusion is not None:
        ex = parser._exclusion(phrase.exclusion, ctx)
        if ex is not None and head is not None and head.kind == "class" and "IfcSpace" in head.value[1] \
                and ex.get("class") and "IfcSpace" not in ex["class"]:
            # "the rooms, not counting the roof": not the rooms of the storey so named, if one is
            words = [w for w in phrase.exclusion.split() if w not in ("the", "a", "all", "of", "level", "floor",
                                                                     "storey")]
            st = next((st for st in parser.building.storeys if words and re.findall(r"[^\W\d_]+", st.name.lower())
                       == words), None)
            ex = {"storey": st.name} if st is not None else ex
        if ex is not None:
            sel["except"] = ex
    if phrase.head is not None and phrase.head.kind == "house":  # "the whole building (except the roof)"
        if phrase.rooms or phrase.storeys or phrase.relations or phrase.comparisons or phrase.name or phrase.marks \
                or phrase.value_marks or phrase.numbers or phrase.superlatives or phrase.sides or phrase.compass \
                or phrase.words_before:
            raise NotCovered("the house with other words")
        return sel

    order_near_anchor = False
    rooms_asked = head is not None and head.kind == "class" and "IfcSpace" in head.value[1] \
        or head is None and len(phrase.rooms) == 1  # "the office next door"
    said_relations: list[Relation] = []
    other_unit = False
    for r in phrase.relations:
        if rooms_asked and r.rel == "in" and r.anchor is None and r.words != "in":
            continue  # "the biggest room in this office": no room is in the user's room; the place is the building
        if r.rel == "connecting":  # "the door that connects the hall and the kitchen": in both
            said_relations += [Relation("in", r.anchor, words="in"), Relation("in", r.other, words="in")]
        elif r.rel == "other_unit" and r.words == "next door" and rooms_asked and _one_dwelling(ctx):
            # "the room next door" in a building of one dwelling (an office): a room beside the user's
            relations.append({"rel": "adjacent", "of": {"class": ["IfcSpace"], "room": "mine"}})
        elif r.rel == "other_unit":  # "the kitchen in the other unit": anywhere but the user's own unit
            other_unit = True
        elif r.rel.startswith("unit_") and r.anchor is None:  # "in the east flat": that dwelling
            relations.append({"rel": "unit", "pick": r.rel.removeprefix("unit_")})
        elif r.rel == "outside":  # "the steps outside the door": outside, by it
            sel["external"] = True
            said_relations.append(Relation("near", r.anchor, words=r.words))
        elif r.rel == "in" and r.anchor is None and not parser.lex.rooms:
            continue  # "how many columns have we got in here (in this hall)" in a building of no rooms: in it
        else:
            said_relations.append(r)
    one_whole: set[int] = set()
    for r in said_relations:
        got = _relation(r, parser, ctx)
        if got is not None and got["rel"] == "connected" and not rooms_asked and head is not None:
            got["rel"] = "in"  # "the doors off the hall": the hall's doors
        if got is None:
            raise NotCovered("a relation to something that names nothing here")
        if r.words in ("closest to", "nearest to") and r.anchor is not None:
            order_near_anchor = True
        if r.rel == "part_of" and r.anchor is not None and r.anchor.head is not None and not r.anchor.head.plural \
                and not r.anchor.quantifiers:
            one_whole.add(len(relations))  # "in the wall": one wall, though its parts are all of it
        relations.append(got)
    _speaker_side_to_anchor(relations, ctx, one_whole)

    for c in phrase.comparisons:
        unit = length_units().get(c.unit or "m", 1.0)
        value = c.number * (unit ** (2 if c.key == "area" else 1))
        sel.setdefault("where", []).append({"key": c.key, "cmp": c.cmp, "value": round(value, 6)})
    if phrase.name is not None:
        sel["name"] = phrase.name.strip()
    if phrase.marks and "name" not in sel:
        sel["name"] = phrase.marks[0]
    for key, held in phrase.value_marks:  # "the M12 bolts": those whose "Bolt Name" holds M12
        sel.setdefault("where", []).append({"key": key, "cmp": "contains", "value": held})
    if "name" not in sel and not phrase.value_marks and head is not None and head.kind == "class":
        # "the M16 bolts" where nothing is marked so: kept as a name, so that the answer says there is none
        # instead of picking every bolt
        said_mark = next((w for w in phrase.words_before if looks_like_mark(w)), None)
        if said_mark is not None:
            sel["name"] = said_mark
    if phrase.name_parts:
        part = phrase.name_parts[0]
        side_word = parser.noun_phrases.tagger.closed.get((part.split()[0],), ("", None))
        if side_word[0] == "SIDE" and head is not None and head.kind == "class" \
                and parser.noun_phrases.tagger.flags_sides(tuple(head.value[1])):
            sel["external"] = bool(side_word[1])  # "the exterior walls" in a file that says which are: its flag
        else:
            sel["name"] = part
    for side in phrase.compass:
        relations.append({"rel": side})

    # Storey.
    if phrase.storeys and not _storey_into(sel, phrase, parser, ctx):
        return None  # a storey the building does not have: the caller explains

    # Room.
    room = phrase.rooms[0] if phrase.rooms else None
    room_ids: list[str] | None = None
    room_plural = False
    if room is not None:
        if room.entry is None:
            here = ctx.user_room()
            if here is None:
                raise NotCovered("this room, said outside any room")
            room_ids = [here]
        else:
            room_ids, room_plural = list(room.entry.ids), room.plural
            if "this" in phrase.demonstratives and phrase.words_before and ctx.user_room() in room_ids:
                # "this middle office", "this little bedroom": the room the user stands in, described
                room_ids = [str(ctx.user_room())]
                phrase = dataclasses.replace(phrase, words_before=())
            other = "other" in phrase.words_before or phrase.unknown_place == "other" or other_unit
            if other and len(room_ids) > 1 and ctx.user_room() in room_ids:
                # "the other kitchen", "the cupboards in the other kitchen", "the kitchen in the other half": of
                # the rooms so called, those the user is not in
                room_ids = [r for r in room_ids if r != ctx.user_room()]
                phrase = dataclasses.replace(phrase, words_before=tuple(w for w in phrase.words_before
                                                                        if w != "other"),
                                             unknown_place=None if phrase.unknown_place == "other"
                                             else phrase.unknown_place)
            if phrase.words_before and len(room_ids) > 1:  # "the teacher changing room": the one named so
                room_ids = parser.rooms_named_by(room_ids, phrase.words_before) or room_ids
            if phrase.compass and len(room_ids) > 1:
                # "the living room on the east side" where the rooms are "Stue øst" and "Stue vest": the one
                # whose name says that side (then no side of the user's is asked)
                side = phrase.compass[0]
                named = _rooms_named_on(parser, room_ids, side, said_as_place=not re.search(
                    rf"\b(the|this|our|my) {side}(ern)? (?!(side|end|wing|part|corner|half|facade)\b)[a-z]",
                    ctx.raw.lower()))
                if len(named) == 1:
                    room_ids = named
                    relations[:] = [r for r in relations if r.get("rel") not in phrase.compass]
            if sel.get("storey"):
                from pyagent.language.parser import RoomHit
                hit = parser._rooms_up_or_down(RoomHit(room_ids, (0, 0), room_plural), sel, phrase.text, ctx)
                room_ids, room_plural = hit.ids, hit.plural
    said_size = room.size if room is not None and room.size else (phrase.sizes[0] if phrase.sizes else None)
    size = said_size if room_ids is not None and len(room_ids) > 1 and not room_plural \
        else None  # "the small bathroom" of several
    room_as_target = False
    if room_ids is not None:
        # "the windows in the kitchen", "everything in the kitchen": things in the room, not the room.
        other_noun = head is not None and (head.kind in ("class", "kind", "front_door") or (
            head.kind == "things" and any(t.type == "LOCATIVE" for t in phrase.tokens)))
        room_word = head is not None and head.kind == "class" and head.value[0] in ("room", "space")
        if other_noun and not room_word:
            # "the cellar windows" (a room word before a plural noun): those of every such room, unless the
            # user stands in one of them
            types = [t.type for t in phrase.tokens]
            first_room = types.index("ROOM") if "ROOM" in types else len(types)
            nouns = [i for i, k in enumerate(types) if k in ("CLASS", "KIND")]
            said_all = any(q.split()[0] in ("all", "every", "each", "both") for q in phrase.quantifiers)
            every = bool(head is not None and head.plural and nouns and first_room < nouns[-1]
                         and (len(room_ids) > 2 or said_all) and ctx.user_room() not in room_ids)
            in_room = parser._room_selector(room_ids, ctx, plural=room_plural or every)
            relations.append({"rel": "in", "of": _sized(in_room, room_ids, size)})
        else:
            room_as_target = True

    # References to what was said or picked before.
    core = f" {phrase.core} "
    if head is not None and head.kind == "pronoun":
        sel["ref"] = "selected" if head.text in SELECTION_PHRASES else "it"
    elif phrase.demonstratives and room is None and (head is None or head.kind not in ("class", "kind")) \
            and not (head is not None and head.kind == "name" and not ctx.selected and not ctx.scene.it()):
        sel["ref"] = "selected" if ctx.selected else "it"  # (not "that plumbing wall" said first: by its name)
    elif phrase.demonstratives and ctx.selected and room is None:
        sel["ref"] = "selected"

    # The front door; outside / inside.
    if head is not None and head.kind == "front_door":
        sel["external"] = True
        door = parser._front_door()
        if isinstance(door, str):
            sel["name"] = door
        elif door:
            sel["ids"] = door
            if len(door) > 1 and not head.plural:
                sel["order"], sel["limit"] = "nearest", 1
    elif phrase.sides:
        sel["external"] = phrase.sides[0]

    # Ordering and limits.
    order = next((o for o in _ORDER if o in phrase.superlatives), None)
    if order_near_anchor:
        order = None
    if order:
        sel["order"] = order
    if phrase.ordinal is not None:
        sel["ordinal"] = phrase.ordinal
        sel.setdefault("order", "nearest")
    if phrase.last and "ordinal" not in sel:
        sel["order"] = "furthest"
        sel["limit"] = 1
    m = re.search(r"\b(top|first|nearest|closest) (\d+)\b", core)
    if m:
        sel["limit"] = int(m.group(2))
        sel.setdefault("order", "nearest")
    if phrase.materials:
        classes = tuple(head.value[1]) if head is not None and head.kind == "class" else ()
        key, fragment = parser.noun_phrases.tagger.material_filter(phrase.materials[0], classes)
        sel.setdefault("where", []).append({"key": key, "cmp": "contains", "value": fragment})

    # The head.
    noun_found = False
    if head is not None and head.kind == "kind":
        sel["kind"] = head.value
        noun_found = True
        said = singular_noun(head.text) if " " in head.text else ""
        if said and said != head.value and said in KIND_WORDS.get(str(head.value), ()) \
                and ctx.scene.peek({"kind": head.value, "name": said}):
            sel["name"] = said  # "the upper cabinets": of the cabinets, those named so
    elif head is not None and head.kind in ("class", "front_door"):
        word, classes = head.value if head.kind == "class" else ("door", parser.lex.class_words.get("door", ()))
        if word == "floor" and re.search(r"\bfloors? (of|on)\b", phrase.text):
            classes = ("IfcSlab",)
        elif head.text == "floors" and not re.search(r"\b(slab|slabs|finish|tiles?)\b", phrase.text):
            classes = ("IfcBuildingStorey",)
        sel["class"] = list(classes)
        noun_found = True
    if noun_found and "name" not in sel and not sel.get("ref"):
        mod = parser._name_modifier(core, sel)
        said_as = parser.noun_phrases.tagger.closed.get(tuple(mod.split())) if mod else None
        if mod and not (said_as is not None and said_as[0] == "SIDE"):  # "the exit door": outside, not a name
            sel["name"] = mod
            if mod in _OUTDOOR_MODIFIERS and sel.get("class") and not ctx.scene.peek(sel):
                # "the balcony railings" where none is named for a balcony: the ones outside
                del sel["name"]
                sel["external"] = True

    elif phrase.words_before and not noun_found and not (room_as_target and room_ids is not None):
        # before a room word they describe the rooms ("the open-plan offices"): a room named with them
        # would have been read as that room
        raise NotCovered("unknown words before a head that is no class, kind or room")
    if room_as_target and room_ids is not None:
        noun_found = parser.room_as_head(sel, relations, room_ids, room_plural, core, noun_found, ctx)
        if size is not None and "ids" in sel:
            sel.update(_sized(sel, room_ids, size))
    name_plural = parser.name_as_head(sel, core) if noun_found else False
    if not noun_found and head is not None and head.kind == "name":
        sel["name"] = head.value
        name_plural = head.plural
        noun_found = True
    if not noun_found and head is not None and head.kind == "things":
        noun_found = True
    if not noun_found and head is None and room is None and any(q.startswith("all") for q in phrase.quantifiers):
        noun_found = True  # "hide all": everything
    if not noun_found and head is not None and head.kind == "one":
        if not ctx.last_steps():
            raise NotCovered("'one' with nothing said before")
        last = ctx.last_steps()[-1]
        prev = last.get("target") or last.get("to") or {}
        for k in ("class", "kind", "name", "ids", "storey", "room", "where"):
            if k in prev and k not in sel:
                sel[k] = prev[k]
        noun_found = _has_noun(sel)
    if phrase.unknown_place is not None:
        from pyagent.language.parser import UNKNOWN_ROOM_STOP
        place = phrase.unknown_place
        if room is not None or phrase.storeys or place in UNKNOWN_ROOM_STOP or len(place) < 3 or not place.isalpha():
            raise NotCovered("a place word that is no room here")
        if phrase.unknown_place_classes and "IfcSpace" not in phrase.unknown_place_classes:
            raise NotCovered("a word before a noun that is no room ('in the garage wall')")
        sel["room"] = place  # the answer says there is no such room and names the rooms there are
    glazed = [w for w in sel.get("where", []) if w.get("key") == "material" and "glas" in str(w.get("value")).lower()]
    if glazed and set(sel.get("class") or ()) <= {"IfcDoor", "IfcWindow"} and sel.get("class") \
            and not ctx.scene.peek({**sel, "relations": relations} if relations else sel):
        # "the glass terrace doors" where no door's material says glass (a door's glazing is seldom its
        # material): the doors said, glass or not
        rest = [w for w in sel["where"] if w not in glazed]
        plain = {**{k: v for k, v in sel.items() if k != "where"}, **({"where": rest} if rest else {})}
        if ctx.scene.peek({**plain, "relations": relations} if relations else plain):
            sel = plain
    mine = {"class": ["IfcSpace"], "room": "mine"}
    if {"rel": "adjacent", "of": mine} in relations:  # "the room next door on the north side": of the user's room
        relations = [{**r, "of": mine} if r["rel"] in ("north", "south", "east", "west") and "of" not in r else r
                     for r in relations]
    if relations:
        sel["relations"] = relations[:4]
    if not noun_found and not sel.get("ref") and not relations and not sel.get("name"):
        if sel.get("storey") and not allow_empty:
            return sel
        return sel if allow_empty and sel else None
    # A number: "two windows" -> the two nearest; "all ten bathrooms" says how many there are.
    counted = any(q.split()[0] in ("all", "every", "each", "both") for q in phrase.quantifiers)
    if phrase.numbers and not counted and "limit" not in sel and noun_found and not sel.get("where") \
            and phrase.numbers[0] < 100:
        sel["limit"] = int(phrase.numbers[0])
        # "the two big columns": the two biggest (of those there); else the nearest
        sel.setdefault("order", phrase.sizes[0] if phrase.sizes and size is None else "nearest")
    said_head = core.replace(f" {head.noun_before} ", " ", 1) if head is not None and head.noun_before else core
    said_plural = head is not None and head.plural and head.kind in ("class", "kind", "things")  # "the toilet bowls"
    if noun_found and not name_plural and not said_plural:
        one_or_many(sel, said_head, parser._heads, relations, order)
        if sel.get("limit") == 1 and head is not None and head.kind == "class" and "name" not in sel:
            in_names = _said_in_names(head.text, sel, ctx)
            if in_names:
                sel["name"] = in_names
    one_room = sel.get("class") == ["IfcSpace"] and "ids" not in sel and "limit" not in sel
    if phrase.sizes and size is None and noun_found and not said_plural and (sel.get("limit") == 1 or one_room) \
            and "order" not in sel and (sel.get("relations") or sel.get("storey") or one_room) and not room_as_target:
        sel["order"] = phrase.sizes[0]  # "the big garage door": the biggest of the doors there; "the big room
        sel["limit"] = 1  # upstairs": the biggest room there; "the big room" of the building its biggest
    elif phrase.sizes and size is None and noun_found and not said_plural and sel.get("limit") == 1 \
            and sel.get("class") and sel["class"] != ["IfcSpace"] and not room_as_target \
            and not any(k in sel for k in ("order", "relations", "storey", "room", "ids", "name", "ref", "where")):
        # "a desk in front of the big window": the biggest window of the room the user is in (of the building
        # where the user is in none, or that room has none)
        if ctx.user_room() is not None and ctx.scene.peek({"class": sel["class"], "room": "mine"}):
            sel["room"] = "mine"
        sel["order"] = phrase.sizes[0]
    if phrase.demonstratives and head is not None and head.kind in ("class", "kind") and not head.plural \
            and not phrase.quantifiers and not relations and room is None \
            and not set(sel.get("class") or ()) & _ALL_AROUND \
            and not any(k in sel for k in ("ref", "ids", "name", "storey", "order", "ordinal", "where")):
        # "that window", "this door": the one just spoken of where it is one, else the one before the user's eyes
        # (of several: "this roof" of a house with one is that roof)
        it = [parser.building.elements[g] for g in ctx.scene.it() if g in parser.building.elements]
        if len(it) == 1 and "class" in sel and it[0].ifc_class in sel["class"]:
            sel = {"ref": "it"}
        elif len(ctx.scene.peek({k: v for k, v in sel.items() if k in ("class", "kind")})) > 1:
            sel.update({"relations": [{"rel": "in_front"}], "order": "nearest", "limit": 1})
    if sel.get("class") == [] and "kind" not in sel:
        sel.pop("class")
    if sel.get("ref") == "selected" and phrase.demonstratives and len(ctx.selected) == 1 \
            and ("kind" in sel or "class" in sel) and not ctx.scene.peek(sel):
        # "shift this bed" with one thing picked that its file does not call a bed: the thing picked
        sel = {"ref": "selected"}
    if other_unit:  # "the rooms next door": not the rooms of the user's unit (things of the same class or kind)
        sel["except"] = {**{k: sel[k] for k in ("class", "kind") if k in sel}, "relations": [{"rel": "unit"}]}
    return sel


#: Classes one stands in, on or under rather than looks at: "this roof", "this floor" is not the one in front.
_ALL_AROUND = frozenset({"IfcRoof", "IfcSlab", "IfcCovering", "IfcSite", "IfcBuilding", "IfcBuildingStorey",
                         "IfcSpace", "IfcStair", "IfcStairFlight"})


def _one_dwelling(ctx: ParseContext) -> bool:
    """Is the building one dwelling (every room in the user's)?"""
    rooms = set(ctx.scene.peek({"class": ["IfcSpace"]}))
    return bool(rooms) and rooms <= set(ctx.scene.peek({"class": ["IfcSpace"], "relations": [{"rel": "unit"}]}))


def _sized(room: Selector, ids: list[str], size: str | None) -> Selector:
    """The room selector, or, for "the small bathroom" of several, the smallest (largest) of them."""
    if size is None:
        return room
    return {"class": ["IfcSpace"], "ids": sorted(ids), "order": size, "limit": 1}


def _anchor(phrase: NounPhrase, parser: Parser, ctx: ParseContext, each: bool = False) -> Selector | None:
    """The one thing a relation is to; with ``each`` (over, under), all of a plural phrase ("the canopies
    over the front doors": over each of them)."""
    from pyagent.language.parser import _has_noun, _singular

    sel = selector_of(phrase, parser, ctx)
    if sel is None or not _has_noun(sel):
        return None
    if each and phrase.head is not None and phrase.head.plural and not phrase.superlatives \
            and phrase.ordinal is None:
        return sel
    return _singular(sel, phrase.text, force=True)


_SPEAKER_SIDES = ("in_front", "behind", "left", "right")


def _speaker_side_to_anchor(relations: list[dict[str, Any]], ctx: ParseContext, one_whole: set[int]) -> None:
    """"The thing under the window in front of me": where the thing the relation is to is one of several
    ("the window") and the user's side is said right after it, that side picks out the window; so too the
    whole said in the singular that parts are in ("the windows in the wall I'm looking at": that wall's)."""
    for i, r in enumerate(relations[:-1]):
        after = relations[i + 1]
        of = r.get("of")
        if not isinstance(of, dict) or after.get("rel") not in _SPEAKER_SIDES or "of" in after:
            continue
        if (of.get("limit") != 1 and i not in one_whole) \
                or any(k in of for k in ("order", "ids", "ref", "relations", "room")):
            continue
        if len(ctx.scene.peek({k: v for k, v in of.items() if k != "limit"})) < 2:
            continue
        r["of"] = {**of, "relations": [after], "order": "nearest", "limit": 1}
        del relations[i + 1]
        return


def _relation(r: Relation, parser: Parser, ctx: ParseContext) -> dict[str, Any] | None:
    from pyagent.language.parser import _has_noun

    if r.anchor is None:
        if r.rel == "within":
            return {"rel": "within", "distance": round(r.distance or 0.0, 4)}
        return {"rel": r.rel}
    anchor = _anchor(r.anchor, parser, ctx, each=r.rel in ("above", "below"))
    if anchor is None:
        return None
    if r.rel == "part_of":  # "the panels in the curtain wall": parts of it or set in it
        if r.words not in ("in", "inside", "of", "into", "on"):
            return None
        whole = selector_of(r.anchor, parser, ctx)  # "the roof" of two halves is all of it
        if whole is None:
            return None
        if r.words == "on" and not set(whole.get("class") or ()) & _FACES:
            return None  # "the mullions on the curtain wall" are its parts; "the lamp on the table" is not
        if not r.anchor.demonstratives and not r.anchor.numbers and r.anchor.ordinal is None \
                and not r.anchor.sizes and not r.anchor.superlatives:  # (of "the big room": of the biggest)
            whole.pop("limit", None)
            whole.pop("order", None)
        return {"rel": "in", "of": whole}
    if r.rel == "between" and r.other is None:  # "between the two floors": between the things it names
        sel = selector_of(r.anchor, parser, ctx)
        if sel is None or not _has_noun(sel):
            return None
        sel.pop("limit", None)
        return {"rel": "between", "of": sel}
    if r.rel == "between":
        other = _anchor(r.other, parser, ctx) if r.other is not None else None
        return {"rel": "between", "of": anchor, "and": other} if other is not None else None
    if r.rel == "within":
        return {"rel": "within", "distance": round(r.distance or 0.0, 4), "of": anchor}
    if r.rel == "nearest_to":
        return {"rel": "near", "of": anchor, "distance": 100.0}
    if r.rel == "next_to" and anchor.get("limit") == 1 and not set(anchor) & {"order", "ids", "ref", "name"} \
            and r.anchor.head is not None and r.anchor.head.kind in ("class", "kind") \
            and not (r.anchor.demonstratives or r.anchor.superlatives or r.anchor.numbers or r.anchor.ordinal):
        anchor.pop("limit")  # "the bench by the window": by any window, not one window picked for it
    if r.rel == "near" or r.words in _NEAR_WORDS:
        return {"rel": "near", "of": anchor}
    return {"rel": r.rel, "of": anchor}


def _storey_into(sel: Selector, phrase: NounPhrase, parser: Parser, ctx: ParseContext) -> bool:
    """Put the storey the phrase names into ``sel``; False for a storey the building does not have (the caller
    explains), NotCovered for a storey word that names no storey here."""
    said = phrase.storeys[0].text
    level = parser.upper_level(said)
    spec = "" if level is not None else parser._storey_spec(f" {said} ", ctx)
    if level is not None:  # "the rooms upstairs" in a file of one storey whose rooms stand at two levels
        head = phrase.head
        if head is not None and head.kind == "class" and "IfcSlab" in head.value[1]:
            level = {**level, "key": "top"}  # "the floor slab of the upper level": the slab under its rooms
        sel.setdefault("where", []).append(level)
    elif spec is None and not parser.building.storeys and said in _THIS_FLOOR:
        spec = ""  # "on this floor" in a building that records no storeys: everywhere, all one floor
    elif spec is None:
        if any(w in said for w in _UNSURE_STOREY):
            return False
        raise NotCovered("a storey word that names no storey here")
    st = parser.building.storey(spec) if spec else None
    if st is not None:
        sel["storey"] = st.name
    elif spec is not None and spec.startswith("missing:"):
        sel["storey"] = spec.removeprefix("missing:")
    return True
