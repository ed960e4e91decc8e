"""``python -m pyagent demo [IFC]``: the product on the shipped house, end to end, in a terminal.

Loads the building (ingest, geometry, glb, scene graph), then plays a short design-review
conversation through the same front end the headset uses, printing what the user would hear and
what changed; finally renders the engine's desktop view to PNG when Godot can run here.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from pyagent.model import Pose
from pyagent.paths import PROJECT_ROOT
from pyagent.session import Session

CONVERSATION: list[tuple[str, dict | None]] = [
    ("where am I?", {"position": [8.2, 2.2, 1.6], "yaw": 0.0, "pitch": 0.0}),
    ("how many windows are on the ground floor?", None),
    ("and upstairs?", None),
    ("which rooms are on the ground floor?", None),
    ("hide the door in front of me", {"position": [4.0, 4.5, 1.6], "yaw": 0.0, "pitch": 0.0}),
    ("undo that", None),
    ("paint the walls in the kitchen light grey", None),
    ("how far is it to the bathroom?", None),
    ("take me to the kitchen", None),
    ("what is the furthest object from me and how deep is it?", None),
    ("put a sofa next to the nearest window", None),
    ("how tall is the front door?", None),
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pyagent demo")
    ap.add_argument("ifc", nargs="?", default=str(PROJECT_ROOT / "ifc" / "AC20-FZK-Haus.ifc"))
    ap.add_argument("--no-render", action="store_true", help="skip the engine screenshot")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    session = Session.open(args.ifc)
    b = session.building
    print(f"Loaded {Path(args.ifc).name} in {time.perf_counter() - t:.2f} s: {len(b.products())} elements, "
          f"{len(b.storeys)} storeys, {len(b.spaces())} rooms; glb at {session.glb_path}")
    for text, pose in CONVERSATION:
        if pose is not None:
            session.set_pose(Pose.from_json(pose))
        t = time.perf_counter()
        r = session.say(text)
        ms = (time.perf_counter() - t) * 1000
        print(f"\n> {text}\n  {r.answer}   [{'ok' if r.ok else 'no'}, {ms:.0f} ms]")
        if r.program:
            print(f"  program: {json.dumps(r.program, ensure_ascii=False)}")
    state = session.state()
    print(f"\nScene changes now: {len(state['hidden'])} hidden, {len(state['colors'])} recoloured, "
          f"{len(state['props'])} props; you stand at {[round(v, 2) for v in state['pose']['position']]}.")
    if not args.no_render:
        out = PROJECT_ROOT / ".cache" / "demo-house.png"
        cmd = [sys.executable, "-m", "pyagent.godot", "run", "--display", "--", "--path", str(PROJECT_ROOT),
               "--rendering-driver", "opengl3", "res://scenes/screenshot.tscn", "--", "--no-agent",
               "--glb", str(session.glb_path), "--out", str(out)]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as exc:
            print(f"(no engine screenshot: {exc})")
            return 0
        if done.returncode == 0 and out.is_file():
            print(f"Engine view rendered to {out}")
        else:
            print("(no engine screenshot: " + (done.stderr.strip().splitlines() or ["godot unavailable"])[-1] + ")")
    print("\nInteractive: `python -m pyagent serve --ifc ifc/AC20-FZK-Haus.ifc` and, in another terminal, "
          "`python -m pyagent godot run -- --path .` (desktop mode without a headset).")
    return 0
