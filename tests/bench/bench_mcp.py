"""Benchmark: a change made by an MCP client, until a linked engine has its delta.

    .venv/bin/python tests/bench/bench_mcp.py [--ifc ifc/AC20-FZK-Haus.ifc] [--rounds 40]

Starts ``python -m pyagent serve --mcp-http`` on the file, links an engine stand-in (a DEALER socket
speaking PROTOCOL.md) and keeps one MCP session (the SDK's client, streamable HTTP) open. Each round
hides every door through the MCP ``hide`` tool, timed from the call until a second linked engine (on
its own thread) holds the delta, and until the MCP answer is back. The baseline, in the same run, is
the engine showing them again itself with a link ``do`` (until its delta arrives): the same size of
change, journaled the same way. Prints medians, p95 and the ratio MCP / link.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "mcp"))

from mcp import Client  # noqa: E402
from mcp_support import Engine, free_port, start_serve_with_mcp, stop  # noqa: E402

from pyagent.link.protocol import PROTOCOL_VERSION  # noqa: E402

TARGET = {"class": ["IfcDoor"]}


def _p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


class Listener:
    """A second linked engine, on its own thread, noting when each delta arrives."""

    def __init__(self, endpoint: str) -> None:
        self.engine = Engine(endpoint)
        self.engine.send({"type": "hello", "protocol": PROTOCOL_VERSION})
        self.engine.wait_for("welcome", 30000)
        self.arrivals: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            msg = self.engine.recv(50)
            if msg is not None and msg.get("type") == "delta":
                self.arrivals.append(time.perf_counter())

    def next_after(self, t: float, timeout_s: float = 5.0) -> float:
        deadline = time.perf_counter() + timeout_s
        while time.perf_counter() < deadline:
            for a in self.arrivals:
                if a >= t:
                    return a
            time.sleep(0.0005)
        raise AssertionError("no delta")

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.engine.close()


async def _rounds(url: str, engine: Engine, listener: Listener,
                  rounds: int) -> tuple[list[float], list[float], list[float]]:
    to_delta: list[float] = []
    to_answer: list[float] = []
    link_delta: list[float] = []
    async with Client(url) as client:
        await client.call_tool("count", {"target": TARGET})  # warm
        for i in range(rounds):
            t = time.perf_counter()
            r = await client.call_tool("hide", {"target": TARGET})
            to_answer.append(time.perf_counter() - t)
            assert not r.is_error, r.content[0].text
            to_delta.append(listener.next_after(t) - t)
            engine.wait_for("delta", 5000)
            t = time.perf_counter()  # baseline: the engine shows them again itself, over the link
            engine.send({"type": "do", "id": i + 1, "program": {"steps": [{"op": "show", "target": TARGET}]}})
            link_delta.append(listener.next_after(t) - t)
            engine.wait_for("delta", 5000)
            engine.wait_for("result", 5000)
    return to_delta, to_answer, link_delta


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ifc", type=Path, default=REPO / "ifc" / "AC20-FZK-Haus.ifc")
    ap.add_argument("--rounds", type=int, default=40)
    ns = ap.parse_args()
    link_port, mcp_port = free_port(), free_port()
    with tempfile.TemporaryDirectory() as journal:
        proc = start_serve_with_mcp(str(ns.ifc), link_port, mcp_port, journal, str(REPO))
        engine = Engine(f"tcp://127.0.0.1:{link_port}")
        listener = None
        try:
            engine.send({"type": "hello", "protocol": PROTOCOL_VERSION})
            engine.wait_for("welcome", 30000)
            listener = Listener(f"tcp://127.0.0.1:{link_port}")
            to_delta, to_answer, link_delta = asyncio.run(_rounds(f"http://127.0.0.1:{mcp_port}/mcp", engine,
                                                                  listener, ns.rounds))
        finally:
            if listener is not None:
                listener.close()
            engine.close()
            stop(proc)
    ms = 1000.0
    print(f"{ns.ifc.name}: {ns.rounds} rounds (hide every door over MCP, show them over the link), journaled")
    for name, values in (("MCP call -> engine has the delta", to_delta), ("MCP call -> answer", to_answer),
                         ("baseline: link do -> delta", link_delta)):
        print(f"  {name:<34} median {statistics.median(values) * ms:6.1f} ms   p95 {_p95(values) * ms:6.1f} ms")
    print(f"  ratio MCP / link (median to delta): {statistics.median(to_delta) / statistics.median(link_delta):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
