"""Every supported recogniser family, loaded and decoded by sherpa-onnx through the engine layer.

The tiny models are rigged (see tiny_asr_models.py): speech decodes to the script's words,
silence to nothing. That makes the whole path — manifest, file roles, sherpa-onnx loading,
feature extraction, decoding, token tables, hotword tokenisation — checkable exactly.
"""

from __future__ import annotations

import numpy as np
import pytest
from speech_fixtures import silence, to_float16k

from pyagent.speech.engines import EngineOptions, StreamingEngine, build_engine
from pyagent.speech.hotwords import HotwordEncoder
from pyagent.speech.manifest import load_manifest
from pyagent.speech.normalize import normalize_transcript

OFFLINE = ["tiny-whisper", "tiny-moonshine", "tiny-zipformer"]


@pytest.mark.parametrize("name", OFFLINE + ["tiny-streaming"])
def test_family_decodes_speech_and_ignores_silence(tiny_models, speak, name):
    engine = build_engine(load_manifest(name, tiny_models), tiny_models)
    assert engine.streaming == (name == "tiny-streaming")
    utt = engine.open()
    utt.accept(to_float16k(speak("hide all doors")))
    assert normalize_transcript(utt.finish()) == "hide all doors"
    quiet = engine.open()
    quiet.accept(to_float16k(silence(1.5)))
    assert normalize_transcript(quiet.finish()) == ""


def test_streaming_gives_partials_before_the_end(tiny_models, speak):
    engine = build_engine(load_manifest("tiny-streaming", tiny_models), tiny_models)
    audio = to_float16k(speak("hide all doors", pad=0.0))
    utt = engine.open()
    partials = []
    for i in range(0, len(audio), 1600):
        partials.append(normalize_transcript(utt.accept(audio[i:i + 1600]) or ""))
    final = normalize_transcript(utt.finish())
    assert final == "hide all doors"
    assert any(partials), "no partial transcript while audio was still arriving"
    assert all(final.startswith(p) for p in partials)
    with pytest.raises(RuntimeError):
        utt.accept(audio[:160])


def test_engine_options_reach_sherpa(tiny_models, speak):
    engine = build_engine(load_manifest("tiny-zipformer", tiny_models), tiny_models,
                          EngineOptions(num_threads=2, max_active_paths=8))
    assert engine.transcribe(to_float16k(speak("hide all doors"))).strip() == "hide all doors"
    assert engine.transcribe(np.zeros(0, dtype=np.float32)) == ""


@pytest.mark.parametrize("name", ["tiny-zipformer-rooms", "tiny-streaming-rooms"])
def test_hotwords_bias_transducers(tiny_models, speak, name):
    """The rigged joiner prefers "bathroom" slightly; a "bedroom" hotword must win it over."""
    engine = build_engine(load_manifest(name, tiny_models), tiny_models, EngineOptions(hotwords_score=2.0))
    assert engine.hotwords is not None
    audio = to_float16k(speak("go to the bathroom"))

    def run(hotwords: str) -> str:
        utt = engine.open(hotwords)
        utt.accept(audio)
        return normalize_transcript(utt.finish())

    assert run("") == "go to the bathroom"
    phrases = engine.hotwords.prepare(["bedroom"])
    assert phrases == ["bedroom"]
    assert run(HotwordEncoder.stream_argument(phrases)) == "go to the bedroom"
    assert run(HotwordEncoder.stream_argument(engine.hotwords.prepare(["kitchen"]))) == "go to the bathroom"
    # A derived SentencePiece vocabulary was written for the model (it ships none).
    assert (tiny_models / name / ".derived" / "bpe.vocab").is_file()


def test_streaming_engine_refuses_offline_family(tiny_models):
    with pytest.raises(ValueError, match="not a streaming recogniser"):
        StreamingEngine(load_manifest("tiny-whisper", tiny_models), tiny_models, EngineOptions())
