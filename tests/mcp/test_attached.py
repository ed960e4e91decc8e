"""MCP inside ``serve``: one session for engines and MCP clients. A change made over MCP reaches a
connected engine as a delta, is journaled with source "mcp", and the reviewer can undo it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp_support import DOORS, HOUSE, REPO, Engine, data, free_port, start_serve_with_mcp, stop

from pyagent.link.protocol import PROTOCOL_VERSION


def test_mcp_change_reaches_the_engine_and_the_journal(tmp_path: Path) -> None:
    link_port, mcp_port = free_port(), free_port()
    journal = tmp_path / "journal"
    proc = start_serve_with_mcp(str(HOUSE), link_port, mcp_port, str(journal), str(REPO))
    engine = Engine(f"tcp://127.0.0.1:{link_port}")
    try:
        engine.send({"type": "hello", "protocol": PROTOCOL_VERSION})
        welcome = engine.wait_for("welcome")
        assert welcome["state"]["hidden"] == []

        async def hide() -> Any:
            async with Client(f"http://127.0.0.1:{mcp_port}/mcp") as client:
                return await client.call_tool("hide", {"target": {"class": ["IfcDoor"]}})

        r = asyncio.run(hide())
        assert not r.is_error, r.content[0].text
        # The delta was sent before the MCP answer: it is already waiting at the engine.
        delta = engine.wait_for("delta", timeout_ms=1000)
        assert delta["seq"] == welcome["seq"] + 1
        groups = delta["changes"]["elements"]
        assert {g for group in groups if group["hidden"] for g in group["ids"]} == DOORS

        # The reviewer in the headset undoes what the assistant did.
        engine.send({"type": "say", "id": 7, "text": "undo"})
        undo = engine.wait_for("delta")
        result = engine.wait_for("result")
        assert result["id"] == 7 and result["ok"], result
        assert all(not g["hidden"] for g in undo["changes"]["elements"])

        # A stdio-only MCP client reaches the same session through the relay.
        params = StdioServerParameters(command=sys.executable, cwd=str(REPO),
                                       args=["-m", "pyagent", "mcp", "--attach", f"http://127.0.0.1:{mcp_port}/mcp"],
                                       env={**os.environ, "PYTHONPATH": str(REPO)})

        async def paint() -> tuple[Any, Any]:
            async with Client(params) as client:
                r = await client.call_tool("color", {"target": {"class": ["IfcWindow"]}, "rgba": [1, 0, 0, 1]})
                return r, data(await client.call_tool("get_state", {}))

        r, state = asyncio.run(paint())
        assert not r.is_error, r.content[0].text
        painted = engine.wait_for("delta", timeout_ms=1000)
        assert {g["color"] == [1, 0, 0, 1] for g in painted["changes"]["elements"]} == {True}
        assert len(state["state"]["colors"]) == sum(len(g["ids"]) for g in painted["changes"]["elements"]) > 0
    finally:
        engine.close()
        stop(proc)
    records = [json.loads(line.split(" ", 1)[1]) for path in journal.glob("*.jsonl")
               for line in path.read_text().splitlines()]
    changes = [r for r in records if r.get("k") == "change"]
    assert [c.get("src") for c in changes] == ["mcp", None, "mcp"]
    assert changes[0]["input"]["steps"][0]["op"] == "hide"


def test_jobs_run_on_the_link_thread(session: Any) -> None:
    """``JobLinkServer.submit`` from another thread: the job runs in the link's loop, and its change is
    broadcast as a delta (here counted in the stats; no engine is connected)."""
    from pyagent.mcp.attach import JobLinkServer
    from pyagent.mcp.gateway import Gateway

    server = JobLinkServer(session, f"tcp://127.0.0.1:{free_port()}")
    loop = threading.Thread(target=server.run, kwargs={"install_signals": False})
    loop.start()
    try:
        gateway = Gateway(session, runner=server)
        threads: list[str] = []

        def where() -> str:
            threads.append(threading.current_thread().name)
            return "ok"

        assert gateway.run_sync(where) == "ok"
        assert threads == [loop.name]
        outcome = gateway.call("hide", {"target": {"class": ["IfcDoor"]}})
        assert outcome.ok and server.stats.deltas == 1 and server.jobs_run == 2
        refused = gateway.call("hide", {"target": {"class": "IfcDoor"}})
        assert not refused.ok and server.stats.deltas == 1
    finally:
        server.stop()
        loop.join(5)
        server.close()
    fut = server.submit(lambda: 1)  # after close: refused, never left hanging
    with pytest.raises((RuntimeError, concurrent.futures.CancelledError)):
        fut.result(timeout=1)
