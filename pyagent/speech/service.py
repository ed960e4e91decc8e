"""The speech service the link server drives: utterances in, normalised transcripts out.

    service = load_speech_service()          # reads models/config.json (see SpeechConfig)
    service.set_building(session.building)   # bias transducers towards this building's words
    service.start(utt_id, sample_rate)       # push-to-talk pressed
    service.feed(utt_id, pcm16)              # -> partial transcript (streaming) or None
    service.finish(utt_id)                   # -> final transcript

Audio is PCM16 little-endian mono at the engine's rate; it is resampled to 16 kHz here.

A model that is not installed, or whose files fail the size check, or that sherpa-onnx cannot
load, leaves the service *unavailable*: ``available`` is False, ``status`` is one line naming the
command that fixes it, and ``start`` raises ``SpeechUnavailable`` with that line. Nothing else
in the agent is affected. sherpa-onnx ends the whole process on some malformed models (it calls
``_Exit`` instead of raising), so a model is first loaded once in a child process (see
``probe.py``) and only then in this one; the result is remembered until the files change.

Hands-free mode (``hands_free``): the engine keeps one utterance open; a voice activity detector
cuts it into segments, each is recognised as it ends and handed out by ``pop_segments``.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pyagent.paths import models_dir
from pyagent.speech.audio import Pcm16Decoder, StreamingResampler
from pyagent.speech.engines import Engine, EngineOptions, EngineUtterance, build_engine
from pyagent.speech.hotwords import building_hotwords
from pyagent.speech.manifest import (
    RECOGNIZER_FAMILIES,
    Manifest,
    ManifestError,
    check_model,
    files_signature,
    fix_command,
    load_manifest,
    read_record,
    write_record,
)
from pyagent.speech.normalize import normalize_transcript
from pyagent.speech.vad import EnergyVad, SegmentDetector, SileroVad, VadSettings

if TYPE_CHECKING:
    from pyagent.model import Building

log = logging.getLogger("pyagent.speech")

CONFIG_NAME = "config.json"
PROBE_TIMEOUT_S = 180.0
ENV = {
    "recognizer": "PYAGENT_ASR_MODEL",
    "vad": "PYAGENT_ASR_VAD",
    "hands_free": "PYAGENT_ASR_HANDS_FREE",
    "num_threads": "PYAGENT_ASR_THREADS",
}


class SpeechUnavailable(RuntimeError):
    """Speech recognition cannot run; the message is one line that says how to fix it."""


@dataclass
class SpeechConfig:
    """Which recogniser to run and how. Sources, later ones winning:

    1. defaults below; 2. ``models/config.json`` → its ``"speech"`` object (same keys);
    3. environment: ``PYAGENT_ASR_MODEL``, ``PYAGENT_ASR_VAD`` (a name, or "none"),
       ``PYAGENT_ASR_HANDS_FREE`` (1/0), ``PYAGENT_ASR_THREADS``;
    4. ``overrides`` passed by the caller (e.g. a ``--asr-model`` command-line flag).
    The models folder is ``$PYAGENT_MODELS`` or ``models/`` in the checkout.
    """

    recognizer: str = "streaming-zipformer-en-20M"
    vad: str | None = "silero-vad"  # used in hands-free mode; None -> energy VAD fallback
    hands_free: bool = False
    hotwords: bool = True
    hotwords_score: float = 1.5
    num_threads: int = 1
    silence_guard_dbfs: float = -50.0  # an utterance whose loudest 20 ms stays below this gives ""
    models_root: Path = field(default_factory=models_dir)
    probe: bool = True  # load new/changed models in a child process first

    @classmethod
    def load(cls, path: Path | None = None, *, env: dict[str, str] | None = None,
             overrides: dict[str, Any] | None = None) -> SpeechConfig:
        cfg = cls()
        env = dict(os.environ) if env is None else env
        if "PYAGENT_MODELS" in env:
            cfg.models_root = Path(env["PYAGENT_MODELS"])
        if overrides and overrides.get("models_root"):
            cfg.models_root = Path(overrides["models_root"])
        file = path or cfg.models_root / CONFIG_NAME
        values: dict[str, Any] = {}
        if file.is_file():
            try:
                data = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise ValueError(f"{file}: cannot read speech configuration: {exc}") from None
            values.update((data or {}).get("speech", {}) if isinstance(data, dict) else {})
        for key, var in ENV.items():
            if env.get(var):
                values[key] = env[var]
        values.update(overrides or {})
        return cfg._apply(values, str(file))

    def _apply(self, values: dict[str, Any], where: str) -> SpeechConfig:
        known = {f.name for f in fields(self)}
        for key, value in values.items():
            if key not in known:
                raise ValueError(f"{where}: unknown speech setting {key!r} (known: {', '.join(sorted(known))})")
            if key in ("hands_free", "hotwords", "probe"):
                value = value if isinstance(value, bool) else str(value).lower() in ("1", "true", "yes", "on")
            elif key == "num_threads":
                value = max(1, int(value))
            elif key in ("hotwords_score", "silence_guard_dbfs"):
                value = float(value)
            elif key == "vad":
                value = None if value in (None, "", "none", "energy") else str(value)
            elif key == "models_root":
                value = Path(value)
            setattr(self, key, value)
        return self


# -------------------------------------------------------------------------------------------- probing


def _probe_ok(manifest: Manifest, root: Path) -> bool:
    rec = read_record(manifest.folder(root)).get("probe")
    return isinstance(rec, dict) and bool(rec.get("ok")) and rec.get("files") == files_signature(manifest, root)


def probe_model(manifest: Manifest, root: Path, timeout: float = PROBE_TIMEOUT_S) -> str | None:
    """Load the model in a child process; None when it loads, else a one-line reason."""
    if _probe_ok(manifest, root):
        return None
    cmd = [sys.executable, "-m", "pyagent.speech.probe", "--models-dir", str(root), manifest.name]
    env = dict(os.environ)
    package_parent = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH", "")) if p)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False, env=env)
    except subprocess.TimeoutExpired:
        return f"speech model {manifest.name!r} did not load within {timeout:.0f} s"
    if proc.returncode != 0:
        lines = [ln.strip() for ln in (proc.stderr or "").splitlines() if ln.strip()]
        why = lines[-1] if lines else f"exit code {proc.returncode}"
        return (f"speech model {manifest.name!r} failed to load ({why[:200]}); "
                f"run: {fix_command(manifest.name)} --force")
    folder = manifest.folder(root)
    record = read_record(folder)
    record["probe"] = {"ok": True, "files": files_signature(manifest, root)}
    try:
        write_record(folder, record)
    except OSError:
        pass  # a read-only model folder just means probing again next time
    return None


def prepare_model(name: str, root: Path, families: tuple[str, ...], probe: bool) -> tuple[Manifest | None, str | None]:
    """The manifest of an installed, loadable model, or a one-line reason why not."""
    try:
        manifest = load_manifest(name, root)
    except ManifestError as exc:
        return None, str(exc)
    if manifest.family not in families:
        return None, f"model {name!r} is a {manifest.family} model, not one of: {', '.join(families)}"
    problem = check_model(manifest, root, hashes=False).problem()
    if problem:
        return None, problem
    if probe:
        problem = probe_model(manifest, root)
        if problem:
            return None, problem
    return manifest, None


# -------------------------------------------------------------------------------------------- service


@dataclass
class _Utterance:
    sample_rate: int
    decoder: Pcm16Decoder
    resampler: StreamingResampler
    engine_utt: EngineUtterance | None  # None in hands-free mode
    vad: SegmentDetector | None = None
    last_partial: str = ""
    segments: list[str] = field(default_factory=list)
    peak_db: float = -200.0  # loudest 20 ms frame so far (dBFS)
    level_carry: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))


class SpeechService:
    """Speech recognition for push-to-talk (and optional hands-free) utterances; see the module doc."""

    def __init__(self, config: SpeechConfig, engine: Engine | None, *, status: str,
                 vad_model: Path | None = None) -> None:
        self.config = config
        self.engine = engine
        self.status = status
        self._vad_model = vad_model
        self._utts: dict[int, _Utterance] = {}
        self._lock = threading.RLock()
        self._hotword_phrases: list[str] = []
        self._hotword_arg = ""

    # ---- state

    @property
    def available(self) -> bool:
        return self.engine is not None

    @property
    def streaming(self) -> bool:
        return bool(self.engine and self.engine.streaming)

    @property
    def vad_label(self) -> str:
        if not self.config.hands_free:
            return "off (push-to-talk)"
        return SileroVad.label if self._vad_model else EnergyVad.label

    def describe(self) -> str:
        if self.engine is None:
            return self.status
        kind = "streaming" if self.engine.streaming else "push-to-talk"
        bias = f", {len(self._hotword_phrases)} hotwords" if self.engine.hotwords else ""
        hands = f", hands-free with {self.vad_label}" if self.config.hands_free else ""
        return f"speech: {self.engine.name} ({self.engine.family}, {kind}{bias}{hands})"

    # ---- vocabulary biasing

    def set_hotwords(self, phrases: list[str]) -> list[str]:
        """Bias later utterances towards these phrases; returns those the model can use."""
        with self._lock:
            if self.engine is None or self.engine.hotwords is None or not self.config.hotwords:
                self._hotword_phrases, self._hotword_arg = [], ""
                return []
            usable = self.engine.hotwords.prepare(phrases)
            self._hotword_phrases = usable
            self._hotword_arg = self.engine.hotwords.stream_argument(usable)
            return list(usable)

    def set_building(self, building: Building) -> list[str]:
        """Rebuild the hotwords from a newly loaded building."""
        return self.set_hotwords(building_hotwords(building))

    @property
    def hotwords(self) -> list[str]:
        return list(self._hotword_phrases)

    # ---- utterances

    def _require(self) -> Engine:
        if self.engine is None:
            raise SpeechUnavailable(self.status)
        return self.engine

    def start(self, utt_id: int, sample_rate: int) -> None:
        with self._lock:
            engine = self._require()
            if utt_id in self._utts:
                raise ValueError(f"utterance {utt_id} has already started")
            resampler = StreamingResampler(int(sample_rate))  # ValueError for absurd rates
            if self.config.hands_free:
                vad: SegmentDetector = SileroVad(self._vad_model) if self._vad_model else EnergyVad(VadSettings())
                utt = _Utterance(int(sample_rate), Pcm16Decoder(), resampler, None, vad)
            else:
                utt = _Utterance(int(sample_rate), Pcm16Decoder(), resampler, engine.open(self._hotword_arg))
            self._utts[utt_id] = utt

    def _get(self, utt_id: int) -> _Utterance:
        utt = self._utts.get(utt_id)
        if utt is None:
            raise KeyError(f"no utterance {utt_id} (call start first)")
        return utt

    def _recognise_segments(self, utt: _Utterance, segments: list[np.ndarray]) -> None:
        assert self.engine is not None
        for seg in segments:
            sub = self.engine.open(self._hotword_arg)
            sub.accept(seg)
            text = normalize_transcript(sub.finish())
            if text:
                utt.segments.append(text)

    def _samples(self, utt: _Utterance, samples: np.ndarray) -> str | None:
        level = np.concatenate([utt.level_carry, samples]) if len(utt.level_carry) else samples
        frames = len(level) // 320  # 20 ms
        utt.level_carry = level[frames * 320:]
        if frames:
            power = np.mean(level[: frames * 320].astype(np.float64).reshape(frames, 320) ** 2, axis=1)
            utt.peak_db = max(utt.peak_db, float(10 * np.log10(power.max() + 1e-20)))
        if utt.vad is not None:
            self._recognise_segments(utt, utt.vad.accept(samples))
            return None
        assert utt.engine_utt is not None
        raw = utt.engine_utt.accept(samples)
        if raw is None:
            return None
        text = normalize_transcript(raw)
        if text == utt.last_partial:
            return None
        utt.last_partial = text
        return text

    def feed(self, utt_id: int, pcm16: bytes) -> str | None:
        """Add audio; returns the partial transcript when it changed (streaming models), else None."""
        with self._lock:
            self._require()
            utt = self._get(utt_id)
            return self._samples(utt, utt.resampler.process(utt.decoder.decode(pcm16)))

    def finish(self, utt_id: int) -> str:
        """End the utterance; returns its normalised transcript ("" when nothing was recognised).

        An utterance that never rose above ``config.silence_guard_dbfs`` gives "" whatever the model says.

        In hands-free mode this returns the text of any segment still open at the end; segments
        that ended earlier were handed out by ``pop_segments``.
        """
        with self._lock:
            self._require()
            utt = self._get(utt_id)
            try:
                tail = utt.resampler.flush()
                if utt.vad is not None:
                    before = len(utt.segments)
                    self._recognise_segments(utt, utt.vad.accept(tail) + utt.vad.flush())
                    return " ".join(utt.segments[before:])
                assert utt.engine_utt is not None
                if len(tail):
                    utt.engine_utt.accept(tail)
                text = normalize_transcript(utt.engine_utt.finish())
                # Silence guard: Whisper in particular "hears" words in near silence.
                return text if utt.peak_db >= self.config.silence_guard_dbfs else ""
            finally:
                del self._utts[utt_id]

    def cancel(self, utt_id: int) -> None:
        with self._lock:
            self._utts.pop(utt_id, None)

    def pop_segments(self, utt_id: int) -> list[str]:
        """Hands-free: transcripts of the segments that ended since the last call."""
        with self._lock:
            utt = self._utts.get(utt_id)
            if utt is None:
                return []
            out, utt.segments = utt.segments, []
            return out


def load_speech_service(config: SpeechConfig | dict[str, Any] | str | Path | None = None) -> SpeechService:
    """The configured speech service; never raises for model problems (see ``SpeechService.status``).

    ``config`` is a ``SpeechConfig``, a dict of overrides, a path to a config.json, or None.
    """
    if isinstance(config, SpeechConfig):
        cfg = config
    elif isinstance(config, dict):
        cfg = SpeechConfig.load(overrides=config)
    elif isinstance(config, (str, Path)):
        cfg = SpeechConfig.load(Path(config))
    else:
        cfg = SpeechConfig.load()
    root = cfg.models_root
    manifest, problem = prepare_model(cfg.recognizer, root, RECOGNIZER_FAMILIES, cfg.probe)
    if manifest is None:
        return SpeechService(cfg, None, status=problem or "speech recognition is unavailable")
    options = EngineOptions(num_threads=cfg.num_threads, hotwords_score=cfg.hotwords_score)
    try:
        engine = build_engine(manifest, root, options)
    except (RuntimeError, ValueError, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return SpeechService(cfg, None, status=f"speech model {manifest.name!r} failed to load ({first}); "
                                               f"run: {fix_command(manifest.name)} --force")
    vad_model: Path | None = None
    vad_note = ""
    if cfg.hands_free and cfg.vad:
        vad_manifest, vad_problem = prepare_model(cfg.vad, root, ("silero-vad",), cfg.probe)
        if vad_manifest is not None:
            f = vad_manifest.file_for("model")
            assert f is not None
            vad_model = vad_manifest.folder(root) / f.path
        else:
            vad_note = f"; {vad_problem}; using the {EnergyVad.label}"
    service = SpeechService(cfg, engine, status="", vad_model=vad_model)
    service.status = service.describe() + vad_note
    return service


def load_service(config: SpeechConfig | dict[str, Any] | str | Path | None = None) -> SpeechService | None:
    """For the link server: the service, or None (after logging its one-line reason) when unavailable."""
    service = load_speech_service(config)
    if not service.available:
        log.warning("%s", service.status)
        return None
    log.info("%s", service.status)
    return service
