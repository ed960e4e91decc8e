"""sherpa-onnx recognisers behind one small interface, built from a manifest's model folder.

Offline (push-to-talk) families: Whisper, Moonshine, Zipformer transducer. Streaming family:
Zipformer transducer (``OnlineRecognizer``), which gives partial transcripts while audio arrives.
Transducers decode with ``modified_beam_search`` so that per-utterance hotwords (the building's
vocabulary) can bias them; the other families ignore hotwords.

Everything here takes 16 kHz float samples and returns the recogniser's raw text; normalisation
and resampling happen in the service.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from pyagent.speech.audio import TARGET_RATE
from pyagent.speech.hotwords import HotwordEncoder, write_bpe_vocab
from pyagent.speech.manifest import HOTWORD_FAMILIES, Manifest

STREAM_TAIL_SECONDS = 0.66  # silence appended at the end so the last chunk reaches the encoder


@dataclass
class EngineOptions:
    num_threads: int = 1
    hotwords_score: float = 1.5
    max_active_paths: int = 4
    provider: str = "cpu"


class EngineUtterance(Protocol):
    def accept(self, samples: np.ndarray) -> str | None:
        """Take 16 kHz samples; a streaming engine returns its current raw partial text."""

    def finish(self) -> str:
        """The raw transcript of everything accepted."""


class Engine(Protocol):
    name: str
    family: str
    streaming: bool
    hotwords: HotwordEncoder | None  # set when the engine can be biased

    def open(self, hotwords: str = "") -> EngineUtterance: ...


def _path(manifest: Manifest, root: Path, role: str) -> str:
    f = manifest.file_for(role)
    assert f is not None, role  # the manifest was validated for its family
    return str(manifest.folder(root) / f.path)


def _bpe_vocab(manifest: Manifest, root: Path) -> Path:
    """The model's bpe.vocab if installed, else one derived from tokens.txt (kept in .derived/)."""
    f = manifest.file_for("bpe_vocab")
    folder = manifest.folder(root)
    if f is not None and (folder / f.path).is_file():
        return folder / f.path
    tokens = Path(_path(manifest, root, "tokens"))
    derived = folder / ".derived" / "bpe.vocab"
    if not derived.is_file() or derived.stat().st_mtime_ns < tokens.stat().st_mtime_ns:
        write_bpe_vocab(tokens, derived)
    return derived


class _OfflineUtterance:
    def __init__(self, engine: OfflineEngine, hotwords: str) -> None:
        self._engine = engine
        self._hotwords = hotwords
        self._parts: list[np.ndarray] = []

    def accept(self, samples: np.ndarray) -> str | None:
        if len(samples):
            self._parts.append(np.asarray(samples, dtype=np.float32))
        return None

    def finish(self) -> str:
        audio = np.concatenate(self._parts) if self._parts else np.zeros(0, dtype=np.float32)
        self._parts = []
        return self._engine.transcribe(audio, self._hotwords)


class OfflineEngine:
    """Push-to-talk: the whole utterance is decoded when it ends."""

    streaming = False

    def __init__(self, manifest: Manifest, root: Path, options: EngineOptions) -> None:
        import sherpa_onnx

        self.name, self.family = manifest.name, manifest.family
        self.hotwords: HotwordEncoder | None = None
        def p(role: str) -> str:
            return _path(manifest, root, role)

        common = {"num_threads": options.num_threads, "provider": options.provider}
        if manifest.family == "whisper":
            self._rec = sherpa_onnx.OfflineRecognizer.from_whisper(
                encoder=p("encoder"), decoder=p("decoder"), tokens=p("tokens"),
                language=str(manifest.options.get("language", "en")), task="transcribe", **common)
        elif manifest.family == "moonshine":
            self._rec = sherpa_onnx.OfflineRecognizer.from_moonshine(
                preprocessor=p("preprocessor"), encoder=p("encoder"), uncached_decoder=p("uncached_decoder"),
                cached_decoder=p("cached_decoder"), tokens=p("tokens"), **common)
        elif manifest.family == "zipformer-transducer":
            unit = str(manifest.options.get("modeling_unit", "bpe"))
            self._rec = sherpa_onnx.OfflineRecognizer.from_transducer(
                encoder=p("encoder"), decoder=p("decoder"), joiner=p("joiner"), tokens=p("tokens"),
                decoding_method="modified_beam_search", max_active_paths=options.max_active_paths,
                hotwords_score=options.hotwords_score, modeling_unit=unit,
                bpe_vocab=str(_bpe_vocab(manifest, root)) if unit == "bpe" else "", **common)
            if unit == "bpe":
                self.hotwords = HotwordEncoder.from_tokens(Path(p("tokens")))
        else:
            raise ValueError(f"{manifest.name}: family {manifest.family} is not an offline recogniser")

    def open(self, hotwords: str = "") -> _OfflineUtterance:
        return _OfflineUtterance(self, hotwords)

    def transcribe(self, audio: np.ndarray, hotwords: str = "") -> str:
        if len(audio) == 0:
            return ""
        stream = self._rec.create_stream(hotwords) if hotwords and self.hotwords else self._rec.create_stream()
        stream.accept_waveform(TARGET_RATE, np.asarray(audio, dtype=np.float32))
        self._rec.decode_stream(stream)
        return stream.result.text


class _StreamingUtterance:
    def __init__(self, engine: StreamingEngine, hotwords: str) -> None:
        rec = engine._rec
        self._rec = rec
        self._stream = rec.create_stream(hotwords) if hotwords and engine.hotwords else rec.create_stream()
        self._done = False

    def _decode(self) -> str:
        while self._rec.is_ready(self._stream):
            self._rec.decode_stream(self._stream)
        return self._rec.get_result(self._stream)

    def accept(self, samples: np.ndarray) -> str | None:
        if self._done:
            raise RuntimeError("utterance already finished")
        if len(samples):
            self._stream.accept_waveform(TARGET_RATE, np.asarray(samples, dtype=np.float32))
        return self._decode()

    def finish(self) -> str:
        if not self._done:
            tail = np.zeros(int(STREAM_TAIL_SECONDS * TARGET_RATE), dtype=np.float32)
            self._stream.accept_waveform(TARGET_RATE, tail)
            self._stream.input_finished()
            self._done = True
        return self._decode()


class StreamingEngine:
    """Streaming Zipformer transducer: decodes chunk by chunk while audio arrives."""

    streaming = True

    def __init__(self, manifest: Manifest, root: Path, options: EngineOptions) -> None:
        import sherpa_onnx

        if manifest.family != "zipformer-transducer-online":
            raise ValueError(f"{manifest.name}: family {manifest.family} is not a streaming recogniser")
        self.name, self.family = manifest.name, manifest.family
        def p(role: str) -> str:
            return _path(manifest, root, role)

        unit = str(manifest.options.get("modeling_unit", "bpe"))
        self._rec = sherpa_onnx.OnlineRecognizer.from_transducer(
            tokens=p("tokens"), encoder=p("encoder"), decoder=p("decoder"), joiner=p("joiner"),
            num_threads=options.num_threads, provider=options.provider, sample_rate=TARGET_RATE,
            feature_dim=int(manifest.options.get("feature_dim", 80)),
            decoding_method="modified_beam_search", max_active_paths=options.max_active_paths,
            hotwords_score=options.hotwords_score, modeling_unit=unit,
            bpe_vocab=str(_bpe_vocab(manifest, root)) if unit == "bpe" else "",
            model_type=str(manifest.options.get("model_type", "")))
        self.hotwords = HotwordEncoder.from_tokens(Path(p("tokens"))) if unit == "bpe" else None

    def open(self, hotwords: str = "") -> _StreamingUtterance:
        return _StreamingUtterance(self, hotwords)

    def transcribe(self, audio: np.ndarray, hotwords: str = "") -> str:
        utt = self.open(hotwords)
        utt.accept(audio)
        return utt.finish()


def build_engine(manifest: Manifest, root: Path,
                 options: EngineOptions | None = None) -> OfflineEngine | StreamingEngine:
    """Load the recogniser a manifest describes (files must be installed and verified first)."""
    options = options or EngineOptions()
    if manifest.streaming:
        return StreamingEngine(manifest, root, options)
    return OfflineEngine(manifest, root, options)


def supports_hotwords(manifest: Manifest) -> bool:
    return manifest.family in HOTWORD_FAMILIES and str(manifest.options.get("modeling_unit", "bpe")) == "bpe"
