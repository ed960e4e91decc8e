"""Numbers said in words, as digits, by text2num: "two doors" -> "2 doors", "forty two" -> "42",
"eight hundred and fifty" -> "850", "zero point five" -> "0.5"; German as well ("zwei", "einundzwanzig",
"zweites" -> "2.") where a building's own names are read.

For the parser's requests (``digits``) ordinal words stay words ("the first door", "second floor",
"first, hide the doors": the parser reads ordinals itself) and so does a lone "one" ("this one",
"the one on the left"); ``number_in`` reads every number, ordinals included ("2nd", "zweites")."""

from __future__ import annotations

from functools import lru_cache

from text_to_num import alpha2digit

from pyagent.language import rx as re  # re's functions, with a cache that holds all the front end's patterns

# Words that may be ordinals ("first", "second", "third", "twentieth"; German "zweite", "dritten"):
# text2num says which really are.
_ORDINAL_SHAPE = {
    "en": re.compile(r"\b([^\W\d_]+(?:st|nd|rd|th))\b"),
    "de": re.compile(r"\b([^\W\d_]+(?:te|ten|ter|tes|tem|ste|sten|ster|stes|stem))\b"),
}
_ORDINAL = re.compile(r"\d+(st|nd|rd|th|\.)?")
_COMPOUND_ORDINAL = re.compile(r"\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[ -](first|second|third|"
                               r"fourth|fifth|sixth|seventh|eighth|ninth)\b")


@lru_cache(maxsize=4096)
def _ordinal_value(word: str, language: str) -> int | None:
    """The number an ordinal word says ("third" -> 3, "zweites" -> 2); None for any other word."""
    said = alpha2digit(word, language, threshold=0)
    found = _ORDINAL.fullmatch(said)
    if said == word or found is None or found.group(1) is None:
        return None
    return int(said.removesuffix(found.group(1)))


_DIGIT_WORDS = {"zero": "0", "oh": "0", "o": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
                "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_DIGIT = "(?:" + "|".join(_DIGIT_WORDS) + r"|\d)"
_FIRST_DIGIT = "(?:" + "|".join(w for w, d in _DIGIT_WORDS.items() if d != "0") + r"|[1-9])"
# A room or door number said digit by digit with "oh" for zero ("one oh two", "two oh one", "one zero three",
# "one point oh two"): at least one zero among three digits or more, said as single digits.
_SPELT = re.compile(rf"\b{_FIRST_DIGIT}(?: {_DIGIT}){{2,}}(?: point(?: {_DIGIT})+)?\b"
                    rf"|\b{_FIRST_DIGIT} point(?: {_DIGIT}){{2,}}\b")


def spelt_digits(text: str) -> str:
    """Numbers said digit by digit written as digits: "room one oh two" -> "room 102", "room one point oh two"
    -> "room 1.02"; only where a zero is said as "oh" or "zero" among them (else "two three doors" would
    become 23)."""
    def joined(m: re.Match[str]) -> str:
        words = m.group(0).split()
        if not any(_DIGIT_WORDS.get(w, w) == "0" for w in words):
            return m.group(0)
        return "".join("." if w == "point" else _DIGIT_WORDS.get(w, w) for w in words)
    return _SPELT.sub(joined, text)


_ORDINAL_WORD = re.compile(r"\b(\d+(?:st|nd|rd|th)|[a-z]+(?:st|nd|rd|th))\b")


def ordinal(text: str) -> int | None:
    """The first English ordinal in ``text`` ("the third door", "2nd"), up to 100; None if none."""
    for m in _ORDINAL_WORD.finditer(text):
        word = m.group(1)
        n = int(word[:-2]) if word[0].isdigit() else _ordinal_value(word, "en")
        if n is not None and 1 <= n <= 100:
            return n
    return None


def digits(text: str, language: str = "en") -> str:
    """``text`` with its cardinal numbers in words written as digits; ordinals, and "one" standing
    alone, stay words."""
    out: list[str] = []
    pending: list[str] = []
    if language == "en":  # "the twenty first of june": one ordinal, 21st (not 20 and "first")
        text = _COMPOUND_ORDINAL.sub(lambda m: alpha2digit(m.group(0), "en", threshold=0), text)
    pieces = _ORDINAL_SHAPE[language].split(text)
    for i, piece in enumerate(pieces):
        if i % 2 and _ordinal_value(piece, language) is not None:
            out.append(alpha2digit("".join(pending), language, threshold=2) if pending else "")
            out.append(piece)
            pending = []
        else:
            pending.append(piece)
    if pending:
        out.append(alpha2digit("".join(pending), language, threshold=2))
    return "".join(out)


_NUMBER = re.compile(r"(?<![\d.])(\d+)(?:st|nd|rd|th|\.|f)?(?![\d.])", re.IGNORECASE)


@lru_cache(maxsize=4096)
def number_in(phrase: str, languages: tuple[str, ...] = ("en",)) -> int | None:
    """The first whole number in ``phrase`` (words or digits, ordinal or cardinal: "level two", "the 2nd
    floor", "2F", "Zweites Obergeschoss" with "de"), read in the first of ``languages`` that finds one."""
    for language in languages:
        found = _NUMBER.search(alpha2digit(phrase, language, threshold=0))
        if found:
            return int(found.group(1))
    return None


def unglued(text: str) -> str:
    """Numbers parted from the letters after them, as the parser reads them: "2m" -> "2 m", and an ordinal
    glued to its noun "1stfloor" -> "1st floor" (also how a storey named "1stFloor" is said); an ordinal's
    own ending stays on it ("the 2nd floor")."""
    text = re.sub(r"\b(\d+)(st|nd|rd|th)(?=[a-z])", r"\1\2 ", text)
    return re.sub(r"(?<=\d)(?!(?:st|nd|rd|th)\b)(?=[a-z°²³])", " ", text)
