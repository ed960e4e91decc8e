"""``aggregate``: total, average, smallest and largest of a quantity over a set, with units; reference
values from the file's own quantity sets and attributes (ifcopenshell), not from pyagent."""

from __future__ import annotations

import ifcopenshell.util.element as ue
import pytest
from ops_support import IN_KITCHEN, Building, refused, step


def _qto(entity: object, name: str) -> float:
    """A base quantity of an element as the file gives it."""
    return float(ue.get_psets(entity, qtos_only=True)["BaseQuantities"][name])


def _ground_floor(fzk: Building) -> str:
    return min(fzk.model.by_type("IfcBuildingStorey"), key=lambda s: abs(s.Elevation)).GlobalId


def test_total_window_area_on_the_ground_floor(fzk: Building) -> None:
    ground = _ground_floor(fzk)
    windows = [w for w in fzk.model.by_type("IfcWindow")
               if ue.get_container(w) is not None and ue.get_container(w).GlobalId == ground]
    expected = sum(_qto(w, "Area") for w in windows)
    r = step(fzk.session(IN_KITCHEN), "aggregate", target={"class": ["IfcWindow"], "storey": "ground"},
             property="area", fn="total")
    assert r.ok and r.value == pytest.approx(expected, abs=1e-3)
    assert f"{expected:.2f} m²" in r.answer and f"{len(windows)} windows" in r.answer


def test_average_door_height_is_in_metres(fzk: Building) -> None:
    doors = fzk.model.by_type("IfcDoor")
    expected = sum(float(d.OverallHeight) for d in doors) / len(doors)
    r = step(fzk.session(IN_KITCHEN), "aggregate", target={"class": ["IfcDoor"]}, property="height", fn="average")
    assert r.ok and r.value == pytest.approx(expected, abs=1e-3)
    assert r.answer.startswith("The average height") and f"{expected:.2f} m." in r.answer


def test_the_biggest_room_is_named_with_its_area(fzk: Building) -> None:
    spaces = fzk.model.by_type("IfcSpace")
    biggest = max(spaces, key=lambda s: _qto(s, "NetFloorArea"))
    s = fzk.session(IN_KITCHEN)
    r = step(s, "aggregate", target={"class": ["IfcSpace"]}, property="size", fn="max")
    assert r.ok and r.value == pytest.approx(_qto(biggest, "NetFloorArea"), abs=1e-3)
    assert biggest.LongName in r.answer and "m²" in r.answer
    assert s.executor.last_ids == [biggest.GlobalId]  # "take me there" goes to it


def test_the_smallest_windows_tie_and_all_are_named(fzk: Building) -> None:
    windows = fzk.model.by_type("IfcWindow")
    smallest = min(_qto(w, "Area") for w in windows)
    tied = {w.GlobalId for w in windows if abs(_qto(w, "Area") - smallest) < 1e-6}
    s = fzk.session(IN_KITCHEN)
    r = step(s, "aggregate", target={"class": ["IfcWindow"]}, property="area", fn="min")
    assert r.ok and r.value == pytest.approx(smallest, abs=1e-3)
    assert set(s.executor.last_ids) == tied and len(tied) > 1
    assert all(fzk.model.by_guid(g).Name in r.answer for g in tied)


def test_total_room_area_agrees_with_get(fzk: Building) -> None:
    target = {"class": ["IfcSpace"], "storey": "ground"}
    got = step(fzk.session(IN_KITCHEN), "get", target=target, property="area")
    r = step(fzk.session(IN_KITCHEN), "aggregate", target=target, property="area", fn="total")
    assert r.ok and r.value == pytest.approx(got.value, abs=1e-3)


def test_a_quantity_nobody_has_is_refused(fzk: Building) -> None:
    refused(fzk.session(IN_KITCHEN), "aggregate", target={"class": ["IfcDoor"]}, property="wattage", fn="max")
