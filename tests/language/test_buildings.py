"""The public buildings with rooms in tests/language/buildings/: every file its README lists exists, is
reached through the evaluator's ``buildings/`` prefix, and loads with the storeys and rooms the README
says; no file lies there unlisted."""

from __future__ import annotations

import re

import pytest

from pyagent.language import evaluate as ev
from pyagent.loader import load

README = ev.BUILDINGS_DIR / "README.md"
# first table: | file | tool | schema | names | storeys | spaces | elements | loader | MB |
_ROW = re.compile(r"^\| ([a-z0-9_.-]+\.ifc) \|(.*)\|\s*$")


def _listed() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in README.read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if m and m.group(1) not in rows:
            rows[m.group(1)] = [c.strip() for c in m.group(2).split("|")]
    return rows


LISTED = _listed()


def test_readme_lists_the_folder() -> None:
    assert len(LISTED) >= 6, LISTED
    on_disk = {p.name for p in ev.BUILDINGS_DIR.glob("*.ifc")}
    assert on_disk == set(LISTED)
    total = sum((ev.BUILDINGS_DIR / name).stat().st_size for name in on_disk)
    assert total <= 45_000_000, total


def test_prefix_resolves_to_the_folder() -> None:
    assert ev.ifc_path("buildings/renga_house.ifc") == ev.BUILDINGS_DIR / "renga_house.ifc"
    assert ev.ifc_path("duplex.ifc") == ev.IFC_DIR / "duplex.ifc"


@pytest.mark.parametrize("name", sorted(LISTED))
def test_building_loads_with_its_rooms(name: str) -> None:
    path = ev.ifc_path(f"buildings/{name}")
    assert path.is_file(), path
    with path.open("rb") as fh:
        assert fh.read(12) == b"ISO-10303-21", f"{name} is not a STEP file (an LFS pointer?)"
    cols = LISTED[name]
    storeys = int(cols[3].split()[0])
    spaces, loaded = int(cols[4]), int(cols[6])
    building = load(str(path)).building
    assert len(building.storeys) == storeys
    assert len(building.spaces()) == spaces >= 3
    assert len(building.elements) == loaded
