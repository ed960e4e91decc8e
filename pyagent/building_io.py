"""Building records to and from JSON (the cache format; no pickle, nothing executable)."""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import numpy as np

from pyagent.model import Building, Element, Storey
from pyagent.review.site import SiteLocation

_ELEMENT_FIELDS = tuple(f.name for f in fields(Element))


def _element_json(e: Element) -> dict[str, Any]:
    # shallow (``asdict`` deep-copies every value, the numpy boxes included): the JSON is the same
    d = {name: getattr(e, name) for name in _ELEMENT_FIELDS}
    d["bbox_min"] = [float(v) for v in e.bbox_min]
    d["bbox_max"] = [float(v) for v in e.bbox_max]
    return d


def save_building(b: Building, path: Path) -> None:
    data = {
        "path": b.path, "schema": b.schema, "file_hash": b.file_hash,
        "storeys": [asdict(s) | {"top": None if s.top == float("inf") else s.top} for s in b.storeys],
        "ground_storey": b.ground_storey, "true_north_deg": b.true_north_deg,
        "project_name": b.project_name, "warnings": b.warnings,
        "site": asdict(b.site) if b.site is not None else None, "origin": list(b.origin),
        "elements": [_element_json(e) for e in b.elements.values()],
    }
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False))
    tmp.replace(path)


def load_building(path: Path) -> Building:
    data = json.loads(path.read_text())
    elements: dict[str, Element] = {}
    for d in data["elements"]:
        d["bbox_min"] = np.asarray(d["bbox_min"], dtype=float)
        d["bbox_max"] = np.asarray(d["bbox_max"], dtype=float)
        if d.get("color") is not None:
            d["color"] = tuple(d["color"])
        elements[d["id"]] = Element(**d)
    storeys = []
    for s in data["storeys"]:
        s["top"] = float("inf") if s["top"] is None else s["top"]
        storeys.append(Storey(**s))
    return Building(
        path=data["path"], schema=data["schema"], file_hash=data["file_hash"], elements=elements,
        storeys=storeys, ground_storey=data["ground_storey"], true_north_deg=data["true_north_deg"],
        project_name=data["project_name"], warnings=data["warnings"],
        site=SiteLocation(**data["site"]) if data.get("site") else None,
        origin=tuple(float(v) for v in data.get("origin", (0.0, 0.0, 0.0))),  # type: ignore[arg-type]
    )
