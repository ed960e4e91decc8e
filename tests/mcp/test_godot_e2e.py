"""End to end: a headless Godot engine linked to ``serve --mcp-http`` receives the delta of a change an
MCP client made (the pattern of tests/engine/test_e2e.py)."""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_support import DOORS, HOUSE, REPO, data, free_port, start_serve_with_mcp, stop

sys.path.insert(0, str(REPO / "tests" / "engine"))
from engine_support import assert_passed, godot, run_scene_test  # noqa: E402, F401 - godot is a fixture

pytestmark = pytest.mark.godot


def test_engine_sees_a_change_made_over_mcp(godot: list[str], tmp_path: Path) -> None:  # noqa: F811
    link_port, mcp_port = free_port(), free_port()
    proc = start_serve_with_mcp(str(HOUSE), link_port, mcp_port, str(tmp_path / "journal"), str(REPO))
    expect, ready = tmp_path / "expect.json", tmp_path / "ready"
    expect.write_text(json.dumps({"doors": sorted(DOORS)}))
    outcome: dict[str, Any] = {}

    def engine() -> None:
        outcome["proc"] = run_scene_test("tests/godot/test_mcp_e2e.gd", [
            "--agent", f"tcp://127.0.0.1:{link_port}", "--expect", str(expect), "--ready", str(ready)], timeout=300)

    thread = threading.Thread(target=engine)
    thread.start()
    try:
        deadline = time.monotonic() + 300
        while not ready.exists() and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ready.exists(), "the engine never got in step with the agent"

        async def hide() -> Any:
            async with Client(f"http://127.0.0.1:{mcp_port}/mcp") as client:
                r = await client.call_tool("hide", {"target": {"class": ["IfcDoor"]}})
                assert not r.is_error, r.content[0].text
                return data(r)

        assert asyncio.run(hide())["ok"]
        thread.join(300)
    finally:
        thread.join(300)
        stop(proc)
    assert_passed(outcome["proc"])
