"""Vocabulary biasing: the loaded building's own words as sherpa-onnx hotwords.

``building_hotwords(building)`` collects the phrases a user is likely to say about this building
(room names, storey names, element and type names), cleaned into lower-case word sequences.
``HotwordEncoder`` adapts them to one transducer model: it matches the case of the model's
tokens, drops phrases the model's word pieces cannot spell (sherpa-onnx would otherwise keep a
mangled token sequence), and formats them for ``recognizer.create_stream(hotwords=...)``.

sherpa-onnx tokenises hotwords itself (``modeling_unit="bpe"``) with a SentencePiece vocabulary
file. Releases that ship no ``bpe.vocab`` get one derived from ``tokens.txt`` by
``write_bpe_vocab``: every piece costs the same, so the encoder picks the spelling with the fewest
pieces, which is what a BPE model's merges produce in the common case.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyagent.model import Building

MAX_PHRASES = 200
MAX_WORDS_PER_PHRASE = 4
WORD_MARK = "▁"

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_CAMEL = re.compile(r"(?<=[a-zäöüß])(?=[A-ZÄÖÜ])")
# Words that say nothing about a building (IFC/authoring-tool boilerplate).
_BOILERPLATE = {
    "ifc", "default", "standard", "generic", "unnamed", "none", "undefined", "notdefined", "userdefined",
    "element", "object", "type", "proxy", "buildingelementproxy", "mm", "cm", "m", "x",
}


def _phrases_from_name(name: str, min_phrase: int = 2) -> list[str]:
    """'Basic Wall:Interior - 165 Partition (1-hr):138700' -> ['basic wall', 'interior', 'partition', 'hr'].

    Phrases shorter than ``min_phrase`` characters are dropped.
    """
    out: list[str] = []
    for part in re.split(r"[:;/|\\()\[\]{},]+|\s-\s", name or ""):
        part = _CAMEL.sub(" ", part)
        words = [w.lower() for w in _WORD.findall(part)]
        words = [w for w in words if len(w) > 1 and w not in _BOILERPLATE]
        phrase = " ".join(words[:MAX_WORDS_PER_PHRASE])
        if len(phrase) >= min_phrase:
            out.append(phrase)
    return out


def building_hotwords(building: Building, max_phrases: int = MAX_PHRASES) -> list[str]:
    """Phrases for biasing, most useful first: rooms, storeys, then type and element names.

    Rooms and storeys are kept in full; type and element names are ranked by how many elements
    carry them (a name shared by 40 windows matters more than a one-off), then alphabetically.
    """
    ordered: list[str] = []
    seen: set[str] = set()

    def add(phrases: Iterable[str]) -> None:
        for p in phrases:
            if p not in seen:
                seen.add(p)
                ordered.append(p)

    spaces = sorted((e for e in building.elements.values() if e.ifc_class == "IfcSpace"), key=lambda e: e.id)
    for e in spaces:
        add(_phrases_from_name(e.long_name))
        add(_phrases_from_name(e.name))
    for s in building.storeys:
        add(_phrases_from_name(s.name))
        add(_phrases_from_name(getattr(s, "long_name", "")))
    counts: Counter[str] = Counter()
    for e in building.elements.values():
        if e.ifc_class == "IfcSpace":
            continue
        # Abbreviations in element names ("hr", "og") are noise; room names like "wc" are not.
        for p in set(_phrases_from_name(e.type_name, 3) + _phrases_from_name(e.name, 3)):
            counts[p] += 1
    add(p for p, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return ordered[:max_phrases]


def read_tokens(tokens_path: Path) -> list[str]:
    """The symbols of a sherpa-onnx tokens.txt ("symbol id" per line), in id order."""
    pairs: list[tuple[int, str]] = []
    for line in tokens_path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if len(fields) == 2 and fields[1].lstrip("-").isdigit():
            pairs.append((int(fields[1]), fields[0]))
        elif len(fields) == 1 and fields[0].lstrip("-").isdigit():
            pairs.append((int(fields[0]), " "))  # a space symbol is written as just its id
    return [sym for _, sym in sorted(pairs)]


def write_bpe_vocab(tokens_path: Path, out_path: Path) -> Path:
    """A SentencePiece-style vocabulary ("piece<TAB>score") for sherpa-onnx's hotword tokenizer."""
    symbols = read_tokens(tokens_path)
    lines = [f"{sym}\t{-1.0 - i * 1e-6:.6f}\n" for i, sym in enumerate(symbols) if sym.strip()]
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_suffix(out_path.suffix + ".tmp")
    tmp.write_text("".join(lines), encoding="utf-8")
    tmp.replace(out_path)
    return out_path


@dataclass
class HotwordEncoder:
    """Adapts phrases to one model's word pieces."""

    pieces: frozenset[str]
    upper_case: bool

    @classmethod
    def from_tokens(cls, tokens_path: Path) -> HotwordEncoder:
        symbols = [s for s in read_tokens(tokens_path) if not (s.startswith("<") and s.endswith(">"))]
        letters = "".join(ch for s in symbols for ch in s if ch.isalpha())
        upper = sum(ch.isupper() for ch in letters) > sum(ch.islower() for ch in letters)
        return cls(frozenset(symbols), upper)

    def spell(self, word: str) -> list[str] | None:
        """Fewest-pieces spelling of one word (with its leading word mark), or None if impossible."""
        text = WORD_MARK + word
        n = len(text)
        best: list[list[str] | None] = [None] * (n + 1)
        best[0] = []
        longest = max((len(p) for p in self.pieces), default=0)
        for i in range(n):
            if best[i] is None:
                continue
            here = best[i]
            if here is None:
                continue
            for j in range(i + 1, min(n, i + longest) + 1):
                piece = text[i:j]
                there = best[j]
                if piece in self.pieces and (there is None or len(here) + 1 < len(there)):
                    best[j] = here + [piece]
        return best[n]

    def prepare(self, phrases: Iterable[str]) -> list[str]:
        """Phrases in the model's case that its pieces can spell; others are dropped."""
        out: list[str] = []
        for phrase in phrases:
            words = phrase.upper().split() if self.upper_case else phrase.lower().split()
            # '/' separates phrases and ':' '#' '@' start options in sherpa-onnx's hotword syntax.
            words = [w for w in words if "/" not in w and w[0] not in ":#@"]
            if words and all(self.spell(w) is not None for w in words):
                out.append(" ".join(words))
        return out

    @staticmethod
    def stream_argument(phrases: list[str]) -> str:
        """The string sherpa-onnx's create_stream(hotwords=...) takes: phrases separated by '/'."""
        return "/".join(phrases)
