"""Voice activity detection for hands-free mode: a continuous 16 kHz stream -> speech segments.

``SileroVad`` runs sherpa-onnx's ``VoiceActivityDetector`` with a Silero VAD model from a
manifest. ``EnergyVad`` is the fallback when no Silero model is installed: a frame-energy
detector with an adaptive noise floor. It is labelled as such everywhere it is reported, because
it is far less robust (any loud noise counts as speech).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from pyagent.speech.audio import TARGET_RATE


@dataclass
class VadSettings:
    threshold: float = 0.5  # Silero speech probability
    min_silence: float = 0.5  # seconds of silence that end a segment
    min_speech: float = 0.25  # shorter bursts are ignored
    max_speech: float = 20.0  # longer speech is split
    pre_roll: float = 0.2  # energy VAD: audio kept from before the onset


class SegmentDetector(Protocol):
    label: str

    def accept(self, samples: np.ndarray) -> list[np.ndarray]:
        """Take 16 kHz samples; return the speech segments that have ended."""

    def flush(self) -> list[np.ndarray]:
        """End of audio: return whatever speech is still open."""


class SileroVad:
    label = "silero VAD"

    def __init__(self, model_path: Path, settings: VadSettings | None = None, num_threads: int = 1) -> None:
        import sherpa_onnx

        s = settings or VadSettings()
        config = sherpa_onnx.VadModelConfig(
            silero_vad=sherpa_onnx.SileroVadModelConfig(
                model=str(model_path), threshold=s.threshold, min_silence_duration=s.min_silence,
                min_speech_duration=s.min_speech, window_size=512, max_speech_duration=s.max_speech),
            sample_rate=TARGET_RATE, num_threads=num_threads)
        self._vad = sherpa_onnx.VoiceActivityDetector(config, buffer_size_in_seconds=60)

    def _drain(self) -> list[np.ndarray]:
        out: list[np.ndarray] = []
        while not self._vad.empty():
            out.append(np.asarray(self._vad.front.samples, dtype=np.float32))
            self._vad.pop()
        return out

    def accept(self, samples: np.ndarray) -> list[np.ndarray]:
        self._vad.accept_waveform(np.asarray(samples, dtype=np.float32))
        return self._drain()

    def flush(self) -> list[np.ndarray]:
        self._vad.flush()
        out = self._drain()
        self._vad.reset()
        return out


class EnergyVad:
    """Frame energy against an adaptive noise floor (fallback; see the module docstring)."""

    label = "energy VAD (fallback: no silero VAD model installed)"
    FRAME = 320  # 20 ms
    MARGIN_DB = 12.0  # speech is this far above the noise floor ...
    ABS_MIN_DB = -50.0  # ... and above this absolute level (dBFS)
    FLOOR_RISE_DB = 0.02  # per frame: the floor follows slowly rising noise

    def __init__(self, settings: VadSettings | None = None) -> None:
        self.s = settings or VadSettings()
        self._pending = np.zeros(0, dtype=np.float32)
        self._floor = -70.0
        self._pre: deque[np.ndarray] = deque(maxlen=max(1, int(self.s.pre_roll * TARGET_RATE / self.FRAME)))
        self._seg: list[np.ndarray] = []
        self._voiced = 0  # voiced frames in the current segment
        self._silent_run = 0

    def _frame_db(self, frame: np.ndarray) -> float:
        return float(10.0 * np.log10(np.mean(frame.astype(np.float64) ** 2) + 1e-12))

    def _close(self, out: list[np.ndarray]) -> None:
        if self._seg and self._voiced * self.FRAME >= self.s.min_speech * TARGET_RATE:
            keep = len(self._seg) - max(0, self._silent_run - 2)  # trim most trailing silence
            out.append(np.concatenate(self._seg[:keep]))
        self._seg, self._voiced, self._silent_run = [], 0, 0

    def accept(self, samples: np.ndarray) -> list[np.ndarray]:
        x = np.concatenate([self._pending, np.asarray(samples, dtype=np.float32)])
        n = len(x) // self.FRAME
        self._pending = x[n * self.FRAME:]
        out: list[np.ndarray] = []
        silence_frames = int(self.s.min_silence * TARGET_RATE / self.FRAME)
        max_frames = int(self.s.max_speech * TARGET_RATE / self.FRAME)
        for i in range(n):
            frame = x[i * self.FRAME:(i + 1) * self.FRAME]
            db = self._frame_db(frame)
            speech = db > max(self._floor + self.MARGIN_DB, self.ABS_MIN_DB)
            if not speech:
                self._floor = min(db, self._floor + self.FLOOR_RISE_DB) if db > -120 else self._floor
            if self._seg:
                self._seg.append(frame)
                if speech:
                    self._voiced += 1
                    self._silent_run = 0
                else:
                    self._silent_run += 1
                if self._silent_run >= silence_frames or len(self._seg) >= max_frames:
                    self._close(out)
            elif speech:
                self._seg = [*self._pre, frame]
                self._pre.clear()
                self._voiced, self._silent_run = 1, 0
            else:
                self._pre.append(frame)
        return out

    def flush(self) -> list[np.ndarray]:
        out: list[np.ndarray] = []
        if self._seg:
            if len(self._pending):
                self._seg.append(self._pending)
            self._close(out)
        self._pending = np.zeros(0, dtype=np.float32)
        self._pre.clear()
        return out
