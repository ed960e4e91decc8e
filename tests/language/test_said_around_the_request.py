"""Requests with something said around them, read as what they ask, on real files: a reason after the request
("..., we're not keeping it", "... so we remember ...", "... while you're at it"), a place said first ("from this
flat, ...", "from this bedroom, ..."), a question said as a statement ("in this kitchen, there is a dish
washer?"), a thing said again in the building's own words ("the roof timbers, the joists and purlins"), a
correction of the thing put somewhere ("a plant ... no, sorry, an armchair"), "that window" before one's eyes,
a follow-up of the whole building, the room directly above, the roof over a room, "down to the cellar", whether
a room can be reached, "closer to me" for a thing on one's left, and everything brought back after "just the
walls"."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import ifcopenshell
import pytest
from lang_support import BUILDINGS, ROOT, needs_real, standing_at

from pyagent.language import evaluate as ev

SAMPLE_HOUSE = "buildings/revit2015_samplehouse.ifc"
BUNGALOW = "buildings/blenderbim_creative-freedom.ifc"
QUANTITIES = "buildings/revit2008_quantities.ifc"
SMILEY = "buildings/archicad11_smiley-west.ifc"
HOM = "buildings/blenderbim_example-hom.ifc"
NIEDRIHA = "buildings/archicad9_niedriha.ifc"
MULTIZONE = "buildings/archicad18_multizone-office.ifc"
ROOFTOP = "buildings/archicad20_rooftop-4zones.ifc"
ALLPLAN = "buildings/allplan2016_haus1-1og.ifc"
GRETHE = "buildings/revit2019_grethes-hus.ifc"
OFFICE_5ZONE = "buildings/revit2022_5zone-office.ifc"
BPI_OFFICE = "buildings/autocadarch2012_bpi-office.ifc"
PORTUGUESE = "buildings/revit2024por_building-teste-gis.ifc"
SENSOR_RIG = "buildings/revit2022deu_sensor-versuchsstand.ifc"
CHINESE_DEMO = "buildings/revit2020chs_basic-demo.ifc"


# (building, where the user stands or None, said with more around it, said plainly, what must be equal)
SAID_PLAINLY: list[tuple[str, tuple[float, float, float, float] | None, str, str, str]] = [
    (SAMPLE_HOUSE, (-3.0, 1.5, 1.6, 90.0), "Get rid of the piano, we're not keeping it.", "delete the piano", "state"),
    (BUNGALOW, (-1.0, 1.5, 1.6, 270.0), "In this kitchen, there is a dish washer?", "is there a dishwasher",
     "value"),
    (QUANTITIES, None, "Please, how much is the floor area of the small offices all together?",
     "what is the total floor area of the small offices", "value"),
    ("duplex.ifc", (7.3, -14.0, 1.6, 90.0),
     "From this flat, how many ways out are there at ground level? I mean doors that go straight outside.",
     "how many outside doors are there on the ground floor in this flat", "value"),
    (SMILEY, (3.0, 4.0, 1.35, 0.0), "colour the bathrooms in the house at the east end blue, please",
     "colour the bathrooms in the east house blue", "program"),
    (BUNGALOW, (-2.0, 6.0, 1.6, 0.0), "Show me just the roof timbers, the joists and purlins, nothing else.",
     "isolate the joists and the purlins", "state"),
    (HOM, (6.0, 5.7, 1.6, 0.0), "which of the downstairs rooms gets the most windows?",
     "which room downstairs has the most windows", "value"),
    (SAMPLE_HOUSE, (4.5, 2.5, 1.6, 180.0), "From this bedroom, how far is it on foot to the front door?",
     "how far is the walk to the front door", "value"),
    ("buildings/revit2020chs_basic-demo.ifc", None, "Please, the big bedroom, how many square meter it have?",
     "what is the area of the biggest bedroom", "value"),
    (NIEDRIHA, (8.8, 9.5, 1.6, 180.0),
     "If there's a fire in this garage, can you get from here into the kitchen without going outside?",
     "is the kitchen reachable from here", "value"),
    (HOM, (6.0, 5.7, 4.475, 180.0), "what's behind the door on my left?", "where does the door on my left lead",
     "value"),
    (MULTIZONE, (9.5, 4.0, 1.6, 180.0), "Colour the gents' toilets red. No, wait, the ladies'.",
     "colour the ladies toilets red", "state"),
    ("buildings/autocadarch2012_bpi-office.ifc", (75.0, 43.0, 1.6, 90.0),
     "how many windows are there in the glass wall between us and the corridor",
     "how many windows are there between this room and the corridor", "value"),
    (ROOFTOP, (13.0, -3.0, 1.6, 180.0), "hide the walls round the bathroom so i can see whats in there",
     "hide the walls of the bathroom", "state"),
    (ROOFTOP, (15.0, -3.5, 1.6, 180.0), "How many of those big glass terrace doors are there?",
     "how many terrace doors are there", "value"),
    ("MiniProject.ifc", (22.0, 15.0, 1.6, 90.0), "How many piles has this building got in the foundation?",
     "how many piles are there", "value"),
    ("MiniProject.ifc", (22.0, 15.0, 1.6, 90.0), "whats the distance to the closest column from where im standing",
     "how far is the closest column", "value"),
    (ALLPLAN, (37.5, 152.5, 3.78, 0.0), "What flooring have we got in the stairwell?",
     "what is the floor finish in the stairwell", "value"),
    (GRETHE, (31.0, 19.0, 1.6, 0.0), "Can you colour the windows of the east living room blue?",
     "colour the windows of the living room on the east side blue", "state"),
    (GRETHE, (31.0, 19.0, 1.6, 0.0), "How many kitchen cabinets are there in total, across both kitchens?",
     "how many cabinets are there in the kitchens", "value"),
    ("buildings/renga_house.ifc", (3.1, -4.6, 1.6, 90.0), "This door in front of me, how much wide it is?",
     "how wide is the door in front of me", "value"),
    ("duplex.ifc", (1.5, -4.0, 1.6, 90.0), "How many of the steel beams are W410 sections?",
     "how many steel beams are called w410", "value"),
    ("duplex.ifc", (6.0, -15.5, 4.7, 90.0),
     "If there's a fire up here, how far is it on foot from this bedroom to the nearest door out of the building?",
     "how far is the walk to the nearest outside door", "value"),
    (SAMPLE_HOUSE, (-4.6, 1.6, 1.6, 90.0), "what kind of wood is the piano", "what is the piano made of", "value"),
    (SAMPLE_HOUSE, (-3.0, 0.5, 1.6, 180.0), "Hide the dining table and all its chairs, I want to see how much space "
     "there is without them.", "hide the dining table and its chairs", "state"),
    ("buildings/blenderbim_homemaker-test.ifc", (2.0, 2.5, 1.6, 0.0), "cut a plan through level one at one metre",
     "cut the model at one metre above level one", "program"),
    ("buildings/revit2020nld_gymzaal-hambakendreef.ifc", (3.0, 35.0, 1.6, 90.0),
     "Is there any door from the sports hall straight to the outside?",
     "is there an outside door in the sports hall", "value"),
    ("MiniProject.ifc", (10.0, 5.0, 1.6, 0.0),
     "Colour all the steel columns red please, I need to see which ones are steel and which are precast.",
     "colour the steel columns red", "state"),
    ("buildings/revit2024por_building-teste-gis.ifc", (-10.0, -23.0, 1.6, 90.0),
     "Can we lose the roof for a bit? I'd like to look down into the top flat.", "hide the roof", "state"),
    ("buildings/revit2024por_building-teste-gis.ifc", (-13.5, -23.5, 1.6, -90.0),
     "How high off the floor is the window on my right?", "what is the elevation of the window on my right", "value"),
    ("buildings/revit2024por_building-teste-gis.ifc", (-10.0, -23.0, 1.6, 90.0),
     "take me to the kitchen on the ground floor no wait the top floor", "take me to the kitchen on the top floor",
     "program"),
    (BUNGALOW, (-2.0, 3.0, 1.6, 0.0), "are the purlins up in the roof steel or timber?",
     "what are the purlins made of", "value"),
    (QUANTITIES, (-5.0, 0.0, 1.6, 0.0), "not counting the small offices, what is the average area of the other rooms?",
     "what is the average area of the rooms except the small offices", "value"),
    (QUANTITIES, (-5.0, 0.0, 1.6, 0.0), "which rooms back onto my room", "which rooms are next to this room",
     "value"),
    (QUANTITIES, (-5.0, 0.0, 1.6, 0.0), "how many cubic meters of wall do we have in total",
     "what is the total volume of the walls", "value"),
    (QUANTITIES, (-5.0, 0.0, 1.6, 0.0), "what's the air volume in this room", "what is the volume of this room",
     "value"),
    (NIEDRIHA, (2.0, 4.4, 1.6, 0.0), "how high is the sill of the window behind me",
     "what is the elevation of the window behind me", "value"),
    (OFFICE_5ZONE, None, "what sill height did the architects go for on the windows",
     "what is the sill height of the windows", "value"),
    (BPI_OFFICE, (86.0, 47.35, 1.6, 0.0), "How many doors actually open to the outside? don't count the inside doors",
     "how many external doors are there", "value"),
    (BPI_OFFICE, (86.0, 47.35, 1.6, 0.0), "fire officer here, what's the clear width of this corridor where I'm stood?",
     "how wide is this corridor", "value"),
    (BPI_OFFICE, (80.0, 47.35, 1.6, 180.0), "which rooms can we walk into from here",
     "which rooms open off this room", "value"),
    (NIEDRIHA, (2.5, 6.0, 4.45, 270.0), "chop everything away apart from the kitchen downstairs",
     "make a section box around the kitchen downstairs", "program"),
    ("buildings/blenderbim_3rooms-heater-table.ifc", (-1.2, 11.5, 1.6, 0.0), "how many doors are there off this lobby",
     "how many doors are in this room", "value"),
    ("buildings/freecad_testhouse.ifc", None, "isolate the structure, the columns and the beams",
     "isolate the columns and the beams", "state"),
    ("buildings/freecad_testhouse.ifc", None, "remove the bar table, no, just hide it", "hide the bar table",
     "state"),
    (GRETHE, (31.0, 19.0, 1.6, 90.0), "how many windows in the two living rooms added together",
     "how many windows are in both living rooms", "value"),
    (BUNGALOW, (2.5, 6.5, 1.6, 90.0), "take me to the room on the very top floor",
     "take me to the room on the top floor", "program"),
    (BUNGALOW, (1.0, 6.5, 4.0, 0.0), "the door in front of me, it leads to where?",
     "where does the door in front of me go", "value"),
    (OFFICE_5ZONE, (0.0, 6.0, 1.6, 0.0), "hide the roof, I want to look straight down into the rooms",
     "hide the roof", "state"),
    ("MiniProject.ifc", None, "what's the combined weight of the piles then?", "what is the total weight of the piles",
     "value"),
    ("duplex.ifc", (3.3, -15.0, 1.6, 90.0), "how many beams are there, and what grade of steel are they?",
     "how many beams are there and what are they made of", "value"),
    (OFFICE_5ZONE, (-1.5, 0.6, 1.6, 0.0), "Facilities here. This middle office, does it get any daylight at all?",
     "is there a window in this room", "value"),
    (OFFICE_5ZONE, (0.0, -5.0, 1.6, 270.0), "the windows, which width they have, and the sill is at which height?",
     "what is the sill height of the windows", "value"),
    (SENSOR_RIG, (9.0, 6.5, 5.25, 0.0), "How many sensors have been fitted in the whole test stand?",
     "how many sensors are there", "value"),
    ("MiniProject.ifc", None, "roughly how many cubic metres of concrete are we looking at in the piles?",
     "what is the total volume of the concrete piles", "value"),
    (SMILEY, (3.0, 4.0, 1.35, 0.0), "what do they call this room on the drawings", "what is the name of this room",
     "value"),
    ("AC20-FZK-Haus.ifc", None, "how many rooms are there in total? don't count the hall",
     "how many rooms are there except the hall", "value"),
    (CHINESE_DEMO, None, "Out of all the rooms, which one has the most floor area?", "which room is the biggest",
     "value"),
    (CHINESE_DEMO, None, "Put a plant in the kitchen, sorry, no, in the living room.",
     "put a plant in the living room", "program"),
    (CHINESE_DEMO, None, "This house have how many window?", "how many windows does this house have", "value"),
    (SENSOR_RIG, None, "make all the furnitures on the upper floor blue",
     "make all the furniture on the upper floor blue", "state"),
    (SAMPLE_HOUSE, None, "can you turn the piano around so it faces the other way", "rotate the piano 180 degrees",
     "program"),
    ("AC20-FZK-Haus.ifc", (5.0, 5.0, 1.6, 0.0),
     "How many doors are in the kitchen, and what's the floor area in there?", "what is the area of the kitchen",
     "value"),
    ("duplex.ifc", None, "Across both kitchens, how many cabinets are there altogether? Wall units included.",
     "how many cabinets are there in both kitchens", "value"),
    ("duplex.ifc", None, "What's the area of all the bedrooms together? In square meters please.",
     "what is the total area of the bedrooms", "value"),
    (SMILEY, (3.0, 4.0, 1.35, 0.0), "Take me to the bathroom on the first floor, no sorry, the one right at the top.",
     "take me to the bathroom on the top floor", "program"),
    (GRETHE, None, "How many windows are there in each of the living rooms?",
     "how many windows are in each living room", "value"),
    (BUNGALOW, None, "Hmm, show me just the purlins, oh and the joists too, hide everything else.",
     "isolate the purlins and the joists", "state"),
    ("MiniProject.ifc", None, "Colour the beams yellow - sorry, only the concrete ones.",
     "colour the concrete beams yellow", "state"),
    ("AC20-FZK-Haus.ifc", (5.0, 5.0, 1.6, 0.0), "How far's the bathroom from here if I walk it?",
     "how far is the walk to the bathroom", "value"),
    ("duplex.ifc", (3.3, -15.0, 1.6, 90.0), "what's the travel distance from where I'm standing to the nearest exit",
     "how far is the walk to the nearest outside door", "value"),
    (NIEDRIHA, (2.0, 4.4, 1.6, 0.0), "how many square metres of floor space have we got down in the cellar",
     "what is the total area of the rooms in the cellar", "value"),
    (NIEDRIHA, (2.0, 4.4, 1.6, 0.0), "This room here, how many square meter it has? And how many doors?",
     "how many doors are in this room", "value"),
    ("MiniProject.ifc", (22.0, 15.0, 1.6, 90.0), "what section is the column dead ahead of me",
     "what section is the column in front of me", "value"),
    (ALLPLAN, (37.5, 152.5, 3.78, 0.0), "What kind of flooring have they put in the stairwell?",
     "what is the floor finish in the stairwell", "value"),
    ("AC20-FZK-Haus.ifc", None, "What U-value have they given the windows?", "what is the u-value of the windows",
     "value"),
    (GRETHE, None, "please paint the bathroom in green, all of them", "paint all the bathrooms green", "state"),
    ("AC20-FZK-Haus.ifc", None, "Take the roof off and hide the stairs as well", "hide the roof and the stairs",
     "state"),
    ("duplex.ifc", None, "Ooh, how many bedrooms are there?", "how many bedrooms are there", "value"),
    (BPI_OFFICE, (86.0, 47.35, 1.6, 0.0), "I am in the corridor now. How I can walk from here to the seminar room?",
     "how do i get to the seminar room", "value"),
    (BPI_OFFICE, None, "Colour the kitchen blue, and Kris's office as well.",
     "colour the kitchen and kris's office blue", "state"),
    (SAMPLE_HOUSE, None, "what kind of wood is the piano made of", "what is the piano made of", "value"),
    (BUNGALOW, None, "How many beds are there? And wardrobes, how many?", "how many wardrobes are there", "value"),
    ("buildings/revit2017fra_rue-marc-antoine-petit.ifc", (-4.5, -11.0, 168.6, 0.0),
     "what's the quickest way out of the building?", "what is the route to the nearest outside door", "value"),
    (MULTIZONE, None, "Hide the windows on the east side... sorry, no, I mean the west side.",
     "hide the windows on the west side", "state"),
    (BUNGALOW, None, "make the washing machine red so the plumber sees it", "make the washing machine red", "state"),
    ("AC20-FZK-Haus.ifc", (5.0, 5.0, 4.5, 0.0), "and how high is the ceiling up here?", "how high is the ceiling here",
     "value"),
    (ROOFTOP, None, "Please you hide all the doors, I want see the space without them.", "hide all the doors", "state"),
    (CHINESE_DEMO, None, "The doors, how many they are, and what material they are made from?",
     "what are the doors made of", "value"),
    (PORTUGUESE, (-10.0, -23.0, 1.6, 90.0), "this room here, how many window it has?",
     "how many windows are in this room", "value"),
    (HOM, (6.0, 5.7, 1.6, 0.0), "which rooms can I walk straight into from the kitchen here",
     "which rooms open off the kitchen", "value"),
    (SENSOR_RIG, (9.0, 6.5, 5.25, 0.0), "the chairs up here, from which material they are made?",
     "what are the chairs up here made of", "value"),
    (OFFICE_5ZONE, (0.0, 6.0, 1.6, 0.0), "sorry, which office is this one?", "which room is this", "value"),
]


def _run(sessions: ev.Sessions, ifc: str, pose: tuple[float, float, float, float] | None, said: str) -> Any:
    s = standing_at(sessions, ifc, *pose) if pose else sessions.fresh(ifc)
    return s, s.say(said)


@pytest.mark.parametrize(("ifc", "pose", "loose", "plain", "same"), SAID_PLAINLY,
                         ids=[c[2][:40] for c in SAID_PLAINLY])
def test_said_around_is_said_plainly(sessions: ev.Sessions, ifc: str, pose: tuple[float, float, float, float] | None,
                                     loose: str, plain: str, same: str) -> None:
    s1, r1 = _run(sessions, ifc, pose, loose)
    s2, r2 = _run(sessions, ifc, pose, plain)
    assert r2.ok, (plain, r2.answer)
    assert r1.ok, (loose, r1.answer)
    if same == "value":
        assert r1.value == r2.value, (r1.value, r2.value)
    elif same == "program":
        assert r1.program == r2.program, (r1.program, r2.program)
    else:
        assert s1.scene.hidden == s2.scene.hidden
        assert s1.scene.deleted == s2.scene.deleted
        assert s1.scene.colors == s2.scene.colors
        assert s1.scene.hidden or s1.scene.deleted or s1.scene.colors


def _named(path: Path, *starts: str) -> set[str]:
    model = ifcopenshell.open(str(path))
    return {str(e.GlobalId) for e in model.by_type("IfcProduct") if (e.Name or "").upper().startswith(starts)}


def test_the_formwork_and_the_lifting_eyes_are_the_things_so_named(sessions: ev.Sessions) -> None:
    """MiniProject is Dutch: its formwork is "BEKISTING", its lifting eyes "HIJSOOG DIAM.60"."""
    s = sessions.fresh("MiniProject.ifc")
    r = s.say("Get rid of the formwork and the lifting eyes for now, I just want to see the actual precast pieces.")
    assert r.ok and [st["op"] for st in r.program["steps"]] == ["hide", "hide"], r.program
    bodies = {g for g, e in s.building.elements.items() if e.has_geometry}
    named = _named(ROOT / "ifc" / "MiniProject.ifc", "BEKISTING", "HIJSOOG") & bodies
    assert len(named) == 288 + 22 and s.scene.hidden == named


def test_the_roof_over_the_garage_is_not_the_house_roof_overhanging_it(sessions: ev.Sessions) -> None:
    """The Niedriha garage's roof is two pitched slabs whose eaves sit below the top of the garage's space; the
    house roof's box overhangs the garage's edge by half a metre."""
    s = standing_at(sessions, NIEDRIHA, 8.8, 9.5, 1.6, 180.0)
    r = s.say("Hide the roof over the garage for me.")
    assert r.ok and s.scene.hidden == _named(BUILDINGS / "archicad9_niedriha.ifc", "PROOF-22", "PROOF-23")


def test_whether_a_room_can_be_reached_says_which_room(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, NIEDRIHA, 8.8, 9.5, 1.6, 180.0)  # the garage: its only door leads outside
    r = s.say("can I get into the kitchen from here without going outside?")
    assert r.ok and r.value is False and "Kochen cannot be reached" in r.answer, r.answer


def test_the_room_directly_above_is_on_the_next_floor_up(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, HOM, 6.0, 5.7, 1.6, 0.0)
    r = s.say("Which room sits directly above the kitchen?")
    assert r.ok and len(r.value) == 1, r.answer
    kitchen = next(e for e in s.building.elements.values() if e.ifc_class == "IfcSpace" and e.name == "Kitchen5")
    above = s.building.elements[r.value[0]]
    index = {st.id: st.index for st in s.building.storeys}
    assert index[above.storey] == index[kitchen.storey] + 1  # not the attic two floors up
    assert above.bbox_min[0] < kitchen.bbox_max[0] and kitchen.bbox_min[0] < above.bbox_max[0]


def test_that_window_is_the_one_before_ones_eyes_and_the_thing_put_is_the_one_said_last(
        sessions: ev.Sessions) -> None:
    s = standing_at(sessions, BUNGALOW, 2.5, 6.5, 7.2, 90.0)
    r = s.say("Put a plant next to that window. No, sorry, an armchair.")
    assert r.ok, r.answer
    step = r.program["steps"][0]
    assert step["asset"] == "armchair" and step["anchor"]["relations"] == [{"rel": "in_front"}], step
    assert [p["asset"] for p in s.scene.props] == ["armchair"]


def test_the_whole_building_after_a_question_about_ones_flat(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(ROOT / "ifc" / "duplex.ifc"))
    bedrooms = [sp for sp in model.by_type("IfcSpace") if "Bedroom" in (sp.LongName or sp.Name or "")]
    s = standing_at(sessions, "duplex.ifc", 7.3, -14.0, 1.6, 90.0)
    assert s.say("How many bedrooms does this unit have?").value == len(bedrooms) // 2
    r = s.say("ok and in the whole building, both halves together?")
    assert r.ok and r.value == len(bedrooms) == 4, r.answer


def test_down_to_the_cellar_is_a_floor_down(sessions: ev.Sessions) -> None:
    """Smiley West's cellar rooms (ten "Kellerraum") are all on its lowest storey, "KG"."""
    s = standing_at(sessions, SMILEY, 3.0, 4.5, 1.35, 90.0)
    r = s.say("take me down to the cellar")
    assert r.ok and r.program == {"steps": [{"op": "change_floor", "by": -1}]}, r.program
    here = s.building.storey(s.view().user_storey())
    assert here is not None and here.name == "KG"


def test_a_reason_after_a_colour_and_a_remark_after_a_follow_up(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, QUANTITIES, -5.0, -3.0, 1.6, 180.0)
    door = s.say("how wide is that door?")
    assert door.ok, door.answer
    r = s.say("ok, make it red so we remember it still needs a fire rating")
    coloured = [s.building.elements[g] for g in s.scene.colors]
    assert r.ok and [e.ifc_class for e in coloured] == ["IfcDoor"], r.answer
    s = sessions.fresh(SAMPLE_HOUSE)
    assert s.say("Hide all the chairs.").ok
    r = s.say("and the tables too while you're at it")
    assert r.ok and r.program["steps"][0]["op"] == "hide" and r.program["steps"][0]["target"].get("kind") == "table"


@needs_real
def test_things_in_this_restaurant_and_a_thing_on_ones_left_brought_closer(sessions: ev.Sessions) -> None:
    sample = "real/revit2021_tested_sample_project.ifc"
    s = standing_at(sessions, sample, 0.0, -2.0, 1.6, 90.0)
    r = s.say("How much chairs there is in this restaurant?")
    assert r.ok and r.value == s.say("how many chairs are there").value == 28, r.answer
    r = s.say("pull the table on my left fifty centimetres closer to me")
    assert r.ok and r.program["steps"][0]["direction"] == "right", r.program  # towards the user, who faces +Y


@needs_real
def test_everything_brought_back_after_just_the_walls_includes_the_terrain(sessions: ev.Sessions) -> None:
    s = sessions.fresh("real/ifcopenshell_IfcOpenHouse_IFC4.ifc")
    assert s.say("Show me just the walls.").ok
    site = {g for g, e in s.building.elements.items() if e.ifc_class == "IfcSite" and e.has_geometry}
    assert site and site <= s.scene.hidden
    r = s.say("OK, bring everything back, and hide the roof instead.")
    roof = {g for g, e in s.building.elements.items() if e.ifc_class == "IfcRoof" or e.whole_class == "IfcRoof"}
    assert r.ok and roof and s.scene.hidden == roof, r.answer


def test_the_ceilings_are_the_coverings_typed_so(sessions: ev.Sessions) -> None:
    """The Allplan house's coverings are claddings, floorings and ceilings (predefined types)."""
    model = ifcopenshell.open(str(BUILDINGS / "allplan2016_haus1-1og.ifc"))
    ceilings = {str(c.GlobalId) for c in model.by_type("IfcCovering") if c.PredefinedType == "CEILING"}
    s = standing_at(sessions, ALLPLAN, 32.5, 146.0, 3.78, 90.0)
    r = s.say("hide all the ceilings i want to look into the rooms from above")
    bodies = {g for g, e in s.building.elements.items() if e.has_geometry}
    assert r.ok and len(ceilings) == 20 and s.scene.hidden == ceilings & bodies, r.answer


def test_the_room_next_door_in_an_office_is_a_room_beside_ones_own(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, MULTIZONE, 12.7, 14.5, 1.6, 180.0)
    r = s.say("What's the room next door on the north side called?")
    here = s.building.elements[s.view().user_room() or ""]
    assert r.ok and r.program["steps"][0]["target"]["relations"][0]["rel"] == "adjacent", r.program
    other = next(e for e in s.building.spaces() if r.value in (e.name, e.long_name))
    assert other.centre[1] > here.centre[1]  # north of the user's room


def test_a_count_and_mark_them_in_a_colour(sessions: ev.Sessions) -> None:
    s = sessions.fresh("buildings/renga_house.ifc")
    r = s.say("How many windows does the garage have? And mark them in yellow.")
    assert r.ok and r.value == len(s.scene.colors) > 0, r.answer


def test_a_colour_corrected_and_said_again_with_why(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "duplex.ifc", 1.5, -3.0, 1.6, 0.0)
    assert s.say("hide the doors").ok
    r = s.say("actually make them yellow. no wait, orange, orange is better")
    plain = standing_at(sessions, "duplex.ifc", 1.5, -3.0, 1.6, 0.0)
    assert plain.say("hide the doors").ok
    assert r.ok and r.program == plain.say("make them orange").program, r.program


def test_which_floor_has_the_most_after_a_count(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "buildings/blenderbim_homemaker-test.ifc", 9.0, 4.0, 4.8, 180.0)
    assert s.say("how many windows does this block have altogether").ok
    r = s.say("and which floor has the most?")
    assert r.ok and r.program == {"steps": [{"op": "group", "target": {"class": ["IfcWindow"]}, "by": "storey",
                                             "pick": "most"}]}, r.program
    counts: dict[str, int] = {}
    for e in s.building.elements.values():
        if e.ifc_class == "IfcWindow" and e.storey:
            counts[e.storey] = counts.get(e.storey, 0) + 1
    assert r.value == [max(counts, key=counts.__getitem__)]


def test_a_count_said_with_its_kinds_again_then_them(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "duplex.ifc", 5.5, -6.3, 1.6, 0.0)
    r = s.say("how many kitchen cabinets are in here, wall units and base units together?")
    assert r.ok and r.value == s.say("how many kitchen cabinets are in here").value, r.answer
    r = s.say("Right, make them all dark grey.")
    assert r.ok and len(s.scene.colors) == s.say("how many kitchen cabinets are in here").value, r.answer


def test_a_number_corrected_in_passing(sessions: ev.Sessions) -> None:
    from pyagent.language.parser import normalise

    assert normalise("Pull the couch out from the wall by thirty, no, fifty centimetres.").endswith("by 50 centimeters")


def test_the_one_upstairs_is_the_room_of_that_name_a_floor_up(sessions: ev.Sessions) -> None:
    """The Portuguese flats have a bedroom ("Quarto") on each of two floors; the user stands below both."""
    s = standing_at(sessions, PORTUGUESE, -10.0, -23.0, 1.6, 90.0)
    first = s.say("the bedroom on the first floor, how many square meters has it?")
    assert first.ok, first.answer
    r = s.say("and the one upstairs?")
    assert r.ok, r.answer
    (was,), (now,) = first.program["steps"][0]["target"]["ids"], r.program["steps"][0]["target"]["ids"]
    els = s.building.elements
    index = {st.id: st.index for st in s.building.storeys}
    assert els[now].long_name == els[was].long_name == "Quarto"
    assert index[els[now].storey] == index[els[was].storey] + 1
    assert r.value == pytest.approx(els[now].quantities["area"], abs=0.01) and r.value != first.value


def test_upstairs_in_a_file_of_one_storey_is_the_upper_rooms(sessions: ev.Sessions) -> None:
    """The IFC Engine example models two floors on its one storey: two rooms stand on the upper slab."""
    s = standing_at(sessions, "buildings/ifcengine_example.ifc", 5.4, 1.4, 1.6, 180.0)
    assert len(s.building.storeys) == 1
    rooms = sorted(s.building.spaces(), key=lambda e: float(e.bbox_min[2]))
    upper = [e for e in rooms if float(e.bbox_min[2]) > float(rooms[0].bbox_min[2]) + 2.0]
    r = s.say("what's the floor area of the upstairs rooms added together?")
    assert r.ok and len(upper) == 2, r.answer
    assert r.value == pytest.approx(sum(e.quantities["area"] for e in upper), abs=0.01)
    down = s.say("how many rooms are downstairs")
    assert down.ok and down.value == len(rooms) - len(upper), down.answer


def test_a_correction_naming_nothing_here_does_nothing(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, BPI_OFFICE, 80.0, 47.3, 1.6, 0.0)
    before = s.view().user_room()
    r = s.say("take me to the seminar room actually no the ballroom")
    assert not r.ok and "ballroom" in r.answer, r.answer
    assert s.view().user_room() == before
    assert s.say("take me to the seminar room, no, I mean the kitchen").ok  # a correction it has: done
    assert s.building.elements[s.view().user_room()].label().startswith("kitc")


def test_a_side_said_as_a_place_is_the_geometrys_and_a_side_in_a_name_is_the_name(sessions: ev.Sessions) -> None:
    """The five-zone office names its end rooms against the compass: "West office" lies at the east end."""
    s = standing_at(sessions, OFFICE_5ZONE, 0.0, 0.0, 1.6, 90.0)
    named = s.say("take me to the west office")
    assert named.ok and s.building.elements[s.view().user_room()].long_name == "West office", named.answer
    r = s.say("which of the offices is the one at the west end of the building?")
    assert r.ok and len(r.value) == 1, r.answer
    offices = [e for e in s.building.spaces() if "office" in e.long_name.lower()]
    north = math.radians(s.building.true_north_deg + 90.0)  # west, counter-clockwise from north

    def westness(e: Any) -> float:
        centre = (e.bbox_min[:2] + e.bbox_max[:2]) / 2.0
        return float(centre[0] * math.cos(north) + centre[1] * math.sin(north))

    assert r.value[0] == max(offices, key=westness).id
    assert s.building.elements[r.value[0]].long_name != "West office"


def test_the_other_kitchen_is_the_one_the_user_is_not_in(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, GRETHE, 32.5, 23.5, 2.0, 180.0)
    here = s.view().user_room()
    r = s.say("colour all the cupboards in the other kitchen white")
    assert r.ok, r.answer
    rooms = {s.building.elements[g].room for g in s.scene.colors}
    assert len(rooms) == 1 and here not in rooms
    assert s.building.elements[rooms.pop()].long_name.startswith(s.building.elements[here].long_name.split()[0])


def test_a_desk_in_each_of_the_rooms_said(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, QUANTITIES, -5.0, 0.0, 1.6, 0.0)
    small = [e.id for e in s.building.spaces() if (e.long_name or e.name) == "small office"]
    r = s.say("put a desk in each of the three small offices")
    assert r.ok and len(small) == 3, r.answer
    assert sorted(st["anchor"]["ids"][0] for st in r.program["steps"]) == sorted(small)
    assert [p["asset"] for p in s.scene.props] == ["desk"] * 3


def test_a_question_asked_again_of_other_things_in_the_same_breath(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, NIEDRIHA, 2.0, 4.4, 1.6, 0.0)
    r = s.say("What are the cellar walls built from, and the walls upstairs?")
    assert r.ok, r.answer
    first, second = r.program["steps"]
    assert first["op"] == second["op"] == "get" and first["property"] == second["property"] == "material"
    assert first["target"]["storey"] != second["target"]["storey"]


def test_this_house_of_a_duplex_counts_the_structure_both_halves_share(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(ROOT / "ifc" / "duplex.ifc"))
    s = standing_at(sessions, "duplex.ifc", 3.3, -15.0, 1.6, 90.0)
    r = s.say("how many beams are in this house")
    assert r.ok and r.value == len(model.by_type("IfcBeam")), r.answer
    doors = s.say("how many doors are in this house")
    assert doors.ok and 0 < doors.value < len(model.by_type("IfcDoor")), doors.answer  # the doors: this half's


def test_joists_and_rafters_no_name_says_are_found_where_they_are(sessions: ev.Sessions) -> None:
    """The rooftop flat's 93 beams are all named "Beam": those under its one floor carry it, those high above
    carry the roof."""
    s = standing_at(sessions, ROOFTOP, 13.0, -3.5, 1.6, 180.0)
    beams = [e for e in s.building.elements.values() if e.ifc_class == "IfcBeam"]
    level = s.building.storeys[-1].elevation
    under = {e.id for e in beams if float(e.bbox_max[2]) <= level + 0.05}
    high = {e.id for e in beams if float(e.bbox_min[2]) >= level + 2.0}
    assert under and high and len(under) + len(high) == len(beams)
    r = s.say("Hide all the floor joists, please.")
    assert r.ok and set(s.scene.hidden) == under, r.answer
    s.say("show everything")
    r = s.say("hide the roof beams")
    assert r.ok and set(s.scene.hidden) == high, r.answer
    assert s.say("how many rafters are there").value == len(high)


def test_a_sliding_door_in_a_russian_file_and_the_walls_around_a_room_just_asked_about(sessions: ev.Sessions) -> None:
    s = sessions.fresh("buildings/renga_house.ifc")
    sliding = [e for e in s.building.elements.values() if e.ifc_class == "IfcDoor"
               and "откатн" in f"{e.name} {e.type_name} {e.object_type}".lower()]
    r = s.say("how many sliding doors are there in this house?")
    assert r.ok and sliding and r.value == len(sliding), r.answer
    s = standing_at(sessions, CHINESE_DEMO, -5.0, -3.0, 1.6, 90.0)
    room = s.say("how big is the master bedroom?").program["steps"][0]["target"]["ids"][0]
    r = s.say("OK, hide the walls around it so I can see inside.")
    assert r.ok and s.scene.hidden, r.answer
    assert all(s.building.elements[g].room == room or room in s.building.elements[g].sides for g in s.scene.hidden)


def test_a_count_in_each_room_or_floor_said(sessions: ev.Sessions) -> None:
    s = sessions.fresh(GRETHE)
    kitchens = {e.id: e.long_name or e.name for e in s.building.spaces()
                if "kjøkken" in (e.long_name or e.name).lower()}
    r = s.say("How many cabinets are there in each of the kitchens?")
    assert r.ok and r.program["steps"][0]["op"] == "group", r.program
    assert set(r.value) == set(kitchens.values()) and all(n > 0 for n in r.value.values()), r.value
    r = s.say("how many windows are there per floor")
    assert r.ok and sum(r.value.values()) == sum(1 for e in s.building.elements.values() if e.ifc_class == "IfcWindow")


def test_how_far_after_the_way_there_is_the_walk(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "buildings/blenderbim_homemaker-test.ifc", 2.0, 2.5, 1.6, 0.0)
    r = s.say("How do I get from here to the kitchen, and how far is it?")
    assert r.ok and [st["op"] for st in r.program["steps"]] == ["route"], r.program


def test_counts_said_with_one_place_at_the_end_all_count_there(sessions: ev.Sessions) -> None:
    s = sessions.fresh("duplex.ifc")
    storeys = {st.id: st.name for st in s.building.storeys}

    def on(cls: str, storey: str) -> int:
        return sum(1 for e in s.building.elements.values() if e.ifc_class == cls and storeys.get(e.storey) == storey)

    for said in ("how many doors and how many windows are on level 1", "count the doors and the windows on level 1"):
        r = s.say(said)
        assert r.ok and [st["target"].get("storey") for st in r.program["steps"]] == ["Level 1", "Level 1"], r.program
        assert f"There are {on('IfcDoor', 'Level 1')} doors on Level 1." in r.answer, r.answer
    r = s.say("how many doors are there, and how many windows on level 1")
    assert r.ok and "storey" not in r.program["steps"][0]["target"], r.program  # the first asked of the whole house
    r = s.say("how many doors and windows are there on level 2")
    doors, windows = on("IfcDoor", "Level 2"), on("IfcWindow", "Level 2")
    assert r.ok and r.value == doors + windows and f": {doors} doors and {windows} windows." in r.answer, r.answer
    bedrooms = {e.id for e in s.building.spaces() if "bedroom" in (e.long_name or e.name).lower()}
    bathrooms = {e.id for e in s.building.spaces() if "bath" in (e.long_name or e.name).lower()}
    r = s.say("how many bedrooms and bathrooms are upstairs")
    upstairs = {g for g in bedrooms | bathrooms if storeys.get(s.building.elements[g].storey) == "Level 2"}
    assert r.ok and upstairs and r.value == len(upstairs) < len(bedrooms | bathrooms), (r.value, r.answer)


def test_whether_every_floor_has_one_is_the_count_on_each_floor(sessions: ev.Sessions) -> None:
    s = sessions.fresh("duplex.ifc")
    storeys = {st.id: st.name for st in s.building.storeys}
    baths = [e for e in s.building.spaces() if "bath" in (e.long_name or e.name).lower()]
    per_floor = {name: sum(1 for e in baths if e.storey == sid) for sid, name in storeys.items()}
    for said in ("is there a bathroom on every floor?", "Does each level have a bathroom?"):
        r = s.say(said)
        assert r.ok and r.program["steps"][0]["op"] == "group", (said, r.program)
        assert r.value == per_floor, (said, r.value)
    # which floors have one: those floors (not a count of each)
    r = s.say("which floors have a bathroom")
    assert r.ok and sorted(set(r.value)) == sorted(name for name, n in per_floor.items() if n), r.value
