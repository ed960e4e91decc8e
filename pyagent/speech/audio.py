"""Audio plumbing for speech: PCM16 decoding and anti-aliased sample-rate conversion.

The engine sends 16-bit little-endian mono PCM at whatever rate its microphone runs (often 44.1
or 48 kHz); the recognisers want 16 kHz float samples in [-1, 1]. Conversion is a polyphase
windowed-sinc (Kaiser) resampler that works chunk by chunk: feeding a recording in pieces gives
the same samples as converting it in one go.
"""

from __future__ import annotations

import math

import numpy as np

TARGET_RATE = 16000
MIN_RATE, MAX_RATE = 4000, 384000


class Pcm16Decoder:
    """Bytes of PCM16 little-endian mono -> float32 in [-1, 1); keeps an odd trailing byte."""

    def __init__(self) -> None:
        self._carry = b""

    def decode(self, data: bytes) -> np.ndarray:
        if self._carry:
            data = self._carry + data
        usable = len(data) - (len(data) % 2)
        self._carry = data[usable:]
        return np.frombuffer(data[:usable], dtype="<i2").astype(np.float32) / 32768.0


def float_to_pcm16(samples: np.ndarray) -> bytes:
    """Float samples in [-1, 1] -> PCM16 little-endian bytes (clipped)."""
    clipped = np.clip(np.asarray(samples, dtype=np.float64), -1.0, 32767.0 / 32768.0)
    return np.round(clipped * 32768.0).astype("<i2").tobytes()


def _kaiser_lowpass(up: int, down: int, zero_crossings: int, rolloff: float, beta: float) -> np.ndarray:
    """Prototype low-pass filter at the upsampled rate (in_rate * up), gain `up` in the passband."""
    # Cut-off as a fraction of the upsampled rate: just below the lower of the two Nyquists.
    cutoff = rolloff * 0.5 / max(up, down)
    half = int(math.ceil(zero_crossings / (2.0 * cutoff)))
    n = np.arange(-half, half + 1, dtype=np.float64)
    h = 2.0 * cutoff * np.sinc(2.0 * cutoff * n) * np.kaiser(2 * half + 1, beta)
    return h * up


class StreamingResampler:
    """Rational-ratio polyphase resampler with state, for audio that arrives in chunks.

    ``process(chunk)`` returns every output sample it can already compute; ``flush()`` returns the
    rest (the filter's look-ahead is filled with zeros). Output sample n sits at input time
    n * in_rate / out_rate, so there is no delay to compensate for.
    """

    def __init__(self, in_rate: int, out_rate: int = TARGET_RATE, *, zero_crossings: int = 24,
                 rolloff: float = 0.9, beta: float = 8.6) -> None:
        if not (MIN_RATE <= in_rate <= MAX_RATE) or not (MIN_RATE <= out_rate <= MAX_RATE):
            raise ValueError(f"sample rates must be between {MIN_RATE} and {MAX_RATE} Hz")
        g = math.gcd(int(in_rate), int(out_rate))
        self.in_rate, self.out_rate = int(in_rate), int(out_rate)
        self.up, self.down = self.out_rate // g, self.in_rate // g
        self.passthrough = self.up == self.down
        self._consumed = 0  # input samples received
        self._produced = 0  # output samples returned
        self._buf = np.zeros(0, dtype=np.float32)
        self._buf_start = 0  # input index of _buf[0]
        if self.passthrough:
            return
        h = _kaiser_lowpass(self.up, self.down, zero_crossings, rolloff, beta)
        self._half = (len(h) - 1) // 2
        self._taps = int(math.ceil(len(h) / self.up))
        padded = np.zeros(self._taps * self.up)
        padded[: len(h)] = h
        # poly[p, j] = h[p + j * up] weighs input x[kmax - j] for phase p; stored oldest-first.
        poly = padded.reshape(self._taps, self.up).T
        self._poly_rev = np.ascontiguousarray(poly[:, ::-1], dtype=np.float32)
        # Inputs before the first sample are zeros: start the buffer with taps - 1 of them.
        self._buf = np.zeros(self._taps - 1, dtype=np.float32)
        self._buf_start = -(self._taps - 1)

    def _kmax(self, n: np.ndarray) -> np.ndarray:
        return (n * self.down + self._half) // self.up

    def _emit(self, count: int) -> np.ndarray:
        if count <= 0:
            return np.zeros(0, dtype=np.float32)
        n = np.arange(self._produced, self._produced + count, dtype=np.int64)
        kmax = self._kmax(n)
        phase = (n * self.down + self._half) % self.up
        # Row i of `windows` is x[kmax_i - taps + 1 .. kmax_i], oldest first.
        windows = np.lib.stride_tricks.sliding_window_view(self._buf, self._taps)
        rows = windows[kmax - self._taps + 1 - self._buf_start]
        if self.up == 1:
            out = rows @ self._poly_rev[0]
        else:
            out = np.einsum("ij,ij->i", rows, self._poly_rev[phase])
        self._produced += count
        # Drop input no later output needs.
        keep_from = int(self._kmax(np.array([self._produced]))[0]) - self._taps + 1
        drop = max(0, keep_from - self._buf_start)
        if drop:
            self._buf = self._buf[drop:]
            self._buf_start += drop
        return out.astype(np.float32)

    def process(self, samples: np.ndarray) -> np.ndarray:
        x = np.asarray(samples, dtype=np.float32).reshape(-1)
        if self.passthrough:
            self._consumed += len(x)
            return x.copy()
        self._buf = np.concatenate([self._buf, x])
        self._consumed += len(x)
        # Output n is ready once its newest input, kmax(n), has arrived.
        ready = (self._consumed * self.up - self._half - 1) // self.down + 1 if self._consumed else 0
        return self._emit(int(ready) - self._produced)

    def flush(self) -> np.ndarray:
        """The remaining output samples: ceil(total_in * out_rate / in_rate) in all."""
        if self.passthrough:
            return np.zeros(0, dtype=np.float32)
        total = -(-self._consumed * self.up // self.down)
        remaining = total - self._produced
        if remaining <= 0:
            return np.zeros(0, dtype=np.float32)
        needed = int(self._kmax(np.array([total - 1]))[0]) + 1 - (self._buf_start + len(self._buf))
        if needed > 0:
            self._buf = np.concatenate([self._buf, np.zeros(needed, dtype=np.float32)])
        return self._emit(remaining)


def resample(samples: np.ndarray, in_rate: int, out_rate: int = TARGET_RATE) -> np.ndarray:
    """One-shot conversion of a whole signal."""
    r = StreamingResampler(in_rate, out_rate)
    return np.concatenate([r.process(samples), r.flush()])
