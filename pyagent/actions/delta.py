"""Engine deltas: the difference between two scene states, as the schema's ``engine_delta``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: Review state the engine shows, sent whole when it changed (viewpoints stay with the agent).
ENGINE_WHOLE_KEYS: dict[str, Any] = {"sections": [], "sun": None, "view_scale": None}


def group_overrides(state: dict[str, Any], ids: Iterable[str]) -> list[dict[str, Any]]:
    """The override states of ``ids`` in ``state`` as ``engine_element_group`` entries: elements in
    the same state share one group (ids sorted, groups in the order of their first id), so a batch
    touching many elements the same way travels and applies as one entry."""
    hidden, deleted = set(state["hidden"]), set(state["deleted"])
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for gid in sorted(ids):
        color, transform = state["colors"].get(gid), state["transforms"].get(gid)
        key = (gid in hidden, gid in deleted, _frozen(color), _frozen(transform))
        group = groups.get(key)
        if group is None:
            group = groups[key] = {"ids": [], "hidden": gid in hidden, "color": color,
                                   "transform": transform, "deleted": gid in deleted}
        group["ids"].append(gid)
    return list(groups.values())


def _frozen(value: Any) -> Any:
    """A hashable stand-in with the same equality, for a colour, a transform or null."""
    if isinstance(value, dict):
        return tuple((k, _frozen(v)) for k, v in sorted(value.items()))
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def element_changes(delta: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """GlobalId -> override state (hidden, color, transform, deleted) of a delta's element groups."""
    out: dict[str, dict[str, Any]] = {}
    for group in delta["elements"]:
        override = {k: v for k, v in group.items() if k != "ids"}
        for gid in group["ids"]:
            out[gid] = override
    return out


def diff_states(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What changed from ``old`` to ``new`` (both ``engine_state``), as an ``engine_delta``."""
    touched: set[str] = set()
    for key in ("hidden", "deleted"):
        touched |= set(old[key]) ^ set(new[key])
    for key in ("colors", "transforms"):
        a, b = old[key], new[key]
        touched |= {g for g in set(a) | set(b) if a.get(g) != b.get(g)}
    old_props = {p["id"]: p for p in old["props"]}
    new_props = {p["id"]: p for p in new["props"]}
    changed_props = [p for pid, p in new_props.items() if old_props.get(pid) != p]
    delta: dict[str, Any] = {
        "elements": group_overrides(new, touched),
        "props_added": changed_props,
        "props_removed": sorted(
            pid for pid in old_props if pid not in new_props or old_props[pid] != new_props[pid]
        ),
    }
    if old["selected"] != new["selected"]:
        delta["selected"] = list(new["selected"])
    if old["pose"] != new["pose"]:
        delta["pose"] = new["pose"]
    for key, default in ENGINE_WHOLE_KEYS.items():
        if old.get(key, default) != new.get(key, default):
            delta[key] = new.get(key, default)
    return delta


def is_empty(delta: dict[str, Any]) -> bool:
    return not (
        delta["elements"] or delta["props_added"] or delta["props_removed"]
        or "selected" in delta or "pose" in delta or any(k in delta for k in ENGINE_WHOLE_KEYS)
    )
