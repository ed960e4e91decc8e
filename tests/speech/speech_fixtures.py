"""Helpers shared by the speech tests and the speech benchmark: synthesized speech and tiny models.

(Kept out of conftest.py so that tests can import them by a unique module name.)
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ESPEAK = shutil.which("espeak-ng")
SOX = shutil.which("sox")


@dataclass
class Speech:
    samples: np.ndarray  # int16
    rate: int

    @property
    def pcm16(self) -> bytes:
        return self.samples.astype("<i2").tobytes()

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.rate

    def chunks(self, seconds: float = 0.1) -> list[bytes]:
        step = max(1, int(self.rate * seconds))
        data = self.samples.astype("<i2")
        return [data[i:i + step].tobytes() for i in range(0, len(data), step)]


def _read_wav(path: Path) -> Speech:
    with wave.open(str(path)) as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2
        return Speech(np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").copy(), w.getframerate())


def synthesize(text: str, folder: Path, rate: int = 22050, pad: float = 0.3) -> Speech:
    """espeak-ng's voice saying `text`, resampled by sox to `rate`, with `pad` s of silence around it."""
    if ESPEAK is None or SOX is None:
        raise RuntimeError("espeak-ng and sox are needed to synthesize speech (apt-get install -y espeak-ng sox)")
    stem = hashlib.sha1(repr((text, rate, pad)).encode()).hexdigest()[:12]
    raw, out = folder / f"{stem}-raw.wav", folder / f"{stem}.wav"
    if not out.is_file():
        subprocess.run([ESPEAK, "-v", "en-us", "-s", "160", "-w", str(raw), text], check=True, capture_output=True)
        subprocess.run([SOX, str(raw), "-r", str(rate), "-c", "1", "-b", "16", str(out), "pad", str(pad), str(pad)],
                       check=True, capture_output=True)
    return _read_wav(out)


def silence(seconds: float, rate: int = 16000) -> Speech:
    return Speech(np.zeros(int(seconds * rate), dtype=np.int16), rate)


def to_float16k(speech: Speech) -> np.ndarray:
    from pyagent.speech.audio import resample

    x = speech.samples.astype(np.float32) / 32768.0
    return x if speech.rate == 16000 else resample(x, speech.rate, 16000)


# ---------------------------------------------------------------------------------------------- models


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def install_tiny(root: Path, name: str, family: str, files: dict[str, Path], options: dict | None = None) -> Path:
    """Write a manifest for already-built files in root/<name>/ (sizes and hashes filled in)."""
    folder = root / name
    entries = []
    for role, path in files.items():
        rel = path.relative_to(folder).as_posix()
        entries.append({"path": rel, "role": role, "url": None, "size": path.stat().st_size,
                        "sha256": _sha256(path)})
    manifest = {"name": name, "family": family, "language": "en", "source": "built by the tests",
                "licence": "test fixture", "verified": True, "options": options or {}, "files": entries}
    (root / "manifests").mkdir(parents=True, exist_ok=True)
    path = root / "manifests" / f"{name}.json"
    path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return path


def build_tiny_models(root: Path) -> Path:
    """Every tiny model the speech tests use, installed under `root` with manifests."""
    import tiny_asr_models as tiny  # needs the onnx package

    f = tiny.build_whisper(root / "tiny-whisper")
    install_tiny(root, "tiny-whisper", "whisper", {"encoder": f.encoder, "decoder": f.decoder, "tokens": f.tokens})
    m = tiny.build_moonshine(root / "tiny-moonshine")
    install_tiny(root, "tiny-moonshine", "moonshine", {
        "preprocessor": m.preprocessor, "encoder": m.encoder, "uncached_decoder": m.uncached_decoder,
        "cached_decoder": m.cached_decoder, "tokens": m.tokens})
    for name, builder, family, script in (
        ("tiny-zipformer", tiny.build_offline_transducer, "zipformer-transducer", tiny.HIDE_ALL_DOORS),
        ("tiny-zipformer-rooms", tiny.build_offline_transducer, "zipformer-transducer", tiny.bathroom_or_bedroom()),
        ("tiny-streaming", tiny.build_streaming_zipformer2, "zipformer-transducer-online", tiny.HIDE_ALL_DOORS),
        ("tiny-streaming-rooms", tiny.build_streaming_zipformer2, "zipformer-transducer-online",
         tiny.bathroom_or_bedroom()),
    ):
        t = builder(root / name, script)
        options = {"modeling_unit": "bpe"}
        if family.endswith("online"):
            options["model_type"] = "zipformer2"
        install_tiny(root, name, family, {"encoder": t.encoder, "decoder": t.decoder, "joiner": t.joiner,
                                          "tokens": t.tokens}, options)
    vad = tiny.build_silero_vad(root / "tiny-vad" / "silero_vad.onnx")
    install_tiny(root, "tiny-vad", "silero-vad", {"model": vad})
    return root
