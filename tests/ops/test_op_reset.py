"""``reset``: the model as loaded; the pose and remembered views stay."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, step


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
