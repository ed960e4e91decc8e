"""Whatever is acknowledged replays: limits are relative to the building (a geo-referenced site 500 km
from the origin works), and a change the replay would refuse is refused before it is acknowledged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ifcopenshell
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from persist_helpers import FZK, copy_ifc, element_ids

from pyagent.actions.bounds import REACH_M
from pyagent.model import Pose
from pyagent.session import Session

UTM = (500000.0, 5400000.0, 100.0)


def utm_copy(folder: Path) -> Path:
    """FZK-Haus with its site placed at UTM-like coordinates (as survey-based files are)."""
    folder.mkdir(parents=True, exist_ok=True)
    model = ifcopenshell.open(str(FZK))
    model.by_type("IfcSite")[0].ObjectPlacement.RelativePlacement.Location.Coordinates = UTM
    out = folder / "utm-haus.ifc"
    model.write(str(out))
    return out


def restored(ifc: Path, journal: Path) -> Session:
    return Session.open(ifc, journal_dir=journal)


def test_a_building_far_from_the_origin_keeps_every_change(tmp_path: Path) -> None:
    ifc = utm_copy(tmp_path / "model")
    s = Session.open(ifc, journal_dir=tmp_path / "j")
    # The agent works relative to a local origin near the building (kept to write exports back in
    # the file's frame); the default pose stands in the building.
    ox, oy, _ = s.building.origin
    assert s.pose.position[0] + ox > 400_000 and abs(s.pose.position[0]) < 1000
    doors = element_ids(s.building, "IfcDoor")
    for request in ("turn left", "hide the doors"):
        assert s.say(request).ok, request
    assert s.do({"steps": [{"op": "move", "target": {"ids": doors[:1]}, "delta": [2, 0, 0]}]}).ok
    s.set_pose(Pose.from_json({"position": [UTM[0] + 5 - ox, UTM[1] + 5 - oy, UTM[2] + 1.6], "yaw": 10, "pitch": 0}))
    state = s.state()
    s.close()
    again = restored(ifc, tmp_path / "j")
    assert again.restore_report.problems == []
    assert again.restore_report.changes == 3
    assert again.state() == state
    again.close()


def test_moves_that_leave_the_building_far_behind_are_refused_and_the_rest_replays(fzk_copy: Path,
                                                                                    tmp_path: Path) -> None:
    s = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    door = element_ids(s.building, "IfcDoor")[0]
    acknowledged = 0
    refusal = None
    for _ in range(int(REACH_M / 50) + 5):
        r = s.do({"steps": [{"op": "move", "target": {"ids": [door]}, "delta": [50, 0, 0]}]})
        if not r.ok:
            refusal = r
            break
        acknowledged += 1
    assert refusal is not None and "further than" in (refusal.error or "")
    state = s.state()
    assert s.do({"steps": [{"op": "hide", "target": {"ids": [door]}}]}).ok  # later changes still work
    state = s.state()
    s.close()
    again = restored(fzk_copy, tmp_path / "j")
    assert again.restore_report.problems == []
    assert again.restore_report.changes == acknowledged + 1
    assert again.state() == state
    again.close()


def test_a_change_the_replay_would_refuse_is_not_acknowledged(fzk_copy: Path, tmp_path: Path) -> None:
    s = Session.open(fzk_copy, journal_dir=tmp_path / "j")
    walls = element_ids(s.building, "IfcWall")
    assert s.do({"steps": [{"op": "hide", "target": {"ids": walls[:1]}}]}).ok
    state = s.state()
    # a front end that edits the scene directly, out of every bound
    s.scene.transforms[walls[1]] = {"translation": [5e6, 0.0, 0.0], "rotation_deg": [0.0, 0.0, 0.0]}
    r = s.do({"steps": [{"op": "hide", "target": {"ids": walls[2:3]}}]})
    assert not r.ok and "not applied" in (r.error or "")
    assert s.state() == state  # rolled back to what is on disk
    s.close()
    again = restored(fzk_copy, tmp_path / "j")
    assert again.restore_report.problems == [] and again.state() == state
    again.close()


def test_poses_far_from_the_building_are_refused(fzk_copy: Path) -> None:
    s = Session.open(fzk_copy)
    before = s.state()
    for bad in ({"position": [REACH_M + 100, 0, 0]}, {"position": [0, 0, -5000]}):
        with pytest.raises(ValueError, match="building"):
            s.set_pose(Pose.from_json(bad))
    assert s.state() == before


moves = st.lists(st.tuples(st.sampled_from([0, 1, 2]),
                           st.lists(st.floats(-50, 50, allow_nan=False), min_size=3, max_size=3)
                           .filter(lambda v: sum(c * c for c in v) <= 2500)),
                 min_size=1, max_size=40)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=moves)
def test_every_acknowledged_move_replays(tmp_path_factory: pytest.TempPathFactory, plan: list[Any]) -> None:
    folder = tmp_path_factory.mktemp("replay")
    ifc = copy_ifc(FZK, folder / "model")
    s = Session.open(ifc, journal_dir=folder / "j")
    doors = element_ids(s.building, "IfcDoor")
    for which, delta in plan:
        s.do({"steps": [{"op": "move", "target": {"ids": [doors[which]]}, "delta": delta}]})
    state = s.state()
    s.close()
    again = restored(ifc, folder / "j")
    assert again.restore_report.problems == []
    assert again.state() == state
    again.close()
