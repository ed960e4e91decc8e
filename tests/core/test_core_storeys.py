"""Storeys as people expect them: levels derived from contents where the file gives none, unnamed storeys
called by their level, and help text that only suggests what works in this building."""

from __future__ import annotations

from pathlib import Path

import ifcopenshell
import pytest

from pyagent.language.front import examples_for
from pyagent.session import Session

ROOT = Path(__file__).resolve().parents[2]
SHARED = next((f / "shared" / "ifc" / "real" for f in ROOT.parents if (f / "shared" / "ifc" / "real").is_dir()),
              ROOT.parent / "shared" / "ifc" / "real")
FACADES = SHARED / "ifcsverchok_Facades.ifc"
TINY_WALL = SHARED / "revit2014_tiny_wall.ifc"
needs_shared = pytest.mark.skipif(not FACADES.is_file(), reason=f"the shared reference files are not at {SHARED}")


@needs_shared
def test_storeys_without_a_level_take_it_from_their_contents() -> None:
    b = Session.open(FACADES).building
    levels = {s.name: round(s.elevation, 2) for s in b.storeys}
    assert levels == {"Storey": 0.0, "Storey-2": 3.0, "Storey-3": 6.0}
    for el in b.products():  # each storey's contents start at its level
        st = b.storey(el.storey)
        assert st is not None and el.bbox_min[2] >= st.elevation - 0.5, el.label()


@needs_shared
def test_an_unnamed_storey_is_called_by_its_level(tmp_path: Path) -> None:
    model = ifcopenshell.open(str(FACADES))
    for storey in model.by_type("IfcBuildingStorey"):
        storey.Name = None
    path = tmp_path / "unnamed.ifc"
    model.write(str(path))
    s = Session.open(path)
    assert [st.name for st in s.building.storeys] == ["level 0.00 m", "level 3.00 m", "level 6.00 m"]
    r = s.say("where am i")
    assert r.ok and "level 0.00 m" in r.answer
    for st in model.by_type("IfcBuildingStorey"):
        assert st.GlobalId not in r.answer
    r = s.say("which floor is the highest slab on")
    assert r.ok and r.answer.endswith("level 6.00 m."), r.answer


@pytest.mark.parametrize("path", [ROOT / "ifc" / "AC20-FZK-Haus.ifc", ROOT / "ifc" / "duplex.ifc", TINY_WALL, FACADES],
                         ids=["house", "duplex", "one-storey", "facades"])
def test_the_help_text_suggests_only_what_works_here(path: Path) -> None:
    if not path.is_file():
        pytest.skip(f"{path} is not there (the shared reference files)")
    s = Session.open(path)
    r = s.say("blorp the zonk")
    assert not r.ok
    suggestions = examples_for(s)
    assert len(suggestions) == 2 and all(f'"{x}"' in r.answer for x in suggestions)
    if len(s.building.storeys) < 2:
        assert "upstairs" not in r.answer
    for text in suggestions:
        tried = s.say(text)
        assert tried.ok, (text, tried.answer)


@pytest.mark.parametrize(("levels", "ground"), [
    ([0.0, 2.7], 0.0),                 # the house: the storey at the reference level
    ([-3.0, -0.25, 2.8, 5.6], -0.25),  # finished floor a little below zero, basement under it
    ([-2.9, -0.6, 2.4], -0.6),
    ([-1.2, 1.5, 4.5], 1.5),           # a raised ground floor above a half-sunk basement
    ([101.5, 104.5], 101.5),           # levels above sea level: the lowest
    ([-3.0], -3.0),                    # one storey: that one
])
def test_the_ground_floor_is_the_storey_nearest_the_reference_level(levels: list[float], ground: float) -> None:
    from pyagent.ingest import ground_storey
    from pyagent.model import Storey

    storeys = [Storey(id=f"s{i}", name=f"S{i}", elevation=z, index=i) for i, z in enumerate(levels)]
    picked = ground_storey(storeys)
    assert picked is not None and next(s for s in storeys if s.id == picked).elevation == ground
    assert ground_storey([]) is None


def test_a_house_whose_floors_sit_below_zero_keeps_its_ground_floor(tmp_path: Path) -> None:
    """The house with every storey lowered by 0.25 m (as some tools write a finished floor under the
    structural reference): the ground floor is still Erdgeschoss, and "upstairs" still the roof storey."""
    model = ifcopenshell.open(str(ROOT / "ifc" / "AC20-FZK-Haus.ifc"))
    for storey in model.by_type("IfcBuildingStorey"):
        rel = storey.ObjectPlacement.RelativePlacement
        x, y, z = rel.Location.Coordinates
        rel.Location = model.createIfcCartesianPoint((float(x), float(y), float(z) - 0.25))
        if storey.Elevation is not None:
            storey.Elevation = float(storey.Elevation) - 0.25
    path = tmp_path / "lowered.ifc"
    model.write(str(path))
    b = Session.open(path).building
    ground = b.storey(b.ground_storey)
    assert ground is not None and ground.name == "Erdgeschoss", [(s.name, s.elevation) for s in b.storeys]
    assert ground.elevation == pytest.approx(-0.25, abs=0.01)


OPEN_HOUSE = SHARED / "ifcopenshell_IfcOpenHouse_IFC4.ifc"


@pytest.mark.skipif(not OPEN_HOUSE.is_file(), reason=f"the shared reference files are not at {SHARED}")
def test_a_storey_without_a_level_stands_where_its_walls_start_not_at_the_footing_bottom() -> None:
    import ifcopenshell.geom

    model = ifcopenshell.open(str(OPEN_HOUSE))
    settings = ifcopenshell.geom.settings()
    settings.set("use-world-coords", True)

    def bottom(cls: str) -> float:
        return min(float(min(ifcopenshell.geom.create_shape(settings, e).geometry.verts[2::3]))
                   for e in model.by_type(cls))

    walls, footing = bottom("IfcWall"), bottom("IfcFooting")
    assert footing < walls - 1.0  # the file's footing reaches well below the walls
    (storey,) = Session.open(OPEN_HOUSE).building.storeys
    assert abs(storey.elevation - walls) <= 0.5 and storey.elevation > footing + 1.0
