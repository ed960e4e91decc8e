"""The check every gold program must pass, shared by the benchmark and the held-out cases."""

from __future__ import annotations

from pyagent.actions.schema import schema_errors
from pyagent.language import evaluate as ev


def check_gold_case(case: ev.Case, sessions: ev.Sessions) -> None:
    """The gold program (and any setup) is schema-valid, runs with the expected outcome, changes
    nothing when it is a refusal, changes something for a state case, and is deterministic."""
    assert schema_errors(case.gold) == []
    for line in case.setup:
        if "say" in line:
            assert schema_errors(line["gold"]) == []
        if "do" in line:
            assert schema_errors(line["do"]) == []
    out = ev.run_case(sessions, case, gold=True)
    assert out.crashed is None and out.setup_errors == []
    assert out.ok == (case.check != "fail"), out.error
    if case.check == "fail":
        assert ev.state_diff(out.before, out.state) == [], "a refused program changed the scene"
        assert out.answer, "a refusal says why"
    if case.check in ("state", "both"):
        assert ev.state_diff(out.before, out.state), "the gold program of a state case changes nothing"
    if case.check in ("value", "both"):
        assert out.value is not None
    if case.pose_check == "room":
        fresh = sessions.fresh(case.ifc)
        place = ev.place_of(fresh)(out.state["pose"])
        if any(e.ifc_class == "IfcSpace" for e in fresh.building.elements.values()):
            assert place[1] is not None, "a room-checked teleport must end inside a room"
        else:  # no rooms in the file: the same storey is what is compared
            assert place[0] is not None, "a room-checked teleport must end on a storey"
    # Deterministic: the same case gives the same outcome in another fresh session.
    again = ev.run_case(sessions, case, gold=True)
    assert ev.values_equal(out.value, again.value, sessions.fresh(case.ifc).building)
    assert ev.state_diff(out.state, again.state) == []
