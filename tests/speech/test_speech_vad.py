"""Voice activity detection: the Silero interface (tiny model) and the energy fallback."""

from __future__ import annotations

import numpy as np
import pytest

from pyagent.speech.vad import EnergyVad, SileroVad, VadSettings

RATE = 16000


def burst_train(bursts: list[tuple[float, float]], total: float, noise_db: float = -70.0) -> np.ndarray:
    """Low noise with 300 Hz tone bursts at (start, length) seconds."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(int(total * RATE)) * 10 ** (noise_db / 20)
    t = np.arange(len(x)) / RATE
    for start, length in bursts:
        on = (t >= start) & (t < start + length)
        x[on] += 0.3 * np.sin(2 * np.pi * 300 * t[on])
    return x.astype(np.float32)


def run(vad, x: np.ndarray, chunk: int = 1234) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    for i in range(0, len(x), chunk):
        out += vad.accept(x[i:i + chunk])
    return out + vad.flush()


@pytest.fixture
def silero_model(tiny_models):
    return tiny_models / "tiny-vad" / "silero_vad.onnx"


@pytest.mark.parametrize("kind", ["energy", "silero"])
def test_segments_follow_the_bursts(kind, silero_model):
    vad = EnergyVad() if kind == "energy" else SileroVad(silero_model)
    x = burst_train([(0.5, 0.8), (2.5, 1.0), (4.2, 0.1)], 5.0)  # the last burst is too short
    segments = run(vad, x)
    assert len(segments) == 2
    lengths = [len(s) / RATE for s in segments]
    assert 0.7 <= lengths[0] <= 1.6 and 0.9 <= lengths[1] <= 1.8, lengths


def test_energy_vad_splits_long_speech_and_flushes_open_speech():
    vad = EnergyVad(VadSettings(max_speech=1.0))
    segments = run(vad, burst_train([(0.2, 2.5)], 2.7))
    assert len(segments) >= 2 and all(len(s) <= 1.0 * RATE + EnergyVad.FRAME for s in segments)


def test_energy_vad_adapts_to_steady_noise():
    x = burst_train([(3.0, 0.8)], 5.0, noise_db=-40.0)  # noise well above the absolute minimum
    assert len(run(EnergyVad(), x)) == 1


def test_silence_gives_nothing(silero_model):
    for vad in (EnergyVad(), SileroVad(silero_model)):
        assert run(vad, np.zeros(3 * RATE, dtype=np.float32)) == []
