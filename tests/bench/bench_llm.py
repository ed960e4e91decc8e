"""Benchmark: the local-LLM path (onnxruntime-genai + llguidance), with baselines from the same run.

    .venv/bin/python tests/bench/bench_llm.py [--shape tiny|qwen2.5-0.5b] [--model DIR] [--n 12] [--threads 2]

The model is a random-weight stand-in built by ``pyagent.language.llm_build`` (cached under
``.cache/llm-bench/``): ``tiny`` (hidden 64, 2 layers) measures the machinery, ``qwen2.5-0.5b``
has the real model's shapes (24 layers, hidden 896, 151,936-row LM head) and so its compute cost;
``--model`` runs any onnxruntime-genai folder (e.g. a real ``models/llm-qwen2.5-0.5b``).
Prompts are the front end's own, for the FZK house. Measured:

  guidance   constrained greedy decoding vs unconstrained decoding of the same number of tokens
             (end of turn held back), both from a cold cache: cost of llguidance per token and per call;
  reuse      a proposal with the building's fixed prompt part already cached (``warm``) vs the same
             proposal from a cold cache: what prefix reuse saves;
  setup      creating a generator with the grammar vs without (grammar compilation).

Prints medians and ratios (ratios are what carry between machines).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from pyagent.language.llm import LLMFrontEnd  # noqa: E402
from pyagent.language.llm_build import QWEN25_05B_SHAPE, TinySpec, build_tiny_model  # noqa: E402
from pyagent.language.llm_prompt import build_messages, context_from_session  # noqa: E402
from pyagent.model import Pose  # noqa: E402
from pyagent.session import Session  # noqa: E402

UTTERANCES = (
    "hide the door in front of me", "how many windows are on the ground floor?", "paint the wall behind me grey",
    "rotate that window 90 degrees", "which rooms are upstairs?", "how tall is the window to my left?",
    "put a sofa next to the window", "take me to the kitchen", "turn around", "look at the stairs",
    "what is the furthest object from me?", "make the slabs half transparent", "select all beams",
    "how far is the front door?", "delete the railing", "describe what I'm pointing at",
)
POSES = (
    {"position": [5.0, 4.0, 1.6], "yaw": 90.0}, {"position": [2.0, 8.0, 1.6], "yaw": -30.0},
    {"position": [8.0, 3.0, 1.6], "yaw": 180.0}, {"position": [6.0, 6.0, 4.3], "yaw": 0.0},
)
SHAPES = {"tiny": TinySpec(), "qwen2.5-0.5b": QWEN25_05B_SHAPE}


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def p95(values: list[float]) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(0.95 * (len(s) - 1)))] if s else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shape", choices=sorted(SHAPES), default="tiny")
    ap.add_argument("--model", type=Path, default=None, help="an onnxruntime-genai model folder (skips the build)")
    ap.add_argument("--n", type=int, default=12, help="utterances per measurement")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--max-new", type=int, default=160)
    args = ap.parse_args()

    if args.model is None:
        folder = REPO / ".cache" / "llm-bench" / args.shape
        t = time.perf_counter()
        report = build_tiny_model(folder, SHAPES[args.shape])
        print(f"model: {folder} ({'reused' if report.reused else 'built'} in {time.perf_counter() - t:.1f} s)")
    else:
        folder = args.model
        print(f"model: {folder}")
    front = LLMFrontEnd(folder, max_new_tokens=args.max_new, threads=args.threads)
    t = time.perf_counter()
    llm = front.load()
    print(f"load: {time.perf_counter() - t:.2f} s, threads {args.threads}")
    session = Session.open(REPO / "ifc" / "AC20-FZK-Haus.ifc")
    contexts = []
    for pose in POSES:  # the user moves between requests: the situation part changes every time
        session.set_pose(Pose.from_json(pose))
        contexts.append(context_from_session(session))
    utterances = [UTTERANCES[i % len(UTTERANCES)] for i in range(args.n)]
    schema = front.schema_text

    # --- setup: generator creation with and without the grammar -----------------------------
    setup_g, setup_f = [], []
    for _ in range(5):
        t = time.perf_counter()
        llm._new_generator(schema)
        setup_g.append(time.perf_counter() - t)
        t = time.perf_counter()
        llm._new_generator(None)
        setup_f.append(time.perf_counter() - t)

    # --- guidance: constrained vs unconstrained, same prompt, same number of tokens, cold cache ---
    rows = []
    for i, u in enumerate(utterances):
        prompt = llm.chat_prompt(build_messages(u, contexts[i % len(contexts)]))
        g = llm.generate(prompt, max_new_tokens=args.max_new, schema_text=schema, reuse=False)
        n = max(1, g.new_tokens)
        b = llm.generate(prompt, max_new_tokens=n, min_new_tokens=n, schema_text=None, reuse=False)
        rows.append((g, b))
    tokens = [g.new_tokens for g, _ in rows]
    g_total = [g.total_s for g, _ in rows]
    b_total = [b.total_s for _, b in rows]
    g_decode = [(g.total_s - g.prefill_s) / max(1, g.new_tokens - 1) for g, _ in rows]
    b_decode = [(b.total_s - b.prefill_s) / max(1, b.new_tokens - 1) for _, b in rows]
    prefill_rate = [g.prompt_tokens / g.prefill_s for g, _ in rows if g.prefill_s > 0]

    # --- reuse: warm proposals (fixed part cached) vs the cold constrained calls above ----------
    warm_s = front.warm(contexts[0])
    warm_rows = []
    for i, u in enumerate(utterances):
        proposal = front.propose(u, contexts[i % len(contexts)])
        warm_rows.append(proposal)
    w_total = [p.latency_s for p in warm_rows]
    w_new = [p.calls[0].prompt_tokens - p.calls[0].reused_tokens for p in warm_rows if p.calls]
    valid = sum(p.program is not None for p in warm_rows)

    print(f"\nprompt: {rows[0][0].prompt_tokens} tokens (cold); fixed part cached by warm(): "
          f"{rows[0][0].prompt_tokens - int(med(w_new))} tokens in {warm_s:.2f} s; per request "
          f"{int(med(w_new))} new prompt tokens (median)")
    print(f"output: {int(med(tokens))} tokens per program (median, max {max(tokens)}); "
          f"{valid}/{len(warm_rows)} valid programs")
    print(f"prefill: {med(prefill_rate):,.0f} prompt tokens/s (cold, median)")
    print("\n{:<34} {:>12} {:>12} {:>8}".format("", "constrained", "baseline", "ratio"))
    print("{:<34} {:>12.2f} {:>12.2f} {:>8.2f}".format(
        "setup: new generator (ms)", 1e3 * med(setup_g), 1e3 * med(setup_f), med(setup_g) / med(setup_f)))
    print("{:<34} {:>12.2f} {:>12.2f} {:>8.2f}".format(
        "decode: ms per token (median)", 1e3 * med(g_decode), 1e3 * med(b_decode), med(g_decode) / med(b_decode)))
    print("{:<34} {:>12.1f} {:>12.1f} {:>8.2f}".format(
        "decode: tokens/s (median)", 1 / med(g_decode), 1 / med(b_decode), med(b_decode) / med(g_decode)))
    print("{:<34} {:>12.3f} {:>12.3f} {:>8.2f}".format(
        "whole call, cold: s (median)", med(g_total), med(b_total), med(g_total) / med(b_total)))
    print("\n{:<34} {:>12} {:>12} {:>8}".format("", "warm", "cold", "ratio"))
    print("{:<34} {:>12.3f} {:>12.3f} {:>8.2f}".format(
        "proposal latency: s (median)", med(w_total), med(g_total), med(w_total) / med(g_total)))
    print("{:<34} {:>12.3f} {:>12.3f} {:>8.2f}".format(
        "proposal latency: s (p95)", p95(w_total), p95(g_total), p95(w_total) / p95(g_total)))
    summary = {
        "model": str(folder), "threads": args.threads, "n": len(utterances),
        "prompt_tokens": rows[0][0].prompt_tokens, "new_prompt_tokens_warm": med(w_new),
        "output_tokens_median": med(tokens), "valid": valid,
        "guidance_decode_ratio": med(g_decode) / med(b_decode), "guidance_call_ratio": med(g_total) / med(b_total),
        "setup_ratio": med(setup_g) / med(setup_f), "warm_over_cold": med(w_total) / med(g_total),
        "warm_latency_p50_s": med(w_total), "warm_latency_p95_s": p95(w_total),
        "decode_tokens_per_s": 1 / med(g_decode), "prefill_tokens_per_s": med(prefill_rate),
    }
    print("\n" + json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
