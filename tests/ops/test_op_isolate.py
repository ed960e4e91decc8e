"""``isolate``: show only some elements."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_only_the_walls_stay_visible(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    walls = fzk.gids("IfcWall") | fzk.gids("IfcWallStandardCase")
    r = step(s, "isolate", target={"class": ["IfcWall"]})
    assert r.ok and r.answer.startswith("Showing only")
    hidden = s.executor.state.hidden
    assert not hidden & walls
    assert fzk.gids("IfcDoor") <= hidden and fzk.gids("IfcSlab") <= hidden
    assert not hidden & fzk.gids("IfcSpace")  # rooms are not drawn, so never hidden


def test_isolating_nothing_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "isolate", target={"class": ["IfcRamp"]})
