"""``delete``: remove elements (restored by undo); never the spatial structure."""

from __future__ import annotations

from ops_support import IN_KITCHEN, Building, refused, step


def test_deletes_the_doors_and_undo_brings_them_back(fzk: Building) -> None:
    s = fzk.session(IN_KITCHEN)
    r = step(s, "delete", target={"class": ["IfcDoor"]})
    assert r.ok and s.executor.state.deleted == fzk.gids("IfcDoor")
    assert "undo" in r.answer
    assert step(s, "undo").ok and s.executor.state.deleted == set()


def test_a_room_cannot_be_deleted(fzk: Building) -> None:
    r = refused(fzk.session(IN_KITCHEN), "delete", target={"ids": [fzk.space("Küche")]})
    assert "spatial structure" in r.answer
