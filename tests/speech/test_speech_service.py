"""SpeechService end to end: PCM16 chunks at device rates in, normalised transcripts out."""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest
from speech_fixtures import Speech, silence

from pyagent.model import Building, Element, Storey
from pyagent.speech import SpeechConfig, SpeechUnavailable, load_service, load_speech_service
from pyagent.speech.manifest import RECORD_NAME


def service_for(root, **overrides):
    return load_speech_service(SpeechConfig.load(env={}, overrides={"models_root": root, **overrides}))


def run_utterance(service, utt_id: int, speech: Speech, chunk_s: float = 0.1) -> tuple[list[str | None], str]:
    service.start(utt_id, speech.rate)
    partials = [service.feed(utt_id, chunk) for chunk in speech.chunks(chunk_s)]
    return partials, service.finish(utt_id)


@pytest.mark.parametrize("rate", [16000, 22050, 44100, 48000])
@pytest.mark.parametrize("name", ["tiny-whisper", "tiny-streaming"])
def test_device_rates_are_resampled(tiny_models, speak, rate, name):
    service = service_for(tiny_models, recognizer=name)
    assert service.available, service.status
    partials, final = run_utterance(service, 7, speak("hide all doors", rate=rate))
    assert final == "hide all doors"
    if name == "tiny-streaming":
        texts = [p for p in partials if p is not None]
        assert texts and texts[-1] == "hide all doors"  # partials arrived while audio was fed
        assert len(texts) == len(set(texts))  # only changes are reported
    else:
        assert partials == [None] * len(partials)


def test_tiny_chunks(tiny_models, speak):
    """5 ms chunks at 48 kHz: each resamples to 80 samples at 16 kHz."""
    service = service_for(tiny_models, recognizer="tiny-zipformer")
    assert run_utterance(service, 1, speak("hide all doors", rate=48000), chunk_s=0.005)[1] == "hide all doors"


def test_odd_sized_chunks_and_interleaved_utterances(tiny_models, speak):
    service = service_for(tiny_models, recognizer="tiny-moonshine")
    speech = speak("hide all doors", rate=44100)
    quiet = silence(1.0, 48000)
    service.start(1, speech.rate)
    service.start(2, quiet.rate)
    data, q = speech.pcm16, quiet.pcm16
    step = 1001  # odd byte counts split samples across chunks
    for i in range(0, max(len(data), len(q)), step):
        service.feed(1, data[i:i + step])
        service.feed(2, q[i:i + step])
    assert service.finish(2) == ""
    assert service.finish(1) == "hide all doors"


def test_near_silence_is_not_transcribed(tiny_models):
    """The tiny streaming model "hears" its phrase in -45 dBFS noise; a guard above that level stops it."""
    rng = np.random.default_rng(3)
    noise = rng.standard_normal(32000) * 10 ** (-45.0 / 20) * 32768
    speech = Speech(np.clip(noise, -32768, 32767).astype(np.int16), 16000)
    for guard, want in ((-50.0, "hide all doors"), (-40.0, "")):
        service = service_for(tiny_models, recognizer="tiny-streaming", silence_guard_dbfs=guard)
        assert run_utterance(service, 1, speech)[1] == want, guard


def test_utterance_protocol_errors(tiny_models):
    service = service_for(tiny_models, recognizer="tiny-whisper")
    with pytest.raises(KeyError):
        service.feed(5, b"\x00\x00")
    with pytest.raises(KeyError):
        service.finish(5)
    service.start(5, 16000)
    with pytest.raises(ValueError, match="already started"):
        service.start(5, 16000)
    with pytest.raises(ValueError, match="sample rates"):
        service.start(6, 100)
    service.cancel(5)
    with pytest.raises(KeyError):
        service.finish(5)
    service.start(5, 16000)  # the id is free again
    assert service.finish(5) == ""


def test_building_words_become_hotwords(tiny_models, speak):
    service = service_for(tiny_models, recognizer="tiny-streaming-rooms", hotwords_score=2.0)
    speech = speak("go to the bathroom")
    assert run_utterance(service, 1, speech)[1] == "go to the bathroom"
    storey = Storey(id="s0", name="Ground Floor", elevation=0.0)
    rooms = {
        "r1": Element(id="r1", ifc_class="IfcSpace", name="R1", long_name="Bedroom", storey="s0"),
        "r2": Element(id="r2", ifc_class="IfcSpace", name="R2", long_name="Küche", storey="s0"),
    }
    building = Building(path="x.ifc", schema="IFC4", file_hash="0", elements=rooms, storeys=[storey],
                        ground_storey="s0")
    usable = service.set_building(building)
    assert "bedroom" in usable and "küche" not in usable  # the tiny model cannot spell "ü"
    assert service.hotwords == usable
    assert run_utterance(service, 2, speech)[1] == "go to the bedroom"
    service.set_hotwords([])
    assert run_utterance(service, 3, speech)[1] == "go to the bathroom"


def test_hotwords_are_ignored_by_families_without_biasing(tiny_models):
    service = service_for(tiny_models, recognizer="tiny-whisper")
    assert service.set_hotwords(["bedroom"]) == []


def _one_line_naming_fix(status: str, name: str) -> None:
    assert "\n" not in status
    assert f"python -m pyagent models fetch {name}" in status


def test_model_not_installed(tiny_models, tmp_path, caplog):
    root = tmp_path / "models"
    (root / "manifests").mkdir(parents=True)
    manifest = json.loads((tiny_models / "manifests" / "tiny-whisper.json").read_text())
    (root / "manifests" / "tiny-whisper.json").write_text(json.dumps(manifest))
    service = service_for(root, recognizer="tiny-whisper")
    assert not service.available
    _one_line_naming_fix(service.status, "tiny-whisper")
    assert "not installed" in service.status
    with pytest.raises(SpeechUnavailable) as err:
        service.start(1, 16000)
    assert str(err.value) == service.status
    with caplog.at_level(logging.WARNING, logger="pyagent.speech"):
        assert load_service({"models_root": root, "recognizer": "tiny-whisper"}) is None
    assert [r.getMessage() for r in caplog.records] == [service.status]


def test_unknown_model_name(tiny_models):
    service = service_for(tiny_models, recognizer="no-such-model")
    assert not service.available
    assert "no manifest for model 'no-such-model'" in service.status and "\n" not in service.status


def test_truncated_model_file(models_copy):
    enc = models_copy / "tiny-zipformer" / "encoder.onnx"
    enc.write_bytes(enc.read_bytes()[:100])
    service = service_for(models_copy, recognizer="tiny-zipformer")
    assert not service.available
    _one_line_naming_fix(service.status, "tiny-zipformer")
    assert "damaged" in service.status and "encoder.onnx" in service.status


def test_model_that_kills_sherpa_is_caught_by_the_probe(models_copy):
    """sherpa-onnx _Exit()s on missing metadata; the child-process probe keeps us alive."""
    import onnx

    enc_path = models_copy / "tiny-streaming" / "encoder.onnx"
    model = onnx.load(str(enc_path))
    keep = [p for p in model.metadata_props if p.key != "decode_chunk_len"]
    del model.metadata_props[:]
    model.metadata_props.extend(keep)
    onnx.save(model, str(enc_path))
    manifest_path = models_copy / "manifests" / "tiny-streaming.json"
    manifest = json.loads(manifest_path.read_text())
    for f in manifest["files"]:  # same size/hash policy as a real manifest with unknown hashes
        f["size"] = f["sha256"] = None
    manifest_path.write_text(json.dumps(manifest))
    service = service_for(models_copy, recognizer="tiny-streaming")
    assert not service.available
    _one_line_naming_fix(service.status, "tiny-streaming")
    assert "failed to load" in service.status


def test_successful_probe_is_remembered_until_files_change(models_copy):
    assert service_for(models_copy, recognizer="tiny-whisper").available
    record = json.loads((models_copy / "tiny-whisper" / RECORD_NAME).read_text())
    assert record["probe"]["ok"] is True
    tokens = models_copy / "tiny-whisper" / "tokens.txt"
    tokens.touch()  # same bytes, new mtime: the signature changes and the probe runs again
    from pyagent.speech.manifest import load_manifest
    from pyagent.speech.service import _probe_ok

    assert not _probe_ok(load_manifest("tiny-whisper", models_copy), models_copy)
    assert service_for(models_copy, recognizer="tiny-whisper").available


def test_config_file_env_and_overrides(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"speech": {"recognizer": "a", "num_threads": 2}}))
    cfg = SpeechConfig.load(env={"PYAGENT_MODELS": str(tmp_path)})
    assert (cfg.recognizer, cfg.num_threads, cfg.models_root) == ("a", 2, tmp_path)
    cfg = SpeechConfig.load(env={"PYAGENT_MODELS": str(tmp_path), "PYAGENT_ASR_MODEL": "b",
                                 "PYAGENT_ASR_HANDS_FREE": "1", "PYAGENT_ASR_VAD": "none"})
    assert (cfg.recognizer, cfg.hands_free, cfg.vad) == ("b", True, None)
    cfg = SpeechConfig.load(env={"PYAGENT_MODELS": str(tmp_path), "PYAGENT_ASR_MODEL": "b"},
                            overrides={"recognizer": "c"})
    assert cfg.recognizer == "c"
    (tmp_path / "config.json").write_text(json.dumps({"speech": {"recogniser": "typo"}}))
    with pytest.raises(ValueError, match="unknown speech setting 'recogniser'"):
        SpeechConfig.load(env={"PYAGENT_MODELS": str(tmp_path)})


def test_repository_config_names_known_models():
    from pyagent.paths import models_dir
    from pyagent.speech.manifest import load_manifest

    cfg = SpeechConfig.load(env={})
    assert cfg.models_root == models_dir()
    assert load_manifest(cfg.recognizer).family in ("whisper", "moonshine", "zipformer-transducer",
                                                    "zipformer-transducer-online")
    assert cfg.vad is None or load_manifest(cfg.vad).family == "silero-vad"


# ------------------------------------------------------------------------------------------ hands-free


def _two_commands(speak) -> Speech:
    a, b = speak("hide all doors", rate=48000), speak("hide all doors", rate=48000)
    gap = np.zeros(int(1.2 * 48000), dtype=np.int16)
    return Speech(np.concatenate([a.samples, gap, b.samples, gap]), 48000)


@pytest.mark.parametrize("vad", ["tiny-vad", None])
def test_hands_free_segments(tiny_models, speak, vad):
    service = service_for(tiny_models, recognizer="tiny-whisper", hands_free=True, vad=vad)
    assert service.available
    assert ("energy VAD (fallback" in service.vad_label) == (vad is None)
    speech = _two_commands(speak)
    service.start(1, speech.rate)
    segments: list[str] = []
    for chunk in speech.chunks(0.1):
        assert service.feed(1, chunk) is None
        segments += service.pop_segments(1)
    assert segments == ["hide all doors", "hide all doors"]
    assert service.finish(1) == ""
    assert service.pop_segments(1) == []


def test_hands_free_speech_still_open_at_the_end(tiny_models, speak):
    service = service_for(tiny_models, recognizer="tiny-streaming", hands_free=True, vad="tiny-vad")
    speech = speak("hide all doors", rate=16000, pad=0.0)
    service.start(1, speech.rate)
    for chunk in speech.chunks(0.1):
        service.feed(1, chunk)
    assert service.finish(1) == "hide all doors"


def test_missing_vad_model_falls_back_to_energy_vad(tiny_models):
    service = service_for(tiny_models, recognizer="tiny-whisper", hands_free=True, vad="no-such-vad")
    assert service.available
    assert "energy VAD (fallback" in service.status
