"""``python -m pyagent demo [IFC]``: the product on the shipped house, end to end, in a terminal.

Loads the building (ingest, geometry, glb, scene graph), then plays a short design-review
conversation through the same front end the headset uses, printing what the user would hear and
what changed; finally renders the engine's desktop view of the result, from where the user stands,
to PNG when Godot can run here (the scene state is handed to the screenshot scene as a file).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from pyagent.model import Pose
from pyagent.paths import PROJECT_ROOT
from pyagent.progress import TerminalBar
from pyagent.session import Session

CONVERSATION: list[tuple[str, dict | None]] = [
    ("where am I?", {"position": [8.2, 2.2, 1.6], "yaw": 0.0, "pitch": 0.0}),
    ("how many windows are on the ground floor?", None),
    ("and upstairs?", None),
    ("which rooms are on the ground floor?", None),
    ("hide the door in front of me", {"position": [4.0, 4.5, 1.6], "yaw": 0.0, "pitch": 0.0}),
    ("undo that", None),
    ("paint the walls in the kitchen light green", None),
    ("how far is it to the bathroom?", None),
    ("take me to the kitchen", None),
    ("what is the furthest object from me and how deep is it?", None),
    ("put a sofa next to the nearest window", None),
    ("how tall is the front door?", None),
    ("look at the sofa", None),
    ("remember this view as sofa corner", None),
    ("cut the building at 1.2 metres", None),
    ("show me the model on the table", None),
]


def render(session: Session, out: Path | None = None, timeout: float = 240) -> Path | None:
    """Render the engine's desktop view of the session's state from the user's pose; the PNG path or None.

    Builds Godot's class cache first when the project's scripts changed (a fresh clone has none), and
    stops Godot at its first script error instead of waiting for it."""
    from pyagent.godot import GodotUnavailable, import_project, run_godot_checked

    out = out or PROJECT_ROOT / ".cache" / "demo-house.png"
    state_file = out.with_suffix(".state.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    state_file.write_text(json.dumps(session.state()))
    out.unlink(missing_ok=True)
    try:
        import_project(PROJECT_ROOT)
        code, log = run_godot_checked(
            ["--path", str(PROJECT_ROOT), "--rendering-driver", "opengl3", "res://scenes/screenshot.tscn", "--",
             "--no-agent", "--glb", str(session.glb_path), "--state", str(state_file), "--out", str(out)],
            display=True, timeout=timeout)
    except (OSError, GodotUnavailable) as exc:
        print(f"(no engine picture: {exc})")
        return None
    if code == 0 and out.is_file():
        print(f"Engine view of the result, from where you stand, rendered to {out}")
        return out
    last = [line for line in log.splitlines() if line.strip()][-3:] or ["Godot gave no output"]
    print(f"(no engine picture: Godot exited with {code}: " + " | ".join(last) + ")")
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pyagent demo")
    ap.add_argument("ifc", nargs="?", default=str(PROJECT_ROOT / "ifc" / "AC20-FZK-Haus.ifc"))
    ap.add_argument("--no-render", action="store_true", help="skip the engine screenshot")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress bar on stderr")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    with TerminalBar(Path(args.ifc).name, quiet=args.quiet) as bar:
        session = Session.open(args.ifc, progress=bar)
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
        render(session)
    print("\nInteractive: `python -m pyagent serve --ifc ifc/AC20-FZK-Haus.ifc` and, in another terminal, "
          "`python -m pyagent godot run -- --path .` (desktop mode without a headset).")
    return 0
