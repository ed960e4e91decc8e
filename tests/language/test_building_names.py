"""Things called by the building's own names as nouns: in the plural ("the purlins"), as the head of a
phrase ("the roof battens" are battens), coordinated ("the battens and the purlins"), kinds by whole words
(a bed is not a bedside table) and class words from architecture ("shading fins"). Expectations come from
the files read with ifcopenshell, independently of the agent."""

from __future__ import annotations

import re
from pathlib import Path

import ifcopenshell
import ifcopenshell.util.element as ue
import pytest

from pyagent.session import Session

BUILDINGS = Path(__file__).resolve().parent / "buildings"
HOUSE = BUILDINGS / "blenderbim_creative-freedom.ifc"


@pytest.fixture(scope="module")
def model() -> ifcopenshell.file:
    return ifcopenshell.open(str(HOUSE))


def _named(model: ifcopenshell.file, word: str) -> set[str]:
    """Elements with a body whose name is the word."""
    return {p.GlobalId for p in model.by_type("IfcElement")
            if (p.Name or "").lower() == word and p.Representation is not None}


def test_plural_names_and_head_nouns_and_coordination(model: ifcopenshell.file) -> None:
    purlins, battens = _named(model, "purlin"), _named(model, "batten")
    assert len(purlins) > 1 and len(battens) > 1
    s = Session.open(HOUSE)
    r = s.say("hide the purlins")
    assert r.ok and s.scene.hidden == purlins, r.answer
    s.say("undo")
    r = s.say("hide the roof battens and the purlins")
    assert r.ok and s.scene.hidden == purlins | battens, r.answer


def test_a_bed_is_not_a_bedside_table(model: ifcopenshell.file) -> None:
    def words(p: ifcopenshell.entity_instance) -> str:
        t = ue.get_type(p)
        return " ".join(x or "" for x in (p.Name, p.ObjectType, t.Name if t else "")).lower()

    furniture = [p for p in model.by_type("IfcFurnishingElement") if p.Representation is not None]
    beds = {p.GlobalId for p in furniture if re.search(r"\bbeds?\b", words(p))}
    assert beds and any("bedside" in words(p) for p in furniture)
    r = Session.open(HOUSE).say("how many beds are there?")
    assert r.ok and r.value == len(beds), r.answer


def test_shading_fins_are_the_shading_devices() -> None:
    path = next((p / "shared" / "ifc" / "real" / "ifcsverchok_Facades.ifc" for p in HOUSE.parents
                 if (p / "shared" / "ifc" / "real" / "ifcsverchok_Facades.ifc").is_file()), None)
    if path is None:
        pytest.skip("the shared reference files are not beside the checkout")
    devices = {d.GlobalId for d in ifcopenshell.open(str(path)).by_type("IfcShadingDevice")}
    s = Session.open(path)
    r = s.say("hide all the shading fins")
    assert r.ok and devices <= s.scene.hidden, r.answer


REVIT_DEU = BUILDINGS / "revit2022deu_sensor-versuchsstand.ifc"


def test_revit_family_words_and_storeys_by_their_first_word() -> None:
    # Revit names elements "Family:Type:ElementId"; its storeys "OG1- OK RD" are said "OG1"
    model = ifcopenshell.open(str(REVIT_DEU))
    sensors = {p.GlobalId for p in model.by_type("IfcElement") if re.match(r"Sensor\w*:[^:]+:\d+$", p.Name or "")}
    upper = next(s for s in model.by_type("IfcBuildingStorey") if (s.Name or "").startswith("OG1"))
    windows = {w.GlobalId for w in model.by_type("IfcWindow")
               if ue.get_container(w) == upper and w.Representation is not None}
    assert len(sensors) > 1 and windows
    s = Session.open(REVIT_DEU)
    r = s.say("hide the sensors")
    assert r.ok and s.scene.hidden == sensors, r.answer
    r = s.say("how many windows are on OG1?")
    assert r.ok and r.value == len(windows), r.answer


def test_doors_to_the_outside_where_the_file_marks_none_external() -> None:
    # every door says IsExternal false (the tool's default); the rooms' boundaries say two open outside,
    # one on each floor: "the front door" is the one on the user's floor
    model = ifcopenshell.open(str(REVIT_DEU))
    doors = model.by_type("IfcDoor")
    assert doors and not any(ue.get_psets(d).get("Pset_DoorCommon", {}).get("IsExternal") for d in doors)
    ground = min(model.by_type("IfcBuildingStorey"), key=lambda s: s.Elevation or 0.0)
    s = Session.open(REVIT_DEU)
    r = s.say("how many outside doors are there?")
    assert r.ok and r.value == 2, r.answer
    r = s.say("hide the front door")
    assert r.ok and len(s.scene.hidden) == 1, r.answer
    assert ue.get_container(model.by_guid(next(iter(s.scene.hidden)))) == ground


def test_german_furniture_names_by_english_words() -> None:
    model = ifcopenshell.open(str(REVIT_DEU))
    benches = {p.GlobalId for p in model.by_type("IfcElement") if (p.Name or "").startswith("Bank")}
    assert len(benches) == 1
    s = Session.open(REVIT_DEU)
    r = s.say("hide the bench")
    assert r.ok and s.scene.hidden == benches, r.answer


BPI_OFFICE = BUILDINGS / "autocadarch2012_bpi-office.ifc"  # rooms labelled "kitc", "corr", "semi", "prof", "kris"
HOM = BUILDINGS / "blenderbim_example-hom.ifc"  # rooms "Kitchen5", "Corridor3", "Children7", "Children10"


def _rooms(path: Path) -> dict[str, str]:
    """Room label (the LongName, else the Name) -> GlobalId, read with ifcopenshell."""
    return {(s.LongName or s.Name): s.GlobalId for s in ifcopenshell.open(str(path)).by_type("IfcSpace")}


def test_rooms_by_drawing_labels() -> None:
    rooms = _rooms(BPI_OFFICE)
    s = Session.open(BPI_OFFICE)
    for said, label in (("the kitchen", "kitc"), ("the corridor", "corr"), ("the seminar room", "semi"),
                        ("the professor's office", "prof"), ("Kris's office", "kris")):
        r = s.say(f"hide {said}")
        assert r.ok and s.scene.hidden == {rooms[label]}, (said, r.answer)
        s.say("undo")


def test_kids_rooms_and_the_door_between_two_rooms() -> None:
    rooms = {name.rstrip("0123456789"): [] for name in _rooms(HOM)}
    for name, gid in _rooms(HOM).items():
        rooms[name.rstrip("0123456789")].append(gid)
    s = Session.open(HOM)
    r = s.say("hide the kids' rooms")
    assert r.ok and s.scene.hidden == set(rooms["Children"]) and len(rooms["Children"]) == 2, r.answer
    s.say("undo")
    model = ifcopenshell.open(str(HOM))
    # the doors that bound both the kitchen and the corridor (IfcRelSpaceBoundary), read independently
    def bounded(space: str) -> set[str]:
        return {b.RelatedBuildingElement.GlobalId for b in model.by_type("IfcRelSpaceBoundary")
                if b.RelatingSpace.GlobalId in rooms[space] and b.RelatedBuildingElement is not None
                and b.RelatedBuildingElement.is_a("IfcDoor")}
    joining = bounded("Kitchen") & bounded("Corridor")
    assert len(joining) == 1
    r = s.say("hide the door between the kitchen and the corridor")
    assert r.ok and s.scene.hidden == joining, r.answer


def test_yes_or_no_a_door_leads_from_one_room_into_another() -> None:
    model = ifcopenshell.open(str(HOM))
    by_name = {s.Name: s.GlobalId for s in model.by_type("IfcSpace")}
    doors: dict[str, set[str]] = {}
    for b in model.by_type("IfcRelSpaceBoundary"):
        if b.RelatedBuildingElement is not None and b.RelatedBuildingElement.is_a("IfcDoor"):
            doors.setdefault(b.RelatingSpace.GlobalId, set()).add(b.RelatedBuildingElement.GlobalId)
    s = Session.open(HOM)
    for a, b, said in (("Kitchen5", "Corridor3", "does the kitchen open into the corridor?"),
                       ("Kitchen5", "Living1", "can I walk straight from the kitchen into the living room?"),
                       ("Living1", "Kitchen5", "is the living room connected to the kitchen?")):
        joined = bool(doors.get(by_name[a], set()) & doors.get(by_name[b], set()))
        r = s.say(said)
        assert r.ok and r.value is joined, (said, r.answer)
        assert ("Yes" if joined else "No") in r.answer and a in r.answer and b in r.answer, r.answer
