"""``reset``: the model as loaded; the pose and remembered views stay."""

from __future__ import annotations

import shutil
from pathlib import Path

from ops_support import FZK, IN_KITCHEN, Building, step

from pyagent.session import Session


def test_every_edit_goes_but_views_stay(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    assert s.do({"steps": [{"op": "hide", "target": {"class": ["IfcDoor"]}},
                           {"op": "color", "target": {"class": ["IfcWindow"]}, "rgba": [1, 0, 0, 1]},
                           {"op": "save_view", "name": "kitchen"}]}).ok
    pose = s.executor.state.pose.to_json()
    r = step(s, "reset")
    st = s.executor.state
    assert r.ok and r.answer == "Back to the model as loaded."
    assert not st.hidden and not st.colors and "kitchen" in st.viewpoints and st.pose.to_json() == pose
    assert step(s, "undo").ok and s.executor.state.hidden == fzk.gids("IfcDoor")


def test_what_the_file_hides_stays_hidden(tmp_path: Path) -> None:
    """A saved review's hidden doors are part of the model as loaded: reset keeps them hidden."""
    src = tmp_path / FZK.name
    shutil.copy(FZK, src)
    s = Session.open(src)
    assert step(s, "hide", target={"class": ["IfcDoor"]}).ok and step(s, "save").ok
    revision = Session.open(tmp_path / f"{src.stem}.rev1.ifc")
    doors = {g for g, e in revision.building.elements.items() if e.ifc_class == "IfcDoor"}
    assert revision.executor.state.hidden == doors and len(doors) == 5
    assert step(revision, "hide", target={"class": ["IfcWindow"]}).ok
    assert step(revision, "reset").ok
    assert revision.executor.state.hidden == doors
