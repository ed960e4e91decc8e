"""The desktop app as a reviewer uses it: a real window under Xvfb, driven with xdotool, talking to
``pyagent serve`` on the shipped house. Commands are typed without clicking first; after each
one the HUD must show the current truth and nothing stale; a painted window stays see-through
and keeps its colour while selected; the spectator is its own window clear of the HUD and keys
still move the user; lines about a lost agent go once it is back.

Snapshots (F12: PNG of the view, PNG of the spectator, JSON of the HUD) are kept under
``tests/artifacts/desktop_gui/`` (ignored by git) for a person to look at.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from desktop_app import REPO, Agent, AppError, DesktopApp, Snapshot, display, free_port, tools_missing
from png_read import read_png

pytestmark = pytest.mark.godot

ARTIFACTS = REPO / "tests" / "artifacts" / "desktop_gui"
HAUS = REPO / "ifc" / "AC20-FZK-Haus.ifc"
STALE = ("python -m", "step 0", "listening...", "not connected")


@pytest.fixture()
def session(godot: list[str]) -> Iterator[tuple[Agent, DesktopApp]]:
    missing = tools_missing()
    if missing:
        pytest.skip(missing)
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    agent = Agent(HAUS, free_port())
    agent.start()
    with display() as disp:
        # A fixed quality level: pixels are compared between snapshots (auto: tests/bench).
        app = DesktopApp(disp, ARTIFACTS, ["--agent", agent.endpoint, "--spectator", "--quality", "low"])
        app.start()
        try:
            yield agent, app
        finally:
            app.stop()
            agent.stop()


def rgb(snap: Snapshot) -> np.ndarray:
    return read_png(snap.png)[:, :, :3].astype(np.int32)


def view_mask(*snaps: Snapshot) -> np.ndarray:
    """Pixels of the 3D view: not under the HUD panel (as large as it was in any of ``snaps``) or
    the command line (the bottom 56 px)."""
    w, h = snaps[0].info["window"][2:]
    mask = np.ones((h, w), bool)
    for snap in snaps:
        x, y, pw, ph = snap.info["hud_panel"]
        mask[max(y - 4, 0):y + ph + 4, max(x - 4, 0):x + pw + 4] = False
    mask[h - 56:, :] = False
    return mask


def overlaps(a: list[int], b: list[int]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def no_stale(snap: Snapshot, *allowed: str) -> None:
    hud = snap.info["hud"]
    for words in STALE:
        if words not in allowed:
            assert words not in hud, f"stale or technical HUD line ({words!r}):\n{hud}"


def test_desktop_as_a_reviewer_uses_it(session: tuple[Agent, DesktopApp]) -> None:
    agent, app = session
    app.out.wait_for(r"\[BimVoiceAgentLink\] agent ready", timeout=180)
    app.out.wait_for(r"BimVoice: render quality", timeout=60)
    first = app.until(lambda s: s.lines["note"].startswith("building:"), what="the building")
    no_stale(first)
    # The spectator is an OS window of its own that covers no part of the HUD panel.
    assert first.info["spectator_embedded"] is False
    assert not overlaps(first.info["spectator_window"], first.info["hud_panel"]), first.info
    assert first.spectator_png is not None
    before = rgb(first)

    # Typed without clicking first: the first key is not lost.
    answer = app.command("paint the windows red")
    assert answer == "Coloured 11 windows.", answer
    painted = app.until(lambda s: s.lines["changes"] == "11 painted", what="the paint")
    assert painted.lines["transcript"] == "paint the windows red"
    no_stale(painted)
    after = rgb(painted)
    changed = (np.abs(after - before).sum(axis=2) > 25) & view_mask(first, painted)
    r, g, b = after[..., 0], after[..., 1], after[..., 2]
    solid_red = changed & (r > 110) & (g < 70) & (b < 70)
    # See-through red glass: redder than before, not solid red (the view behind still shows).
    redder = (r - g) - (before[..., 0] - before[..., 1]) > 12
    see_through = changed & ~solid_red & redder
    assert solid_red.sum() > 500, f"the frames were not painted ({solid_red.sum()} px)"
    assert see_through.sum() > 2000, f"the painted glass is not see-through ({see_through.sum()} px)"

    # Selected, the painted glass keeps its colour (an outline and a light tint only).
    assert app.command("select all windows").startswith("Selected")
    selected = app.until(lambda s: s.lines["selection"] != "", what="the selection line")
    assert len(selected.info["selected"]) == 11
    shift = np.abs(rgb(selected) - after)[see_through & view_mask(selected)].mean(axis=0)
    assert (shift < 40).all(), f"the selection hides the colour (mean change {shift})"

    # A query after a change: no "Changed" line left over; cleared selection leaves the HUD.
    answer = app.command("how many windows are there")
    assert answer.startswith("There are 11 windows: ") and "Erdgeschoss" in answer, answer
    app.command("deselect")
    quiet = app.until(lambda s: s.lines["selection"] == "", what="the selection to clear")
    assert quiet.lines["changes"] == "", quiet.info["hud"]
    assert "Selected" not in quiet.info["hud"]
    no_stale(quiet)

    # Undo brings the selection back with its line; undoing the paint says what changed back.
    app.command("undo")
    reselected = app.until(lambda s: s.lines["selection"] != "", what="the selection to come back")
    assert len(reselected.info["selected"]) == 11
    app.command("undo")
    app.command("undo")
    undone = app.until(lambda s: "colour reset" in s.lines["changes"], what="the undo")
    assert undone.lines["selection"] == "", undone.info["hud"]
    no_stale(undone)

    # A command that starts with a movement key is typed whole ("show ..."), and a tap of W,
    # with the pointer over the spectator window, still moves the user.
    app.command("show all windows")
    assert app.snapshot().lines["transcript"] == "show all windows"
    sx, sy, sw, sh = first.info["spectator_window"]
    app.xdo("mousemove", str(sx + sw // 2), str(sy + sh // 2), "click", "1")
    start = app.snapshot().info["pose"]["position"]
    app.xdo("key", "w")
    moved = app.until(lambda s: abs(s.info["pose"]["position"][0] - start[0]) > 0.2, timeout=60,
                      what="a W tap to move the user")
    assert moved.info["typing"] is False
    app.xdo("mousemove", "400", "450")
    app.snapshot()  # the pointer's move between windows has been seen

    # Push-to-talk without speech recognition: a plain sentence, and no "listening..." left.
    # (Xvfb without a window manager can drop a key while the keyboard follows the pointer from
    # one window to another: V is pressed again if nothing came back.)
    spoken = ""
    for _ in range(3):
        mark = app.out.mark()
        app.xdo("keydown", "v")
        app.xdo("keyup", "v")
        try:
            spoken = app.out.wait_for(r"BimVoice: answer: (.*)|push-to-talk: (.*)", mark, 40).group(0)
            break
        except AppError:
            continue
    assert spoken, "push-to-talk gave no answer"
    assert "python -m" not in spoken, spoken
    talk = app.until(lambda s: "listening" not in s.info["hud"], what="push-to-talk to end")
    assert "python -m" not in talk.info["hud"], talk.info["hud"]

    # The agent goes away: typed commands say so; once it is back, that line goes.
    mark = app.out.mark()
    agent.stop()
    app.out.wait_for(r"\[BimVoiceAgentLink\] (lost|agent .* went away|agent not running)", mark, timeout=120)
    answer = app.command("hide the roof")
    assert "not connected" in answer, answer
    agent.start()
    app.out.wait_for(r"\[BimVoiceAgentLink\] agent ready", mark, timeout=180)
    back = app.until(lambda s: "not connected" not in s.info["hud"], what="the stale link line to go")
    assert back.lines["status"].startswith("agent ready"), back.info["hud"]
    assert back.lines["transcript"] == "", "the unsent command is not left as if pending"
    assert app.command("how many doors are there").startswith("There are"), "commands work again"
    final = app.snapshot()
    no_stale(final)
    # Without a voice: said once in the log, never an error per answer.
    log = app.out.tail(100000)
    assert 'Parameter "synth" is null' not in log
    assert log.count("no text-to-speech voice") <= 1
    assert Path(final.png).is_file() and final.spectator_png is not None


def test_offline_mode_says_what_it_is(godot: list[str]) -> None:
    missing = tools_missing()
    if missing:
        pytest.skip(missing)
    from pyagent.loader import load

    glb = load(HAUS).glb_path
    shots = ARTIFACTS.parent / "desktop_gui_offline"
    shutil.rmtree(shots, ignore_errors=True)
    with display() as disp:
        app = DesktopApp(disp, shots, ["--no-agent", "--glb", str(glb), "--quality", "low"])
        app.start()
        try:
            snap = app.until(lambda s: s.lines["note"].startswith("building:"), what="the building")
            status = snap.lines["status"]
            assert "offline" in status and glb.name in status and "`" not in status, snap.info["hud"]
            assert app.command("hide the roof").startswith("not sent"), "offline commands say so"
        finally:
            app.stop()
