"""Transcript normalisation: what the recogniser wrote -> what the language front end reads.

Lower-case words separated by single spaces. Removed: Whisper/SenseVoice special tokens
(``<|endoftext|>``, ``<|en|>``), non-speech annotations (``[BLANK_AUDIO]``, ``(music)``, ``♪``),
SentencePiece word markers (``▁``) and punctuation. Kept: apostrophes inside words ("what's"),
decimal points and minus signs of numbers ("2.5", "-3"), and "%"; "°" becomes " degrees".
"""

from __future__ import annotations

import re
import unicodedata

_SPECIAL = re.compile(r"<\|[^|>]*\|>")
_ANNOTATION = re.compile(r"\[[^\]]*\]|\([^)]*\)|\*[^*]*\*")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_DEGREES = re.compile(r"\s*°\s*(?:c\b)?", re.IGNORECASE)
# A token is a word (letters/digits, inner apostrophes) or a number (optional minus, decimals, %).
_TOKEN = re.compile(r"-?\d+(?:\.\d+)?%?(?![^\W_])|[^\W_]+(?:'[^\W_]+)*", re.UNICODE)
_DECIMAL_THEN_LETTERS = re.compile(r"(\d\.\d+)(?=[^\W\d_])")


def normalize_transcript(text: str) -> str:
    """Normalise one recogniser transcript (see the module docstring)."""
    if not text:
        return ""
    t = unicodedata.normalize("NFC", text)
    t = _SPECIAL.sub(" ", t)
    t = _ANNOTATION.sub(" ", t)
    t = t.replace("▁", " ").replace("♪", " ")
    t = t.replace("\u2019", "'").replace("\u2018", "'")  # typographic apostrophes
    t = _THOUSANDS.sub("", t)
    t = _DEGREES.sub(" degrees ", t)
    t = _DECIMAL_THEN_LETTERS.sub(r"\1 ", t)  # "2.5m" -> "2.5 m"
    t = t.lower()
    return " ".join(_TOKEN.findall(t))
