"""The parser understands a building's own words: storeys by their own (decorated) names and by
number, element marks ("C4", "SD2", "HEA100") wherever a selector is expected, property names by
everyday words, and restrictive words ("just the windows", "half see-through", "onto the roof").
Expectations are computed from the files with ifcopenshell, independently of the agent."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import ifcopenshell
import ifcopenshell.util.element as ue
import ifcopenshell.util.unit as uu
import pytest

from pyagent.session import Session

SHARED = next((f / "shared" / "ifc" / "real" for f in Path(__file__).resolve().parents
               if (f / "shared" / "ifc" / "real").is_dir()), None)
IFC = Path(__file__).resolve().parents[2] / "ifc"
needs_shared = pytest.mark.skipif(SHARED is None, reason="the shared reference files are not beside the checkout")


def _real(name: str) -> Path:
    assert SHARED is not None
    path = SHARED / name
    if not path.is_file():
        pytest.skip(f"{name} is not in the shared folder")
    return path


def _storeys(model: Any) -> list[Any]:
    return sorted(model.by_type("IfcBuildingStorey"), key=lambda st: float(st.Elevation or 0.0))


def _level(model: Any, storey: Any) -> float:
    """A storey's elevation in metres."""
    return float(storey.Elevation or 0.0) * uu.calculate_unit_scale(model)


def _on(model: Any, storey: Any, ifc_class: str) -> list[Any]:
    return [e for e in model.by_type(ifc_class) if ue.get_container(e) == storey]


def _decorated(model: Any) -> list[tuple[Any, str]]:
    """Storeys whose name is a core decorated by a storey noun ("2階 - Story" -> "2階")."""
    out = []
    for st in model.by_type("IfcBuildingStorey"):
        m = re.fullmatch(r"(?P<core>\S+)\s*-\s*(story|storey|level|floor)", st.Name or "", re.IGNORECASE)
        if m:
            out.append((st, m.group("core")))
    return out


@needs_shared
def test_storey_by_its_own_name_without_decoration() -> None:
    path = _real("vectorworks2013_japanese_unicode.ifc")
    model = ifcopenshell.open(str(path))
    decorated = _decorated(model)
    assert decorated
    s = Session.open(path)
    for storey, core in decorated:
        columns = _on(model, storey, "IfcColumn")
        r = s.say(f"how many columns are there on {core}?")
        assert r.ok and r.value == len(columns), (core, r.answer)


@needs_shared
@pytest.mark.parametrize("name", ["vectorworks2013_japanese_unicode.ifc", "revit2014_japanese_unicode.ifc"])
def test_second_floor_is_the_storey_numbered_two_not_the_roof(name: str) -> None:
    path = _real(name)
    model = ifcopenshell.open(str(path))
    numbered = [st for st in model.by_type("IfcBuildingStorey") if re.search(r"(?<!\d)2(?!\d)", st.Name or "")]
    assert len(numbered) == 1
    second = numbered[0]
    above = [st for st in _storeys(model) if _level(model, st) > _level(model, second)]
    for text in ("take me up to the second floor", "go to level two"):
        s = Session.open(path)
        r = s.say(text)
        assert r.ok, (text, r.answer)
        z = float(s.pose.position[2])
        top = min(_level(model, st) for st in above) if above else float("inf")
        assert _level(model, second) <= z < top, (text, z)
    s = Session.open(path)
    walls = _on(model, second, "IfcWall") + [w for w in _on(model, second, "IfcWallStandardCase")
                                               if not w.is_a("IfcWall")]
    r = s.say("how many walls are on the second level?")
    assert r.ok and r.value == len(walls)


@needs_shared
def test_top_floor_is_not_a_storey_holding_only_the_roof() -> None:
    path = _real("revit2014_japanese_unicode.ifc")
    model = ifcopenshell.open(str(path))
    storeys = _storeys(model)
    top = storeys[-1]
    contents = [e for e in model.by_type("IfcProduct") if ue.get_container(e) == top]
    # The file's top storey holds the roof (a roof slab) and nothing else.
    assert contents and all(e.is_a("IfcRoof") or e.is_a("IfcSlab") and e.PredefinedType == "ROOF"
                            for e in contents)
    s = Session.open(path)
    r = s.say("take me to the top floor")
    assert r.ok
    z = float(s.pose.position[2])
    assert _level(model, storeys[-2]) <= z < _level(model, top), z


def _marked(model: Any) -> dict[str, list[Any]]:
    """Elements by short marks in their names: letters and digits ("C4", "SD2", "W0")."""
    out: dict[str, list[Any]] = {}
    for e in model.by_type("IfcProduct"):
        if e.Name and re.fullmatch(r"[A-Z]{1,3}\d{1,3}", e.Name):
            out.setdefault(e.Name, []).append(e)
    return out


@needs_shared
def test_marks_are_names_anywhere_a_selector_is_expected() -> None:
    path = _real("vectorworks2013_japanese_unicode.ifc")
    model = ifcopenshell.open(str(path))
    marks = _marked(model)
    assert {"C4", "SD2", "W0"} <= set(marks)
    s = Session.open(path)
    for mark, elements in sorted(marks.items()):
        r = s.say(f"hide {mark}")
        assert r.ok, (mark, r.answer)
        assert set(s.state()["hidden"]) == {e.GlobalId for e in elements}, mark
        s.say("reset")
    unique = sorted(m for m, els in marks.items() if len(els) == 1)
    assert unique
    for mark in unique:
        for text in (f"how far am I from {mark}?", f"how far away is {mark.lower()}"):
            r = s.say(text)
            assert r.ok and isinstance(r.value, float), (text, r.answer)
            assert r.program["steps"][0]["to"]["name"] == mark


@needs_shared
def test_a_mark_in_the_type_picks_those_of_the_class() -> None:
    path = _real("tekla_TOYO_INK_Legkezelo.ifc")
    model = ifcopenshell.open(str(path))

    def type_name(e: Any) -> str:
        t = ue.get_type(e)
        return (t.Name if t is not None else None) or e.ObjectType or ""

    beams = {b.GlobalId for b in model.by_type("IfcBeam") if type_name(b) == "HEA100"}
    assert beams
    s = Session.open(path)
    r = s.say("isolate the HEA100 beams")
    assert r.ok, r.answer
    shown = {g for g, e in s.building.elements.items() if e.has_geometry and not e.is_spatial} - set(
        s.state()["hidden"])
    assert shown == beams


def _pset_value(element: Any, name: str) -> Any:
    for props in ue.get_psets(element).values():
        if name in props:
            return props[name]
    return None


@needs_shared
def test_everyday_property_words_reach_the_building_property() -> None:
    path = _real("revit2014_japanese_unicode.ifc")
    model = ifcopenshell.open(str(path))
    windows = model.by_type("IfcWindow")
    assert len(windows) == 1
    u_value = _pset_value(windows[0], "ThermalTransmittance")
    assert u_value is not None
    s = Session.open(path)
    for text in ("what's the U value of the window upstairs?", "what is the u-value of the window"):
        r = s.say(text)
        assert r.ok and r.value == pytest.approx(u_value, abs=1e-3), (text, r.answer)
    walls = model.by_type("IfcWall")
    bearing = {_pset_value(w, "LoadBearing") for w in walls} - {None}
    r = s.say("what is the load bearing of W1")
    assert r.ok and set(r.value if isinstance(r.value, list) else [r.value]) <= bearing


@needs_shared
def test_fire_rating_on_a_mark_downstairs() -> None:
    path = _real("vectorworks2013_japanese_unicode.ifc")
    model = ifcopenshell.open(str(path))
    ground = _storeys(model)[0]
    c4 = [c for c in _on(model, ground, "IfcColumn") if c.Name == "C4"]
    assert len(c4) == 1
    s = Session.open(path)
    s.say("go to the second floor")
    r = s.say("what's the fire rating on C4 downstairs?")
    assert r.ok and r.value == _pset_value(c4[0], "FireRating"), r.answer


def test_unknown_property_names_the_closest_the_building_has() -> None:
    path = IFC / "duplex.ifc"
    model = ifcopenshell.open(str(path))
    names = {n for e in model.by_type("IfcProduct") for props in ue.get_psets(e).values() for n in props}
    s = Session.open(path)
    before = s.state()
    r = s.say("what is the colour temperature of the nearest door?")
    assert not r.ok and "colo" in r.answer
    said = r.answer.split("closest it has are", 1)[1].strip(" .").split(", ")
    assert said and set(said) <= {n.strip() for n in names}
    assert s.state() == before
    r = s.say("what is the fire rating of the nearest door?")
    assert r.program is not None and r.program["steps"][0]["property"].replace(" ", "") == "FireRating"


@needs_shared
def test_restrictive_words_are_not_names() -> None:
    path = _real("bonsai_project0-openings.ifc")
    model = ifcopenshell.open(str(path))
    windows = {w.GlobalId for w in model.by_type("IfcWindow")}
    assert windows
    s = Session.open(path)
    for text in ("show me just the windows", "show me only the windows, nothing else"):
        r = s.say(text)
        assert r.ok, (text, r.answer)
        shown = {g for g, e in s.building.elements.items() if e.has_geometry and not e.is_spatial} - set(
            s.state()["hidden"])
        assert shown == windows, text
        s.say("reset")
    s.say("select the windows")
    r = s.say("make them half see-through")
    assert r.ok and r.program["steps"][0]["alpha"] == 0.5
    assert {g for g, c in s.state()["colors"].items() if c[3] == 0.5} == windows


@needs_shared
def test_onto_the_roof_stands_on_the_roof() -> None:
    path = _real("revit2014_japanese_unicode.ifc")
    model = ifcopenshell.open(str(path))
    roof_slabs = [e for e in model.by_type("IfcSlab") if e.PredefinedType == "ROOF"]
    assert roof_slabs
    top = _storeys(model)[-1]
    s = Session.open(path)
    r = s.say("go up onto the roof")
    assert r.ok, r.answer
    assert float(s.pose.position[2]) >= _level(model, top)
    r = s.say("get rid of the roof for a moment, I want to look in from above")
    assert r.ok and [st["op"] for st in r.program["steps"]] == ["hide"]


@needs_shared
def test_a_two_word_name_wins_over_a_compass_word() -> None:
    """ "the east wall" in a file with a wall named "East wall" is that wall, not walls on the east."""
    path = _real("ifcopenshell_IfcOpenHouse_IFC4.ifc")
    model = ifcopenshell.open(str(path))
    named = {w.GlobalId for w in model.by_type("IfcWall") if (w.Name or "").lower() == "east wall"}
    assert len(named) == 1
    s = Session.open(path)
    r = s.say("how tall is the east wall at its highest point?")
    assert r.ok, r.answer
    step = r.program["steps"][0]
    assert step["property"] == "height" and set(s.executor.peek(step["target"])) == named


@needs_shared
def test_how_deep_a_footing_goes_is_its_height() -> None:
    import ifcopenshell.geom
    import numpy as np

    path = _real("ifcopenshell_IfcOpenHouse_IFC4.ifc")
    model = ifcopenshell.open(str(path))
    footings = model.by_type("IfcFooting")
    assert len(footings) == 1
    settings = ifcopenshell.geom.settings()
    settings.set("use-world-coords", True)
    verts = np.array(ifcopenshell.geom.create_shape(settings, footings[0]).geometry.verts).reshape(-1, 3)
    s = Session.open(path)
    r = s.say("how deep does the footing go?")
    assert r.ok and r.value == pytest.approx(float(np.ptp(verts[:, 2])), abs=0.01)
    r = s.say("which room am I standing in?")
    assert r.program is not None and r.program["steps"] == [{"op": "where_am_i"}]


@needs_shared
def test_next_level_up_follows_the_question() -> None:
    path = _real("revit2021_tested_sample_project.ifc")
    model = ifcopenshell.open(str(path))
    storeys = _storeys(model)
    assert len(storeys) >= 2
    s = Session.open(path)
    mine = s.spatial.storey_of_point(float(s.pose.position[2]))
    assert mine is not None
    index = [st.GlobalId for st in storeys].index(mine.id)
    assert index + 1 < len(storeys)
    r = s.say("how many windows are on this floor")
    assert r.ok and r.value == len(_on(model, storeys[index], "IfcWindow"))
    r = s.say("and on the next level up?")
    assert r.ok and r.value == len(_on(model, storeys[index + 1], "IfcWindow")), r.answer
    assert r.program["steps"][0]["target"]["storey"] == storeys[index + 1].Name
