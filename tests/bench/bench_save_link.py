"""Does saving block the link? An edited MiniProject is saved through a ``LinkServer`` while an engine
stand-in pings every 50 ms; the worst ping round trip is printed with the save written in the background
(the default) and, as the baseline in the same process, written on the link's own thread.

    .venv/bin/python tests/bench/bench_save_link.py [--ifc ifc/MiniProject.ifc]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import zmq

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "link"))

from link_client import LinkClient  # noqa: E402

from pyagent.link.server import LinkServer  # noqa: E402
from pyagent.session import Session  # noqa: E402

EDIT = {"steps": [{"op": "move", "target": {"class": ["IfcBeam"]}, "delta": [0.1, 0, 0]},
                  {"op": "color", "target": {"class": ["IfcColumn"]}, "rgba": [1, 0, 0, 1]},
                  {"op": "hide", "target": {"class": ["IfcSlab"]}}]}


def run(ifc: Path, background: bool) -> tuple[float, float, int]:
    """(seconds until the revision is on disk, worst ping round trip in s, pings answered meanwhile)."""
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / ifc.name
        shutil.copy(ifc, model)
        session = Session.open(model, save_dir=Path(tmp) / "out")
        ctx = zmq.Context()
        server = LinkServer(session, "inproc://bench-save", context=ctx, background_saves=background)
        thread = threading.Thread(target=server.run, kwargs={"install_signals": False}, daemon=True)
        thread.start()
        client = LinkClient("inproc://bench-save", ctx)
        try:
            client.send({"type": "hello", "protocol": 2})
            client.recv(10_000)
            client.send({"type": "do", "id": 1, "program": EDIT})
            while (got := client.recv(120_000)) is not None and got[0]["type"] != "result":
                pass
            t0 = time.perf_counter()
            client.send({"type": "do", "id": 2, "program": {"steps": [{"op": "save"}]}})
            worst, pings, done = 0.0, 0, 0.0
            while not done and time.perf_counter() - t0 < 600:
                t = time.perf_counter()
                client.send({"type": "ping", "t": t})
                while (got := client.recv(600_000)) is not None:
                    kind = got[0]["type"]
                    if kind == "status" or (kind == "result" and not background):
                        done = time.perf_counter() - t0
                    if kind == "pong":
                        break
                worst = max(worst, time.perf_counter() - t)
                pings += 1
                time.sleep(0.05)
            return done, worst, pings
        finally:
            server.stop()
            thread.join(30)
            client.close()
            server.close()
            session.close()
            ctx.term()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ifc", default=str(REPO / "ifc" / "MiniProject.ifc"))
    args = p.parse_args(argv)
    base = run(Path(args.ifc), background=False)
    bg = run(Path(args.ifc), background=True)
    for name, (done, worst, pings) in (("on the link thread (baseline)", base), ("in the background", bg)):
        print(f"save {name}: on disk after {done:.1f} s; worst ping round trip {worst * 1000:.0f} ms; "
              f"{pings} pings answered meanwhile")
    print(f"worst ping round trip while saving: {bg[1] / base[1]:.3f}x the baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
