"""Tool calls and resources through the SDK's own client, on the shipped house."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp import Client
from mcp_support import DOORS, INNER_DOOR_1, data

from pyagent.mcp.app import build_server
from pyagent.mcp.gateway import MAX_ARGUMENT_BYTES

POSE = {"position": [4.0, 4.5, 1.6], "yaw": 0.0, "pitch": 0.0}


def run(gateway: Any, body: Callable[[Client], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with Client(build_server(gateway)) as client:
            return await body(client)

    return asyncio.run(main())


def test_count_doors_on_the_house(gateway: Any) -> None:
    r = run(gateway, lambda c: c.call_tool("count", {"target": {"class": ["IfcDoor"]}}))
    assert not r.is_error
    d = data(r)
    assert d["value"] == 5 and d["ok"] is True
    assert "5 doors" in r.content[0].text


def test_hide_then_get_state(gateway: Any, session: Any) -> None:
    async def body(c: Client) -> tuple[Any, Any]:
        hide = await c.call_tool("hide", {"target": {"class": ["IfcDoor"]}})
        return hide, await c.call_tool("get_state", {})

    hide, state = run(gateway, body)
    assert not hide.is_error and data(hide)["revision"] == 1
    got = data(state)
    assert set(got["state"]["hidden"]) == DOORS
    assert got["revision"] == 1
    assert got["state"] == session.state()


def test_say_after_set_pose_hides_the_door_in_front(gateway: Any, session: Any) -> None:
    async def body(c: Client, yaw: float) -> tuple[Any, Any]:
        pose = await c.call_tool("set_pose", {**POSE, "yaw": yaw})
        return pose, await c.call_tool("say", {"text": "hide the door in front of me"})

    pose, said = run(gateway, lambda c: body(c, 0.0))
    assert not pose.is_error and data(pose)["pose"] == POSE
    assert not said.is_error, said.content[0].text
    assert data(said)["program"]["steps"][0]["op"] == "hide"
    assert session.state()["hidden"] == [INNER_DOOR_1]
    # The same words facing the other way mean another door: the pose is the one MCP set.
    run(gateway, lambda c: c.call_tool("undo", {}))
    assert session.state()["hidden"] == []
    _, said = run(gateway, lambda c: body(c, 180.0))
    assert not said.is_error
    hidden = session.state()["hidden"]
    assert len(hidden) == 1 and hidden[0] in DOORS and hidden[0] != INNER_DOOR_1


def test_schema_invalid_calls_are_refused_and_change_nothing(gateway: Any, session: Any) -> None:
    run(gateway, lambda c: c.call_tool("color", {"target": {"class": ["IfcWindow"]}, "rgba": [1, 0, 0, 1]}))
    before = session.state()
    revision = session.revision

    async def body(c: Client) -> list[Any]:
        return [
            await c.call_tool("hide", {"target": {"class": ["IfcDoor"]}, "also": "rm -rf /"}),
            await c.call_tool("color", {"target": {"class": ["IfcDoor"]}, "rgba": [1, 0, 0]}),
            await c.call_tool("hide", {}),
            await c.call_tool("run_program", {"steps": [{"op": "hide", "target": {"ids": ["x"]}}]}),
            await c.call_tool("say", {"text": ""}),
            await c.call_tool("set_pose", {"position": [0, 0, 2e6], "yaw": 0, "pitch": 0}),
            await c.call_tool("hide", {"target": {"name": "x" * MAX_ARGUMENT_BYTES}}),
            await c.call_tool("launch_missiles", {}),
        ]

    results = run(gateway, body)
    for r in results:
        assert r.is_error, r
        assert r.content[0].text.startswith("Refused: "), r.content[0].text
        assert "Nothing was changed" in r.content[0].text
    assert "'also' was unexpected" in results[0].content[0].text
    assert "too large" in results[6].content[0].text
    assert "unknown tool" in results[7].content[0].text
    assert session.state() == before and session.revision == revision


def test_a_failing_program_is_an_error_result(gateway: Any, session: Any) -> None:
    r = run(gateway, lambda c: c.call_tool("hide", {"target": {"name": "no such thing anywhere"}}))
    assert r.is_error and data(r)["ok"] is False
    assert session.state()["hidden"] == []


def test_run_program_is_one_change_and_one_undo(gateway: Any, session: Any) -> None:
    program = {"steps": [{"op": "hide", "target": {"class": ["IfcDoor"]}},
                         {"op": "color", "target": {"class": ["IfcWindow"]}, "rgba": [0, 0, 1, 1]}]}

    async def body(c: Client) -> Any:
        r = await c.call_tool("run_program", program)
        assert not r.is_error, r.content[0].text
        assert session.state()["hidden"] and session.state()["colors"]
        return await c.call_tool("undo", {})

    undo = run(gateway, body)
    assert not undo.is_error
    assert session.state()["hidden"] == [] and session.state()["colors"] == {}


def test_resources(gateway: Any) -> None:
    async def body(c: Client) -> dict[str, Any]:
        listed = {str(r.uri) for r in (await c.list_resources()).resources}
        await c.call_tool("note", {"text": "Door swing clashes with the radiator",
                                   "target": {"class": ["IfcDoor"], "limit": 1, "order": "nearest"}})
        out = {uri: json.loads((await c.read_resource(uri)).contents[0].text) for uri in sorted(listed)}
        return out

    res = run(gateway, body)
    summary = res["bimvoice://building/summary"]
    assert summary["file"] == "AC20-FZK-Haus.ifc"
    assert [s["name"] for s in summary["storeys"]][:2] == ["Erdgeschoss", "Dachgeschoss"]
    assert summary["counts"]["IfcDoor"] == 5
    assert any(r["name"] for s in summary["storeys"] for r in s["rooms"])
    assert res["bimvoice://session/state"]["state"]["hidden"] == []
    notes = res["bimvoice://review/notes"]["topics"]
    assert len(notes) == 1 and notes[0]["title"] == "Door swing clashes with the radiator"
    assert notes[0]["author"].endswith("(via mcp)") and len(notes[0]["elements"]) == 1


def test_changes_are_journaled_with_source_mcp(tmp_path: Path) -> None:
    from mcp_support import HOUSE

    from pyagent.mcp.gateway import Gateway
    from pyagent.session import Session

    session = Session.open(HOUSE, journal_dir=tmp_path / "journal")
    gateway = Gateway(session)
    try:
        r = run(gateway, lambda c: c.call_tool("hide", {"target": {"class": ["IfcDoor"]}}))
        assert not r.is_error
        assert session.say("show everything").ok  # the reviewer, not MCP
    finally:
        gateway.close()
        session.close()
    lines = (tmp_path / "journal").glob("*.jsonl")
    records = [json.loads(line.split(" ", 1)[1]) for path in lines for line in path.read_text().splitlines()]
    changes = [r for r in records if r.get("k") == "change"]
    assert len(changes) == 2
    assert changes[0]["src"] == "mcp" and changes[0]["cause"] == "do"
    assert "src" not in changes[1]
    # The journaled session comes back with the MCP change undoable.
    again = Session.open(HOUSE, journal_dir=tmp_path / "journal")
    try:
        assert again.revision == 2
        assert again.do({"steps": [{"op": "undo"}]}).ok
        assert set(again.state()["hidden"]) == DOORS
    finally:
        again.close()


def test_waiting_requests_are_bounded() -> None:
    import threading

    import pytest

    from pyagent.mcp.gateway import WorkerRunner

    runner = WorkerRunner(max_waiting=2)
    gate = threading.Event()
    try:
        first, second = runner.submit(gate.wait), runner.submit(lambda: "second")
        third = runner.submit(lambda: "third")
        with pytest.raises(RuntimeError, match="busy"):
            third.result(timeout=1)
        gate.set()
        assert first.result(timeout=5) is True and second.result(timeout=5) == "second"
        assert runner.submit(lambda: "again").result(timeout=5) == "again"  # the slots came back
    finally:
        gate.set()
        runner.close()
