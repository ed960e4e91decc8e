"""Words matched against names once per spatial index: the resolver keeps each row's verdict for a kind or a
name, so a request does not read every name of the building again (a door looked for by name in a file of
2,600 beams with no IfcDoor took 27 ms a request). The kept verdicts must give exactly the rows a fresh
match gives, and a rebuilt index (a new list of ids) starts afresh."""

from __future__ import annotations

import re

import numpy as np
import pytest
from core_support import Loaded

from pyagent.actions import selectors
from pyagent.actions.selectors import Context, Resolver, kind_rows, name_rows
from pyagent.model import Pose


def _words(loaded: Loaded, limit: int = 25) -> list[str]:
    """Words of the building's own names (the commonest first), and a few no name has."""
    counts: dict[str, int] = {}
    for el in loaded.loaded.building.elements.values():
        for w in re.findall(r"[^\W\d_]{3,}", f"{el.name} {el.object_type} {el.type_name}".lower()):
            counts[w] = counts.get(w, 0) + 1
    common = sorted(counts, key=lambda w: -counts[w])[:limit]
    return common + ["door", "sofa", "zzqx"]


@pytest.mark.parametrize("which", ["duplex", "mini"])
def test_kept_verdicts_give_the_rows_a_fresh_match_gives(which: str, request: pytest.FixtureRequest) -> None:
    loaded: Loaded = request.getfixturevalue(which)
    els, ids = loaded.loaded.building.elements, loaded.spatial.ids
    rng = np.random.default_rng(3)
    every = np.arange(len(ids))
    subsets = [every] + [np.sort(rng.choice(every, size=max(1, len(ids) // 7), replace=False)) for _ in range(3)]
    checked = 0
    for word in _words(loaded):
        for rows in subsets + [every]:  # the full set again after the subsets: verdicts kept from all of them
            for match in (kind_rows, name_rows):
                fresh = match(els, ids, rows, word)
                kept = match(els, ids, rows, word, remember=True)
                assert fresh.tolist() == kept.tolist(), (which, word, match.__name__)
                checked += len(fresh)
    assert checked > 100  # the building's own words do match


def test_a_word_is_matched_against_each_name_once(duplex: Loaded, monkeypatch: pytest.MonkeyPatch) -> None:
    els = duplex.loaded.building.elements
    ids = list(duplex.spatial.ids)
    calls: list[str] = []
    real = selectors._matches_kind

    def counted(el: selectors.Element, kind: str) -> bool:
        calls.append(el.id)
        return real(el, kind)

    monkeypatch.setattr(selectors, "_matches_kind", counted)
    rows = np.arange(len(ids))
    # a kind no name says as a whole word, so the second, compound reading is asked of every row
    first = kind_rows(els, ids, rows, "qqxyz", remember=True)
    assert len(calls) == len(ids) and not len(first)
    kind_rows(els, ids, rows, "qqxyz", remember=True)
    assert len(calls) == len(ids)  # asked nothing again
    kind_rows(els, ids, rows, "qqxyz")
    assert len(calls) == 2 * len(ids)  # not remembering asks again
    kind_rows(els, list(ids), rows, "qqxyz", remember=True)
    assert len(calls) == 3 * len(ids)  # another list of ids (a rebuilt index) starts afresh


def test_a_class_the_file_lacks_is_found_by_name_the_same_every_time(mini: Loaded) -> None:
    """MiniProject has no IfcDoor: "the door in front of me" is looked for in its names, pose after pose."""
    assert not any(el.ifc_class == "IfcDoor" for el in mini.loaded.building.elements.values())
    session = mini.session()
    sel = {"class": ["IfcDoor"], "relations": [{"rel": "in_front"}], "order": "nearest", "limit": 1}
    lo, hi = mini.spatial.bmin.min(axis=0), mini.spatial.bmax.max(axis=0)
    rng = np.random.default_rng(5)
    for _ in range(8):
        xy = lo[:2] + (hi[:2] - lo[:2]) * rng.uniform(0.2, 0.8, 2)
        session.scene.pose = Pose(np.array([xy[0], xy[1], lo[2] + 1.6]), float(rng.uniform(-180, 180)), 0.0)
        ctx = Context(session.building, session.graph, session.spatial, session.scene)
        kept = Resolver(ctx).resolve(sel)
        selectors._VERDICTS.clear()
        assert Resolver(ctx).resolve(sel) == kept
