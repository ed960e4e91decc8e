"""Benchmark: speech recognition real-time factor and end-of-speech -> change latency by stage.

    .venv/bin/python tests/bench/bench_speech.py [--utterances 20] [--rate 44100] [--chunk-ms 50]
        [--models-dir models --recognizers whisper-tiny.en,streaming-zipformer-en-20M]
        [--ifc ifc/AC20-FZK-Haus.ifc] [--engine-apply-ms X]

Without ``--models-dir`` it builds the tiny test models (tests/speech/tiny_asr_models.py): their
timings exercise the real sherpa-onnx path but say nothing about real model cost. Utterances are
synthesized with espeak-ng and resampled by sox to the device rate; the service resamples them
back to 16 kHz, as it does for an engine's microphone.

Per utterance, "end of speech" is the moment the last audio chunk has been fed (push-to-talk
released); from there the stages are: recognition (``finish``), understanding (the parser's
time inside ``session.say``), execution (applying the program to the scene state) and engine
apply (a placeholder figure: pass ``--engine-apply-ms`` from tests/bench/bench_engine_apply.py).

Baseline, measured in the same run on the same audio: resampling to 16 kHz plus a numpy log-mel
spectrogram (the front half of any recogniser). Ratios are against it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "speech"))

from speech_fixtures import Speech, build_tiny_models, synthesize  # noqa: E402

from pyagent.speech import SpeechConfig, load_speech_service  # noqa: E402
from pyagent.speech.audio import resample  # noqa: E402

COMMANDS = [
    "hide all doors", "show all doors", "hide all windows", "show all windows", "how many doors are there",
    "how many windows are there", "paint the walls red", "hide the walls", "show the walls", "undo that",
    "how many rooms are there", "make the doors blue", "hide all slabs", "show everything",
    "how many walls are there", "paint the doors white", "hide the roof", "show the roof",
    "how many stairs are there", "redo",
]
TINY = ["tiny-streaming", "tiny-zipformer", "tiny-whisper", "tiny-moonshine"]


def mel_filterbank(n_fft: int = 400, n_mels: int = 80, rate: int = 16000) -> np.ndarray:
    mel = lambda f: 2595 * np.log10(1 + f / 700)  # noqa: E731
    inv = lambda m: 700 * (10 ** (m / 2595) - 1)  # noqa: E731
    pts = inv(np.linspace(mel(20), mel(rate / 2), n_mels + 2))
    bins = np.fft.rfftfreq(n_fft, 1 / rate)
    fb = np.zeros((n_mels, len(bins)))
    for i in range(n_mels):
        lo, c, hi = pts[i:i + 3]
        fb[i] = np.clip(np.minimum((bins - lo) / (c - lo), (hi - bins) / (hi - c)), 0, None)
    return fb


FB = mel_filterbank()


def baseline(speech: Speech) -> float:
    """Seconds to resample to 16 kHz and compute an 80-bin log-mel spectrogram (25 ms / 10 ms)."""
    t0 = time.perf_counter()
    x = resample(speech.samples.astype(np.float32) / 32768.0, speech.rate)
    frames = np.lib.stride_tricks.sliding_window_view(x, 400)[::160] * np.hanning(400)
    np.log(np.abs(np.fft.rfft(frames, axis=1)) ** 2 @ FB.T + 1e-10)
    return time.perf_counter() - t0


def pct(xs: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(xs), q)) if xs else float("nan")


@dataclass
class Row:
    name: str
    audio_s: float = 0.0
    compute_s: float = 0.0  # feed + finish
    base_s: float = 0.0
    recog: list[float] = field(default_factory=list)
    parse: list[float] = field(default_factory=list)
    execute: list[float] = field(default_factory=list)
    total: list[float] = field(default_factory=list)
    correct: int = 0
    ok: int = 0


def run(name: str, root: Path, utterances: list[tuple[str, Speech]], session, chunk_s: float,
        understand: str, apply_ms: float | None) -> Row:
    service = load_speech_service(SpeechConfig.load(env={}, overrides={"models_root": root, "recognizer": name}))
    if not service.available:
        raise SystemExit(f"{name}: {service.status}")
    service.set_building(session.building)
    row = Row(name)
    warm = utterances[0][1]
    service.start(0, warm.rate)
    for c in warm.chunks(chunk_s):
        service.feed(0, c)
    service.finish(0)
    for i, (text, speech) in enumerate(utterances, start=1):
        chunks = speech.chunks(chunk_s)
        service.start(i, speech.rate)
        t_feed = 0.0
        for c in chunks:
            t = time.perf_counter()
            service.feed(i, c)
            t_feed += time.perf_counter() - t
        t = time.perf_counter()  # end of speech
        transcript = service.finish(i)
        t_finish = time.perf_counter() - t
        row.correct += transcript == text
        said = transcript if understand == "transcript" else text
        r = session.say(said)
        row.ok += bool(r.ok)
        parse, execute = r.timings.get("parse", 0.0), r.timings.get("execute", 0.0)
        row.audio_s += speech.seconds
        row.compute_s += t_feed + t_finish
        row.base_s += baseline(speech)
        row.recog.append(t_finish)
        row.parse.append(parse)
        row.execute.append(execute)
        row.total.append(t_finish + parse + execute + (apply_ms or 0.0) / 1000.0)
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--utterances", type=int, default=20)
    ap.add_argument("--rate", type=int, default=44100, help="device sample rate of the synthesized audio")
    ap.add_argument("--chunk-ms", type=float, default=50.0)
    ap.add_argument("--models-dir", type=Path, default=None, help="real models folder (default: tiny models)")
    ap.add_argument("--recognizers", default=None, help="comma-separated manifest names")
    ap.add_argument("--ifc", type=Path, default=REPO / "ifc" / "AC20-FZK-Haus.ifc")
    ap.add_argument("--engine-apply-ms", type=float, default=None,
                    help="engine apply time per change (from tests/bench/bench_engine_apply.py)")
    ns = ap.parse_args()

    from pyagent.session import Session

    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        tiny = ns.models_dir is None
        root = build_tiny_models(tmpdir / "models") if tiny else ns.models_dir
        names = ns.recognizers.split(",") if ns.recognizers else TINY
        texts = [COMMANDS[i % len(COMMANDS)] for i in range(ns.utterances)]
        (tmpdir / "wav").mkdir()
        utterances = [(t, synthesize(t, tmpdir / "wav", ns.rate, pad=0.2)) for t in texts]
        session = Session.open(ns.ifc)
        understand = "reference" if tiny else "transcript"
        rows = [run(n, root, utterances, session, ns.chunk_ms / 1000.0, understand, ns.engine_apply_ms)
                for n in names]

    audio = sum(u[1].seconds for u in utterances)
    print(f"speech benchmark: {len(utterances)} utterances, {audio:.1f} s of espeak-ng audio at {ns.rate} Hz, "
          f"{ns.chunk_ms:.0f} ms chunks, building {ns.ifc.name}")
    if tiny:
        print("NOTE: tiny rigged test models - real sherpa-onnx code paths, but RTF and recognition times are NOT")
        print("      representative of real models; understanding/execution use the reference text because the")
        print("      tiny models only know one phrase. Rerun with --models-dir models --recognizers NAME,... .")
    base_all = sum(r.base_s for r in rows) / len(rows)
    print(f"baseline (resample {ns.rate}->16000 + numpy 80-bin log-mel), measured between the utterances of each "
          f"recogniser: RTF {base_all / audio:.4f}, {1000 * base_all / len(utterances):.2f} ms per utterance (mean)")
    print()
    hdr = (f"{'recognizer':<22} {'RTF':>7} {'xbase':>7} {'recog p50/p95 ms':>17} {'xbase':>7} "
           f"{'parse p50/p95':>14} {'exec p50/p95':>13} {'total p50/p95 ms':>17} {'said':>5} {'ok':>4}")
    print(hdr)
    for r in rows:
        rtf = r.compute_s / r.audio_s
        base_rtf = r.base_s / r.audio_s  # this recogniser's own baseline, interleaved with it
        per_utt_base = r.base_s / len(utterances)
        print(f"{r.name:<22} {rtf:7.4f} {rtf / base_rtf:7.1f} "
              f"{1000 * pct(r.recog, 50):8.1f}/{1000 * pct(r.recog, 95):<8.1f} {pct(r.recog, 50) / per_utt_base:7.1f} "
              f"{1000 * pct(r.parse, 50):6.2f}/{1000 * pct(r.parse, 95):<7.2f} "
              f"{1000 * pct(r.execute, 50):6.2f}/{1000 * pct(r.execute, 95):<6.2f} "
              f"{1000 * pct(r.total, 50):8.1f}/{1000 * pct(r.total, 95):<8.1f} "
              f"{r.correct:>2}/{len(utterances):<2} {r.ok:>2}/{len(utterances)}")
    apply = f"{ns.engine_apply_ms:.2f} ms (given)" if ns.engine_apply_ms is not None else \
        "n/a (placeholder: pass --engine-apply-ms from tests/bench/bench_engine_apply.py)"
    print()
    print("RTF = recogniser compute (feed + finish) / audio duration; xbase = ratio to the baseline.")
    print("recog = end of speech -> transcript (finish); total = recog + parse + exec + engine apply.")
    print(f"engine apply: {apply}")
    print("said = transcripts equal to the spoken text; ok = session.say results that succeeded.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
