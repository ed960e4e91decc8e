"""``list_views``: the remembered views' names."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, step


def test_lists_names_sorted(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    r = step(s, "list_views")
    assert r.ok and r.value == [] and "not remembered any views" in r.answer
    for name in ("stair", "entrance"):
        assert step(s, "save_view", name=name).ok
    r = step(s, "list_views")
    assert r.value == ["entrance", "stair"] and r.answer == "Your views: entrance, stair."
