"""Everyday words for IFC classes and element kinds, shared by the executor and the parser."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import ifcopenshell.ifcopenshell_wrapper as wrapper

# Everyday nouns (singular) -> IFC classes they mean.
CLASS_WORDS: dict[str, tuple[str, ...]] = {
    "door": ("IfcDoor",), "doorway": ("IfcDoor",), "entrance": ("IfcDoor",),
    "window": ("IfcWindow",), "wall": ("IfcWall", "IfcCurtainWall"), "partition": ("IfcWall",),
    "slab": ("IfcSlab",), "floor": ("IfcSlab",), "roof": ("IfcRoof",),
    "stair": ("IfcStair", "IfcStairFlight"), "staircase": ("IfcStair", "IfcStairFlight"),
    "stairway": ("IfcStair", "IfcStairFlight"), "steps": ("IfcStair", "IfcStairFlight"),
    "step": ("IfcStair", "IfcStairFlight"), "flight of stairs": ("IfcStair", "IfcStairFlight"),
    "column": ("IfcColumn",), "pillar": ("IfcColumn",), "post": ("IfcColumn",),
    "beam": ("IfcBeam",), "girder": ("IfcBeam",),
    "railing": ("IfcRailing",), "handrail": ("IfcRailing",), "banister": ("IfcRailing",), "balustrade": ("IfcRailing",),
    "member": ("IfcMember",), "strut": ("IfcMember",),
    "mullion": ("IfcMember",), "transom": ("IfcMember",),
    "furniture": ("IfcFurnishingElement", "IfcFurniture"), "furnishing": ("IfcFurnishingElement", "IfcFurniture"),
    "covering": ("IfcCovering",), "ceiling": ("IfcCeiling",), "footing": ("IfcFooting",),
    "foundation": ("IfcFooting",),
    # coverings by their predefined type (``class_matches``: a covering typed CLADDING is an "IfcCladding")
    "cladding": ("IfcCladding",), "wall finish": ("IfcCladding",), "wall lining": ("IfcCladding",),
    "wall covering": ("IfcCladding",), "skirting": ("IfcSkirtingboard",), "skirting board": ("IfcSkirtingboard",),
    "floor finish": ("IfcFlooring",),
    "room": ("IfcSpace",), "space": ("IfcSpace",), "plate": ("IfcPlate",),
    "panel": ("IfcPlate",),
    "accessory": ("IfcDiscreteAccessory",), "bolt": ("IfcMechanicalFastener",), "fastener": ("IfcMechanicalFastener",),
    "assembly": ("IfcElementAssembly",), "fixture": ("IfcFlowTerminal", "IfcSanitaryTerminal"),
    "fitting": ("IfcFlowTerminal", "IfcSanitaryTerminal"), "pipe fitting": ("IfcPipeFitting",),
    "sanitary fitting": ("IfcSanitaryTerminal",), "sanitary fixture": ("IfcSanitaryTerminal",),
    "sanitary terminal": ("IfcSanitaryTerminal",), "sanitaryware": ("IfcSanitaryTerminal",),
    "plumbing fixture": ("IfcSanitaryTerminal",),
    "site": ("IfcSite",), "terrain": ("IfcSite",), "ground": ("IfcSite",),
    # building services (IFC4 classes; an IFC2X3 file's flow terminals answer by their names)
    "radiator": ("IfcSpaceHeater",), "heater": ("IfcSpaceHeater",), "space heater": ("IfcSpaceHeater",),
    "convector": ("IfcSpaceHeater",), "air vent": ("IfcAirTerminal",), "vent": ("IfcAirTerminal",),
    "air terminal": ("IfcAirTerminal",), "diffuser": ("IfcAirTerminal",), "air diffuser": ("IfcAirTerminal",),
    "grille": ("IfcAirTerminal",), "air outlet": ("IfcAirTerminal",), "air inlet": ("IfcAirTerminal",),
    "supply vent": ("IfcAirTerminal",), "extract vent": ("IfcAirTerminal",), "duct": ("IfcDuctSegment",),
    "shading device": ("IfcShadingDevice",),
    "fin": ("IfcShadingDevice",), "louvre": ("IfcShadingDevice",), "louver": ("IfcShadingDevice",),
    "sunshade": ("IfcShadingDevice",), "blind": ("IfcShadingDevice",), "shutter": ("IfcShadingDevice",),
    "appliance": ("IfcElectricAppliance",), "electrical appliance": ("IfcElectricAppliance",),
    "lift": ("IfcTransportElement",), "elevator": ("IfcTransportElement",), "escalator": ("IfcTransportElement",),
    "gutter": ("IfcPipeSegment",), "downpipe": ("IfcPipeSegment",), "pipe": ("IfcPipeSegment",),
}

# Everyday kinds found in element names and types (furniture and fittings): kind -> words to look for.
KIND_WORDS: dict[str, tuple[str, ...]] = {
    "sofa": ("sofa", "couch", "settee"), "chair": ("chair", "stuhl", "seat"),
    "armchair": ("armchair", "sessel", "lounge chair", "easy chair"),
    "table": ("table", "tisch"), "desk": ("desk", "schreibtisch"), "bed": ("bed", "bett"),
    "cabinet": ("cabinet", "cupboard", "schrank", "casework", "base cabinet", "upper cabinet"),
    "shelf": ("shelf", "shelving", "regal", "bookcase"), "wardrobe": ("wardrobe", "closet", "dresser"),
    "toilet": ("toilet", "toilet bowl", "wc", "water closet", "loo", "wc pan", "toilet pan", "wc bowl"),
    "sink": ("sink", "basin", "washbasin", "wash basin", "hand basin", "lavatory", "waschbecken", "wastafel",
             "wash hand basin", "hand wash basin", "handbasin", "vanity basin"),
    "bathtub": ("bathtub", "bath tub", "bath", "tub", "badewanne"), "shower": ("shower", "dusch", "douche"),
    "fridge": ("refrigerator", "fridge"), "stove": ("range", "stove", "cooker", "oven"),
    "dishwasher": ("dishwasher", "dish washer", "geschirrspüler", "spülmaschine", "vaatwasser", "lave-vaisselle"),
    "skylight": ("skylight", "roof window", "rooflight", "roof light", "dachfenster", "lichtkoepel", "koepel",
                 "daklicht", "dakraam", "lichtkuppel", "lanterneau"),
    "counter": ("counter", "countertop", "worktop", "küchenzeile", "kitchenette", "kitchen unit", "theke"),
    "lamp": ("lamp", "light", "light fitting", "light fixture", "luminaire", "ceiling light", "leuchte"),
    "plant": ("plant", "pflanze"), "tv": ("tv", "television"),
    # people placed for scale ("Man Standing with Turban", "Person_Sitting")
    "person": ("person", "people", "human", "human figure", "scale figure", "figure", "mannequin", "dummy",
               "man standing", "man sitting", "man walking", "woman", "mensch", "personne", "persoon", "persona",
               "pessoa"),
    "nightstand": ("nightstand", "night stand", "bedside"), "dresser": ("dresser", "chest of drawers"),
    "washer": ("washer", "washing machine"),
    "dryer": ("dryer", "drier", "tumble dryer", "tumble drier", "trockner", "wäschetrockner", "sèche-linge", "droger"),
    "switch": ("light switch", "switch", "schalter", "lichtschalter"), "bench": ("bench", "sitzbank", "bank"),
    "kitchenette": ("kitchenette", "küchenzeile", "kitchen unit", "pantry"),
    "mailbox": ("mailbox", "mail box", "letterbox", "letter box", "postbox", "briefkasten", "boîte aux lettres",
                "brievenbus", "caixa de correio", "buzón"),
    "canopy": ("canopy", "awning", "porch roof", "vordach", "überdachung", "luifel", "auvent", "marquise", "pensilina",
               "tettoia", "marquesina", "alpendre", "козырек", "козырёк"),
    "bracing": ("bracing", "brace", "wind bracing", "windbracing", "cross bracing", "windverband", "szélrács",
                "contreventement", "arriostramiento", "controvento"),
    "girder": ("girder", "ligger", "unterzug", "poutre maîtresse"),
    "joist": ("joist", "floor joist", "ceiling joist", "deckenbalken", "balkenlage", "solive", "vigueta"),
    "purlin": ("purlin", "pfette", "gording", "correa", "arcareccio"),
    "rafter": ("rafter", "sparren", "chevron", "keper", "cabio"),
    "pile": ("pile", "paal", "palen", "pfahl", "pieu", "pilote"),
    "ground beam": ("ground beam", "grade beam", "foundation beam", "fundbalk", "funderingsbalk", "fundatiebalk",
                    "fundamentbalken", "fundamentbalk", "gründungsbalken", "longrine", "viga de cimentación",
                    "viga de fundação", "viga baldrame", "trave di fondazione"),
    # precast floor and roof units
    "hollow core slab": ("hollow core", "hollow-core", "hollowcore", "hollow core plank", "hollow-core plank",
                         "hollow core floor plank", "hollow-core floor plank", "hollow core unit", "kanaalplaat",
                         "welfsel", "gewelf", "hohldiele", "hohlplatte", "hohldecke", "dalle alvéolée", "alveolaire",
                         "alveolar"),
    "double tee": ("double tee", "double-tee", "double t", "tt slab", "tt-plaat", "ttplaat", "tt", "pi slab",
                   "dalle tt", "ta plaat", "double tee slab", "double-tee slab", "double tee unit", "double t slab"),
    "downpipe": ("downpipe", "down pipe", "rainwater pipe", "rain water pipe", "drainpipe", "downspout", "fallrohr",
                 "regenfallrohr", "regenpijp", "afloop", "hemelwaterafvoer", "descente", "bajante", "pluviale"),
    "decking": ("decking", "steel decking", "steel deck", "steeldeck", "metal decking", "metal deck", "metaldeck",
                "composite decking", "composite deck", "trapezoidal sheet", "trapezoidal sheeting", "profiled sheeting",
                "profiled steel sheet", "staalplaat", "staalplaatvloer", "trapezblech", "bac acier",
                "chapa colaborante"),
    "formwork": ("formwork", "shuttering", "bekisting", "schalung", "coffrage", "encofrado", "cassaforma"),
    "lifting eye": ("lifting eye", "lifting anchor", "lifting loop", "lifting point", "hijsoog", "hijsogen",
                    "hijsanker", "transportanker", "abhebeanker", "hebeanker", "anneau de levage", "ancre de levage"),
    "brise soleil": ("brise", "brise soleil", "brise-soleil", "sunshade", "sun shade", "louvre", "louver", "lamelle"),
    "anchor": ("anchor", "anchor bolt", "holding down bolt", "holding-down bolt", "anker", "ankerbolzen", "anker bolt",
               "ancrage", "tige d'ancrage", "anclaje", "perno de anclaje", "ancoraggio", "ankerbout", "chumbador"),
}

# Coverings of no stated type, by what their names call them (IfcCovering's FLOORING, CEILING, CLADDING).
COVERING_NAME_WORDS: dict[str, tuple[str, ...]] = {
    "IfcFlooring": ("floor", "flooring", "floor finish", "floor covering", "boden", "bodenbelag", "fussboden",
                    "fußboden", "vloer", "vloerafwerking", "sol", "revêtement de sol", "suelo", "pavimento", "piso"),
    "IfcCeiling": ("ceiling", "suspended ceiling", "decke", "unterdecke", "abgehängte decke", "plafond",
                   "faux plafond", "techo", "falso techo", "controsoffitto", "teto", "forro"),
}


def covering_class_named(*names: str) -> str | None:
    """The covering class (IfcFlooring, IfcCeiling) a covering's names say it is, by a word of them as a
    whole word or the start or end of a compound ("living-floor/3", "Bodenbelag"); None where they say
    none or more than one."""
    text = " ".join(n.lower() for n in names if n)
    said = [c for c, words in COVERING_NAME_WORDS.items() if names_kind(words, text)]
    return said[0] if len(said) == 1 else None


def names_kind(words: tuple[str, ...], text: str) -> bool:
    """Does a name (lower case) say one of a kind's ``words``: as a word, or as a part of a compound at its start
    or end ("Waschbecken", "Dachfenster"), not inside another word (the "loo" of "Subflooring")? Words of
    more than one word are looked for as they are."""
    parts = re.findall(r"[^\W_]+", text)
    return any((w in text) if " " in w else any(p.startswith(w) or p.endswith(w) for p in parts) for w in words)


# Kinds of structural member the executor finds where they are when no name says them: under a floor or in the roof.
MEMBERS_BY_HEIGHT: dict[str, str] = {"joist": "floor", "rafter": "roof", "purlin": "roof"}
# ... and by their slant (bracing: a rod from a column's foot to the next one's head).
MEMBERS_BY_SLANT: frozenset[str] = frozenset({"bracing"})
# So each word of those kinds means the kind in any building, named or not.
KINDS_FOUND_BY_SHAPE: frozenset[str] = frozenset(MEMBERS_BY_HEIGHT) | MEMBERS_BY_SLANT

# The classes things of a kind are written as (furniture, fittings, fixtures, stand-ins).
KIND_CLASSES: frozenset[str] = frozenset({
    "IfcFurnishingElement", "IfcFurniture", "IfcSystemFurnitureElement", "IfcSanitaryTerminal", "IfcFlowTerminal",
    "IfcBuildingElementProxy", "IfcElectricAppliance", "IfcLightFixture", "IfcLamp"})

# A kind that names nothing in a building falls back to the broader kind it is one of: "the armchairs"
# where the lounge chairs are typed "Chair_Viper".
BROADER_KINDS: dict[str, str] = {"armchair": "chair", "desk": "table", "nightstand": "table",
                                 "wardrobe": "cabinet", "dresser": "cabinet"}


@lru_cache(maxsize=4096)
def class_ancestors(schema: str, ifc_class: str) -> frozenset[str]:
    """The class and all its supertypes in the file's schema (IfcWallStandardCase -> IfcWall, ...)."""
    names = {ifc_class}
    try:
        decl: Any = wrapper.schema_by_name(schema).declaration_by_name(ifc_class)
    except (RuntimeError, IndexError, ValueError):
        return frozenset(names)
    while decl is not None:
        names.add(decl.name())
        decl = decl.supertype() if isinstance(decl, wrapper.entity) else None
    return frozenset(names)


def class_matches(schema: str, ifc_class: str, predefined: object, wanted: set[str]) -> bool:
    """Is an element of a wanted class? Also true by predefined type: a slab of type ROOF is a roof."""
    if wanted & class_ancestors(schema, ifc_class):
        return True
    return isinstance(predefined, str) and "Ifc" + predefined.title() in wanted


def plural(word: str, n: int) -> str:
    """``word`` as a count of ``n`` needs it: "door" for one, "doors", "shelves" for more."""
    return word if n == 1 else plural_noun(word)


def _head(phrase: str) -> tuple[str, str, str]:
    """(before, head noun, after): the word a phrase inflects ("shading [device]", "[chest] of drawers")."""
    first, of, rest = phrase.partition(" of ")
    before, _, head = first.rpartition(" ")
    return (before + " " if before else ""), head, (of + rest if of else "")


def _lemma(word: str) -> str:
    from lemminflect import getLemma

    lemmas = getLemma(word, upos="NOUN")
    return lemmas[0] if lemmas else word


@lru_cache(maxsize=16384)
def plural_noun(phrase: str) -> str:
    """The plural of a noun or noun phrase (lemminflect): "door" -> "doors", "shelf" -> "shelves",
    "shading device" -> "shading devices"; a plural ("steps") or uncountable ("furniture") as it is."""
    from lemminflect import getInflection

    before, head, after = _head(phrase)
    if not head or _lemma(head) != head:
        return phrase
    forms = getInflection(head, tag="NNS")
    return f"{before}{forms[0] if forms else head}{after}"


@lru_cache(maxsize=1)
def _everyday_plurals() -> dict[str, str]:
    """The everyday nouns' plurals (as ``plural_noun`` makes them) -> the nouns: a round trip that the
    lemmatiser alone does not always make ("furnishings", words of other languages)."""
    words = set(CLASS_WORDS) | set(KIND_WORDS) | {w for ws in KIND_WORDS.values() for w in ws}
    return {plural_noun(w): w for w in sorted(words) if plural_noun(w) != w}


@lru_cache(maxsize=16384)
def singular_noun(phrase: str) -> str:
    """The singular of a plural noun or noun phrase (lemminflect): "doors" -> "door", "shelves" ->
    "shelf", "stairs" -> "stair"; any other word as it is ("glass", "this")."""
    known = _everyday_plurals().get(phrase)
    if known is not None:
        return known
    before, head, after = _head(phrase)
    return f"{before}{_lemma(head)}{after}" if head else phrase


def class_name_words(ifc_class: str) -> str:
    """A class's own name as words: IfcShadingDevice -> "shading device", IfcWallStandardCase -> "wall"."""
    base = ifc_class.removeprefix("Ifc")
    for suffix in ("StandardCase", "ElementedCase", "Type"):
        base = base.removesuffix(suffix)
    return "".join(" " + c.lower() if c.isupper() else c for c in base).strip()


def class_noun(ifc_class: str) -> str:
    """An everyday noun for a class, for answers ("IfcWallStandardCase" -> "wall")."""
    for word, classes in CLASS_WORDS.items():
        if ifc_class in classes:
            return word
    base = ifc_class.removeprefix("Ifc")
    for suffix in ("StandardCase", "ElementedCase", "Type"):
        base = base.removesuffix(suffix)
    for word, classes in CLASS_WORDS.items():
        if "Ifc" + base in classes:
            return word
    out = "".join(" " + c.lower() if c.isupper() else c for c in base).strip()
    return out or "element"
