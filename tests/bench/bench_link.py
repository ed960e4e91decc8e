"""Benchmark: round-trip latency of the engine <-> agent link on loopback.

    .venv/bin/python tests/bench/bench_link.py [--n 2000] [--paced 90]

Four round trips, each measured from the GDScript ZMTP client (headless Godot) and, as the baseline
in the same run, from a pyzmq DEALER (libzmq):
  echo  a 64-byte frame against a pyzmq ROUTER that echoes it (the transport alone);
  ping  a JSON ping -> pong through ``python -m pyagent serve`` (transport + server loop);
  do    an action program hiding/showing one door -> delta + result (a whole change);
and ``paced``: the GDScript echo polled once per frame at --paced FPS, as the engine really polls
(its baseline is one frame period: a reply is seen at the next frame's poll).
Prints p50/p95/p99 in microseconds and the ratio GDScript / baseline for each.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import zmq

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "link"))

from link_client import free_port, start_agent, stop_agent  # noqa: E402
from link_godot_project import build_project  # noqa: E402

HAUS = REPO / "ifc" / "AC20-FZK-Haus.ifc"
DOOR = "0pGAjlJMP3ifYPATVF5xAR"


def percentiles(samples: list[float]) -> dict[str, float]:
    s = sorted(samples)
    q = statistics.quantiles(s, n=100, method="inclusive")
    return {"p50": q[49], "p95": q[94], "p99": q[98], "n": len(s)}


def echo_router(port: int, stop: Any) -> None:
    """A pyzmq ROUTER echoing every message (run in its own process, away from the clients' GIL)."""
    ctx = zmq.Context()
    sock = ctx.socket(zmq.ROUTER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.bind(f"tcp://127.0.0.1:{port}")
    while not stop.is_set():
        if sock.poll(50):
            sock.send_multipart(sock.recv_multipart())
    sock.close()
    ctx.term()


def python_client(port: int, mode: str, n: int) -> list[float]:
    ctx = zmq.Context()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(f"tcp://127.0.0.1:{port}")
    if mode != "echo":
        sock.send(json.dumps({"type": "hello", "protocol": 2}).encode())
        sock.recv_multipart()
    rtts = []
    for i in range(n + n // 10):
        t0 = time.perf_counter()
        if mode == "echo":
            sock.send(b"x" * 64)
            sock.recv_multipart()
        elif mode == "ping":
            sock.send(json.dumps({"type": "ping", "t": i}).encode())
            json.loads(sock.recv_multipart()[0])
        else:
            op = "hide" if i % 2 == 0 else "show"
            prog = {"steps": [{"op": op, "target": {"ids": [DOOR]}}]}
            sock.send(json.dumps({"type": "do", "id": i + 1, "program": prog}).encode())
            while json.loads(sock.recv_multipart()[0])["type"] != "result":
                pass
        if i >= n // 10:
            rtts.append((time.perf_counter() - t0) * 1e6)
    sock.close()
    ctx.term()
    return rtts


def godot_client(project, port: int, mode: str, n: int, paced: int = 0) -> list[float]:  # noqa: ANN001
    out = project.run("tests/godot/link/bench_link.gd", f"--port={port}", f"--mode={mode}", f"--n={n}",
                      f"--paced={paced}", f"--target={DOOR}", timeout=900)
    for line in out.stdout.splitlines():
        if line.startswith("BENCH "):
            return [float(v) for v in json.loads(line[6:])["rtt_us"]]
    raise RuntimeError(f"Godot bench failed ({out.returncode}):\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000, help="round trips per measurement")
    ap.add_argument("--paced", type=int, default=90, help="frame rate of the paced run (0: skip it)")
    ns = ap.parse_args()
    rows: list[tuple[str, dict[str, float], dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        project = build_project(Path(tmp))
        port = free_port()
        stop = multiprocessing.Event()
        router = multiprocessing.Process(target=echo_router, args=(port, stop), daemon=True)
        router.start()
        try:
            base = percentiles(python_client(port, "echo", ns.n))
            rows.append(("echo", base, percentiles(godot_client(project, port, "echo", ns.n))))
            if ns.paced:  # baseline: one frame period (a reply can only be seen on the next frame)
                paced_n = max(100, min(ns.n, 600))
                frame = {"p50": 1e6 / ns.paced, "p95": 1e6 / ns.paced, "p99": 1e6 / ns.paced}
                rows.append((f"echo polled per frame @{ns.paced} fps", frame,
                             percentiles(godot_client(project, port, "echo", paced_n, ns.paced))))
        finally:
            stop.set()
            router.join(5)
        agent_port = free_port()
        agent = start_agent(HAUS, agent_port)
        try:
            for mode in ("ping", "do"):
                n = ns.n if mode == "ping" else max(100, ns.n // 4)
                base = percentiles(python_client(agent_port, mode, n))
                rows.append((mode, base, percentiles(godot_client(project, agent_port, mode, n))))
        finally:
            stop_agent(agent)
    print(f"link round trips on loopback, microseconds (n={ns.n}); baseline: pyzmq DEALER in the same run")
    print(f"{'round trip':<34} {'client':<9} {'p50':>9} {'p95':>9} {'p99':>9}   ratio p50/p95/p99")
    for name, base, gd in rows:
        who = "1 frame" if "per frame" in name else "pyzmq"
        print(f"{name:<34} {who:<9} {base['p50']:9.0f} {base['p95']:9.0f} {base['p99']:9.0f}")
        ratios = "/".join(f"{gd[k] / base[k]:.2f}" for k in ("p50", "p95", "p99"))
        print(f"{'':<34} {'GDScript':<9} {gd['p50']:9.0f} {gd['p95']:9.0f} {gd['p99']:9.0f}   {ratios}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
