"""PCM16 decoding and the streaming polyphase resampler."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyagent.speech.audio import Pcm16Decoder, StreamingResampler, float_to_pcm16, resample


def tone(freq: float, rate: int, seconds: float = 1.0, amp: float = 0.5) -> np.ndarray:
    return (amp * np.sin(2 * np.pi * freq * np.arange(int(rate * seconds)) / rate)).astype(np.float32)


def rms_db(x: np.ndarray) -> float:
    return float(20 * np.log10(np.sqrt(np.mean(np.asarray(x, dtype=np.float64) ** 2)) + 1e-20))


def test_pcm16_roundtrip_and_split_samples():
    x = np.array([0.0, 0.5, -0.5, -1.0, 0.999], dtype=np.float32)
    data = float_to_pcm16(x)
    assert len(data) == 10
    dec = Pcm16Decoder()
    parts = [dec.decode(data[:3]), dec.decode(data[3:4]), dec.decode(data[4:])]
    got = np.concatenate(parts)
    assert [len(p) for p in parts] == [1, 1, 3]
    np.testing.assert_allclose(got, x, atol=1 / 32768)
    assert float_to_pcm16(np.array([2.0, -2.0])) == np.array([32767, -32768], dtype="<i2").tobytes()


@pytest.mark.parametrize("rate", [22050, 44100, 48000, 8000])
def test_tone_survives_conversion(rate):
    y = resample(tone(1000, rate, 2.0), rate)
    assert len(y) == 32000
    ideal = tone(1000, 16000, 2.0)
    mid = slice(2000, -2000)  # away from the zero-padded ends
    np.testing.assert_allclose(y[mid], ideal[mid], atol=2e-3)


@pytest.mark.parametrize("rate", [22050, 44100, 48000])
def test_content_above_8khz_is_removed_not_aliased(rate):
    """A 9 kHz tone would fold to 7 kHz at 16 kHz without the anti-aliasing filter."""
    y = resample(tone(9000, rate), rate)[2000:-2000]
    assert rms_db(y) - rms_db(tone(9000, rate)) < -60
    spectrum = np.abs(np.fft.rfft(y))
    assert spectrum.max() < 1e-2 * len(y)  # no strong line anywhere (7 kHz alias included)


def test_passband_is_flat_for_speech():
    for f in (200, 1000, 3000, 5000, 6000):
        y = resample(tone(f, 44100), 44100)[2000:-2000]
        assert abs(rms_db(y) - rms_db(tone(f, 44100))) < 0.5, f


def test_same_rate_is_passthrough():
    x = tone(440, 16000)
    r = StreamingResampler(16000)
    np.testing.assert_array_equal(np.concatenate([r.process(x[:100]), r.process(x[100:]), r.flush()]), x)


@pytest.mark.parametrize("bad", [0, 100, 10_000_000])
def test_absurd_rates_are_refused(bad):
    with pytest.raises(ValueError, match="sample rates"):
        StreamingResampler(bad)


@settings(max_examples=25, deadline=None)
@given(rate=st.sampled_from([22050, 44100, 48000, 32000, 11025]),
       cuts=st.lists(st.integers(min_value=0, max_value=12000), max_size=12))
def test_chunked_equals_one_shot(rate, cuts):
    rng = np.random.default_rng(len(cuts))
    x = rng.standard_normal(12000).astype(np.float32) * 0.1
    whole = resample(x, rate)
    r = StreamingResampler(rate)
    bounds = [0, *sorted(cuts), len(x)]
    parts = [r.process(x[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)] + [r.flush()]
    np.testing.assert_allclose(np.concatenate(parts), whole, atol=1e-5)
    assert len(whole) == -(-len(x) * 16000 // rate)
