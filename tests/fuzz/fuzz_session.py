"""A shared session for the fuzz tests: the house loaded once, a fresh Session per example."""

from __future__ import annotations

import json
from typing import Any

from persist_helpers import FZK

from pyagent.actions.schema import def_validator
from pyagent.loader import load
from pyagent.scenegraph import build_scene_graph
from pyagent.session import Session
from pyagent.spatial import SpatialIndex

LOADED = load(FZK)
GRAPH = build_scene_graph(LOADED.building, LOADED.meshes)
SPATIAL = SpatialIndex.build(LOADED.building, LOADED.meshes)
IDS = tuple(sorted(e.id for e in LOADED.building.elements.values()))[:60]
STATE_OK = def_validator("engine_state")


def fresh_session() -> Session:
    s = Session(LOADED, GRAPH, SPATIAL)
    s.executor.saver = lambda state: "revision.ifc"  # saving itself is tested in tests/persistence
    return s


def observable(s: Session) -> tuple[Any, ...]:
    h = s.executor.history
    return (json.dumps(s.state(), sort_keys=True), [id(x) for x in h.undo], [id(x) for x in h.redo],
            list(s.executor.last_ids), len(s.persistence.topics.topics), s.revision)
