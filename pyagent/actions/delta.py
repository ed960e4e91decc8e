"""Engine deltas: the difference between two scene states, as the schema's ``engine_delta``."""

from __future__ import annotations

from typing import Any


def element_override(state: dict[str, Any], gid: str) -> dict[str, Any]:
    """The full override state of one element in a scene state (``engine_element_change``)."""
    return {
        "hidden": gid in state["hidden"],
        "color": state["colors"].get(gid),
        "transform": state["transforms"].get(gid),
        "deleted": gid in state["deleted"],
    }


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
        "elements": {g: element_override(new, g) for g in sorted(touched)},
        "props_added": changed_props,
        "props_removed": sorted(
            pid for pid in old_props if pid not in new_props or old_props[pid] != new_props[pid]
        ),
    }
    if old["selected"] != new["selected"]:
        delta["selected"] = list(new["selected"])
    if old["pose"] != new["pose"]:
        delta["pose"] = new["pose"]
    return delta


def is_empty(delta: dict[str, Any]) -> bool:
    return not (
        delta["elements"] or delta["props_added"] or delta["props_removed"]
        or "selected" in delta or "pose" in delta
    )
