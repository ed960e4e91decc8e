"""Transcript normalisation for the language front end."""

from __future__ import annotations

import pytest

from pyagent.speech.normalize import normalize_transcript


@pytest.mark.parametrize(("raw", "want"), [
    (" Hide all doors.", "hide all doors"),
    ("<|startoftranscript|><|en|> Rotate that window 90°.<|endoftext|>", "rotate that window 90 degrees"),
    ("[BLANK_AUDIO]", ""),
    ("(upbeat music) ♪ Show the kitchen ♪", "show the kitchen"),
    ("What\u2019s on the 3rd floor?", "what's on the 3rd floor"),
    ("Move it 2.5m left, then -3 metres.", "move it 2.5 m left then -3 metres"),
    ("Paint 1,000 walls 50% grey!!", "paint 1000 walls 50% grey"),
    ("▁HIDE▁ALL▁DOORS", "hide all doors"),
    ("Paint the wall light-grey", "paint the wall light grey"),
    ("Zeig mir die Küche", "zeig mir die küche"),
    ("", ""),
    ("   ", ""),
])
def test_normalize(raw, want):
    assert normalize_transcript(raw) == want


def test_idempotent():
    once = normalize_transcript("<|en|> Hello, World! It's 2.5 m.")
    assert normalize_transcript(once) == once
