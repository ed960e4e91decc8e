"""Everyday turns of phrase read as the requests they stand for, on real files (references from ifcopenshell
where the file says it): corrections said last ("the doors, the windows I mean"), clarifications ("ways out
..., doors that go straight outside, I mean"), "of those" with nothing said before, rafters "holding up"
the roof, "both kitchens, not just this one", "the floor above" said exactly, the bathroom of the user's
own house upstairs in a terrace, the ceiling "in this hall", the room "where the equipment is stored",
"this little box" as the building, "but" joining two requests, "they are all same thickness?"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ifcopenshell
import ifcopenshell.util.element as ue
import pytest
from lang_support import standing_at

from pyagent.language import evaluate as ev
from pyagent.model import Pose

ROOT = Path(__file__).resolve().parents[2]
IFC = ROOT / "ifc"
BUILDINGS = Path(__file__).resolve().parent / "buildings"
GYM = "buildings/revit2020nld_gymzaal-hambakendreef.ifc"
SMILEY = "buildings/archicad11_smiley-west.ifc"
FLATS = "buildings/revit2024por_building-teste-gis.ifc"
REAL = ev.real_dir()  # the shared public sample buildings, where they lie beside this checkout
needs_real = pytest.mark.skipif(REAL is None, reason="the shared real buildings are not beside this checkout")


@pytest.fixture(scope="module")
def sessions() -> ev.Sessions:
    return ev.Sessions(use_llm=False)


def _ids(model: ifcopenshell.file, ifc_class: str, test: Any = lambda e: True) -> set[str]:
    return {str(e.GlobalId) for e in model.by_type(ifc_class) if test(e)}


def test_a_correction_said_last(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / "AC20-FZK-Haus.ifc"))
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 4.0, 4.9, 1.6, 180)
    r = s.say("hide the doors, the windows I mean")
    assert r.ok, r.answer
    assert set(s.state()["hidden"]) == _ids(model, "IfcWindow")


def test_a_clarification_of_what_is_counted(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 4.0, 4.9, 1.6, 180)
    plain = s.say("how many external doors are on the ground floor")
    said = s.say("How many ways out are there on the ground floor? Doors that go straight outside, I mean.")
    assert said.ok, said.answer
    assert said.value == plain.value == 2  # Haustuer and Terrassentuer


def test_rafters_holding_up_the_roof_are_the_rafters_in_it(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / "AC20-FZK-Haus.ifc"))
    r = standing_at(sessions, "AC20-FZK-Haus.ifc", 6.0, 6.0, 4.3, 90).say("How many rafters are holding up this roof?")
    assert r.ok, r.answer
    assert r.value == len(_ids(model, "IfcMember", lambda e: "Sparren" in (e.Name or ""))) == 42


def test_of_those_with_nothing_said_before(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / "duplex.ifc"))
    level2 = next(st for st in model.by_type("IfcBuildingStorey") if st.Name == "Level 2")
    # the cabinets are contained in rooms (IfcSpace), the rooms are parts of the storey
    tall = _ids(model, "IfcFurnishingElement", lambda e: "Tall Cabinet" in e.Name
                and ue.get_aggregate(ue.get_container(e)) == level2)
    r = standing_at(sessions, "duplex.ifc", 7.3, -13.0, 1.6, 90).say(
        "How many of those tall storage cupboards have we got upstairs? Both units together.")
    assert r.ok, r.answer
    assert r.value == len(tall) == 8


def test_both_kitchens_not_just_this_one(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / "duplex.ifc"))
    kitchens = {"A103", "B103"}
    cabinets = _ids(model, "IfcFurnishingElement", lambda e: ("Base Cabinet" in e.Name or "Upper Cabinet" in e.Name)
                    and ue.get_container(e).Name in kitchens)
    s = standing_at(sessions, "duplex.ifc", 5.5, -6.3, 1.6, -90)
    r = s.say("Let's see all the kitchen cabinets in white. Both kitchens, not just this one.")
    assert r.ok, r.answer
    assert set(s.state()["colors"]) == cabinets and len(cabinets) == 24


def test_the_floor_above_said_exactly_has_no_kitchen(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, FLATS, -14.5, -20.7, 1.6, 90)
    before = s.state()["pose"]
    r = s.say("Can you take me to the kitchen on the floor above?")
    assert not r.ok and s.state()["pose"] == before
    assert s.say("take me to the kitchen upstairs").ok  # "upstairs": the nearest storey above that has one


def test_the_bathroom_upstairs_of_the_users_own_house(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, SMILEY, 10.5, 1.2, 1.35)
    r = s.say("Take me upstairs to the bathroom.")
    assert r.ok, r.answer
    room = s.building.elements[str(ev.place_of(s)(s.state()["pose"])[1]).split("(")[-1].rstrip(")")]
    assert room.long_name == "BAD / WC-2-1"  # house 2, where the user stands; not the neighbours'


def test_the_ceiling_in_this_hall_is_measured_here(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, GYM, 1.0, 6.0, 1.6, 90)
    here = s.say("how high is the ceiling here")
    r = s.say("How high is the ceiling in this hall?")
    assert r.ok and r.value == here.value == pytest.approx(6.0)


def test_the_room_where_the_equipment_is_stored(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, GYM, 1.0, 6.0, 1.6)
    r = s.say("Can you take me into the room where the gym equipment is stored?")
    assert r.ok, r.answer
    room = str(ev.place_of(s)(s.state()["pose"])[1])
    assert "toestellenberging" in room


@needs_real
def test_this_little_box_is_the_building(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(ev.ifc_path("real/bonsai_project0-openings.ifc")))
    s = standing_at(sessions, "real/bonsai_project0-openings.ifc", 1.5, 1.4, 1.6, 90)
    r = s.say("So how many doors and how many windows does this little box actually have?")
    assert r.ok, r.answer
    assert [st["op"] for st in r.program["steps"]] == ["count", "count"]
    assert r.value == len(_ids(model, "IfcWindow"))


def test_but_joins_two_requests(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 4.0, 4.9, 1.6, 180)
    assert s.say("hide the wall in front of me").ok
    wall = s.state()["hidden"]
    r = s.say("Hmm, no, bring it back, but make it half see-through instead.")
    assert r.ok, r.answer
    state = s.state()
    assert state["hidden"] == [] and wall[0] in state["colors"]
    assert state["colors"][wall[0]][3] == pytest.approx(0.5)  # alpha


def test_all_same_thickness_asks_each_thickness(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 4.0, 4.9, 1.6, 180)
    plain = s.say("how thick are the walls")
    r = s.say("The walls, they are all same thickness? How thick they are?")
    assert r.ok, r.answer
    assert r.value == plain.value
    assert "thicknesss" not in plain.answer


def test_a_self_correction_without_pauses(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, FLATS, -13.6, -23.0, 1.6, 90)
    r = s.say("cut through the middle floor sorry the top floor at one and a half metres")
    assert r.ok, r.answer
    top = max(s.building.storeys, key=lambda st: st.elevation)
    assert r.program["steps"][0]["storey"] == top.name


def _named(model: ifcopenshell.file, ifc_class: str, name: str) -> set[str]:
    return _ids(model, ifc_class, lambda e: (e.Name or "") == name)


def test_words_for_things_the_building_names_in_its_own_language(sessions: ev.Sessions) -> None:
    # MiniProject is Dutch: piles are PAAL, the timber formwork BEKISTING, girders LIGGER
    model = ifcopenshell.open(str(IFC / "MiniProject.ifc"))
    s = standing_at(sessions, "MiniProject.ifc", 22.0, 15.0, 1.6, 90)
    assert s.say("how many piles are there").value == len(_named(model, "IfcBeam", "PAAL")) == 48
    r = s.say("can you switch off all that timber shuttering for now, I can't see the foundations")
    assert r.ok, r.answer
    assert set(s.state()["hidden"]) == _named(model, "IfcBeam", "BEKISTING")
    weights = {str(e.GlobalId): float(ue.get_psets(e).get("Tekla Quantity", {}).get("Weight", 0.0))
               for e in model.by_type("IfcBeam") if e.Name == "LIGGER"}
    t = standing_at(sessions, "MiniProject.ifc", 22.0, 15.0, 1.6, 90)
    assert t.say("colour the steel girders red").ok
    assert set(t.state()["colors"]) == set(weights)
    total = t.say("and what do they weigh all together?")
    assert total.ok and total.value == pytest.approx(sum(weights.values()), rel=1e-3)


@needs_real
def test_girders_are_beams_where_nothing_is_named_so(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "real/tekla_TOYO_INK_Legkezelo.ifc", 0.0, 0.0, 1.6)
    beams = sum(1 for e in s.building.elements.values() if e.ifc_class == "IfcBeam")
    assert s.say("how many girders are there").value == beams


def test_two_counts_of_the_same_things(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / "MiniProject.ifc"))
    s = standing_at(sessions, "MiniProject.ifc", 22.0, 15.0, 1.6, 90)
    r = s.say("Quick one: how many of the columns are steel and how many are concrete?")
    assert r.ok, r.answer
    steel, concrete = (s.say(f"how many of the columns are {m}").value for m in ("steel", "concrete"))
    assert [st["op"] for st in r.program["steps"]] == ["count", "count"] and r.value == concrete
    assert steel + concrete == len(model.by_type("IfcColumn")) == 26


@pytest.mark.parametrize(("ifc", "at", "meant", "said", "key"), [
    # "actually no, just the X": the place said before stays
    ("buildings/archicad19_office-cv2.ifc", (10.0, 10.0, 8.0), "hide the outside walls on this floor",
     "Hide the walls on this floor... actually no, just the outside walls.", "hidden"),
    # a correction keeps the colour said before it
    ("AC20-FZK-Haus.ifc", (3.0, 5.0, 1.6), "paint the office door red",
     "Paint the bathroom door red... no, sorry, I meant the door to the office.", "colors"),
])
def test_a_correction_does_what_the_request_meant_does(sessions: ev.Sessions, ifc: str, at: tuple[float, float, float],
                                                       meant: str, said: str, key: str) -> None:
    plain = standing_at(sessions, ifc, *at)
    assert plain.say(meant).ok
    s = standing_at(sessions, ifc, *at)
    r = s.say(said)
    assert r.ok, r.answer
    assert s.state()[key] == plain.state()[key] and plain.state()[key]


def test_a_date_with_a_compound_ordinal(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 4.0, 4.9, 1.6)
    r = s.say("show me the sun at six in the evening on the twenty first of june")
    assert r.ok, r.answer
    assert r.program["steps"][0]["date"].endswith("-06-21") and r.program["steps"][0]["time"] == "18:00"


def test_how_many_said_with_a_singular_noun(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(BUILDINGS / "renga_house.ifc"))
    s = standing_at(sessions, "buildings/renga_house.ifc", 3.1, -4.5, 1.6, 90)
    r = s.say("Sorry, how many bathroom has this house?")
    assert r.ok, r.answer
    assert r.value == len(_ids(model, "IfcSpace", lambda e: e.LongName == "С/У")) == 2


def test_the_big_room_upstairs_is_the_largest_there(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "buildings/renga_house.ifc", 3.1, -4.5, 1.6, 90)
    r = s.say("Take me up to the big room upstairs.")
    assert r.ok, r.answer
    assert "Большая комната" in str(ev.place_of(s)(s.state()["pose"])[1])


def test_a_thing_to_place_said_again(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 3.0, 5.0, 1.6)
    r = s.say("Put a sofa in the living room - no, sorry, make that an armchair, not a sofa.")
    assert r.ok, r.answer
    assert [p["asset"] for p in s.state()["props"]] == ["armchair"]


def test_one_word_for_another_said_last(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "MiniProject.ifc", 22.0, 15.0, 1.6)
    r = s.say("How tall is the tallest beam - sorry, column, I mean?")
    assert r.ok, r.answer
    assert r.program["steps"][0]["target"]["class"] == ["IfcColumn"]


def test_a_reason_to_look_into_a_room_is_no_request_to_go_there(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 3.0, 5.0, 1.6)
    before = s.state()["pose"]
    r = s.say("Could you hide the roof for a moment? I want to look down into the attic.")
    assert r.ok and [st["op"] for st in r.program["steps"]] == ["hide"]
    assert s.state()["pose"] == before and s.state()["hidden"]


def test_the_floor_space_downstairs_if_you_add_the_rooms_together(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / "AC20-FZK-Haus.ifc"))
    ground = next(st for st in model.by_type("IfcBuildingStorey") if st.Name == "Erdgeschoss")
    areas = [float(ue.get_psets(sp, qtos_only=True)["BaseQuantities"]["NetFloorArea"])
             for sp in model.by_type("IfcSpace") if ue.get_aggregate(sp) == ground]
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 9.0, 2.0, 1.6, 90)
    r = s.say("Roughly how much floor space do we actually get downstairs if you add all the rooms together?")
    assert r.ok, r.answer
    assert r.value == pytest.approx(sum(areas), rel=0.01)


def test_the_route_to_it_from_the_room_one_stands_in(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "buildings/archicad9_jasmin-sun.ifc", 4.0, 5.5, 4.5, 270)  # in the bedroom, attic floor
    plain = standing_at(sessions, "buildings/archicad9_jasmin-sun.ifc", 4.0, 5.5, 4.5, 270).say(
        "how far is the walk to the bathroom")
    r = s.say("Is there a bathroom up here, and if so how do I get to it from the bedroom?")
    assert r.ok, r.answer
    assert [st["op"] for st in r.program["steps"]] == ["exists", "route"]
    assert r.value == pytest.approx(plain.value)
    other = s.say("how do i get to the kitchen from the bathroom")
    assert other.ok and other.program["steps"][0].get("from")  # from another room: from there


@pytest.mark.parametrize(("text", "op"), [
    ("For the fire plan, highlight every door that opens to the outside in red, would you?", "color"),
    ("Please, you can bring me in the office number five?", "teleport"),
    ("What's the clear height in here, floor to ceiling?", "measure_here"),
    ("How many ways out are there on this level? I mean doors straight to the outside.", "count"),
])
def test_more_everyday_turns(sessions: ev.Sessions, text: str, op: str) -> None:
    s = standing_at(sessions, "buildings/archicad18_multizone-office.ifc", 5.0, 5.0, 1.6)
    r = s.say(text)
    assert r.ok, r.answer
    assert r.program["steps"][0]["op"] == op
    if op == "count":
        assert r.value == s.say("how many external doors are there").value
    if op == "teleport":
        assert "Office_05" in str(ev.place_of(s)(s.state()["pose"])[1])


def test_the_offices_counted_and_their_area_together(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "buildings/archicad18_multizone-office.ifc", 5.0, 5.0, 1.6)
    total = standing_at(sessions, "buildings/archicad18_multizone-office.ifc", 5.0, 5.0, 1.6).say(
        "what is the total floor area of the offices")
    r = s.say("How many offices are there on this floor, and what do they come to in square metres altogether?")
    assert r.ok, r.answer
    assert [st["op"] for st in r.program["steps"]] == ["count", "aggregate"]
    assert r.value == pytest.approx(total.value)


@needs_real
def test_wind_bracing_by_the_buildings_own_word(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(ev.ifc_path("real/tekla_CO-ST-01.ifc")))
    braces = {str(e.GlobalId) for e in model.by_type("IfcProduct") if (e.Name or "").lower() == "szélrács"
              and not e.is_a("IfcElementAssembly")}
    s = standing_at(sessions, "real/tekla_CO-ST-01.ifc", 0.0, 0.0, 1.6)
    r = s.say("Colour all the wind bracing yellow, please.")
    assert r.ok, r.answer
    assert set(s.state()["colors"]) == braces and len(braces) == 30


def test_the_front_entrance_is_inside_the_front_door(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "buildings/revit2015_samplehouse.ifc", 4.0, 2.7, 1.6)  # in the bedroom
    r = s.say("take me to the front entrance")
    assert r.ok, r.answer
    assert "Entrance hall" in str(ev.place_of(s)(s.state()["pose"])[1])  # inside, not the bedroom beside it


def test_an_external_flag_set_on_every_wall_is_a_default(sessions: ev.Sessions) -> None:
    # the IFC Engine example marks every wall IsExternal, its two inner walls ("Inner Wall I", "II") among
    # them: the rooms' boundaries say which are outer; FZK marks its walls both ways, and the flag is kept
    model = ifcopenshell.open(str(BUILDINGS / "ifcengine_example.ifc"))
    outer = _ids(model, "IfcWall", lambda e: e.Name.startswith("Outer Wall"))
    s = standing_at(sessions, "buildings/ifcengine_example.ifc", 2.0, 3.5, 1.6)
    assert s.say("paint all the outside walls light grey").ok
    assert set(s.state()["colors"]) == outer and len(outer) == 16
    fzk = ifcopenshell.open(str(IFC / "AC20-FZK-Haus.ifc"))
    ext = _ids(fzk, "IfcWall", lambda e: "-Ext-" in e.Name)
    f = standing_at(sessions, "AC20-FZK-Haus.ifc", 4.0, 4.9, 1.6)
    assert f.say("hide the outside walls").ok and set(f.state()["hidden"]) == ext


def test_a_count_in_two_places(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "duplex.ifc", 2.0, -3.0, 4.7)
    r = s.say("How many windows are there downstairs, and how many upstairs?")
    assert r.ok, r.answer
    up = standing_at(sessions, "duplex.ifc", 2.0, -3.0, 4.7).say("how many windows are on level 2")
    assert [st["target"].get("class") for st in r.program["steps"]] == [["IfcWindow"], ["IfcWindow"]]
    assert r.value == up.value


def test_non_native_to_and_the_place_said_again(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "duplex.ifc", 2.0, -3.0, 4.7)  # unit B's Bedroom 2
    r = s.say("please can you to put one plant in this bedroom, in the room here")
    assert r.ok, r.answer
    assert [p["asset"] for p in s.state()["props"]] == ["plant"]


def test_what_a_thing_is_upholstered_in_is_its_material(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "buildings/revit2015_samplehouse.ifc", -3.0, 1.5, 1.6, 90)
    r = s.say("what's that sofa in front of me upholstered in")
    assert r.ok, r.answer
    assert r.program["steps"][0]["property"] == "material" and "Fabric" in str(r.value)


@needs_real
def test_that_thing_by_its_name_said_first(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "real/sketchup_PCERT_Building-Architecture_IFC4.ifc", 0.0, 0.0, 1.6)
    r = s.say("how thick is that plumbing wall")
    assert r.ok, r.answer
    assert "ref" not in r.program["steps"][0]["target"]


def test_a_thing_said_first_and_its_property_asked_with_its(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(IFC / "AC20-FZK-Haus.ifc"))
    front = next(d for d in model.by_type("IfcDoor") if d.Name == "Haustuer")
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 2.5, 2.2, 1.6, 90)
    r = s.say("The entrance door, what is his width please?")
    assert r.ok, r.answer
    assert r.value == pytest.approx(float(front.OverallWidth), abs=0.02)
    r = s.say("the window on my right hand side, how wide is that one?")
    assert r.ok and r.program["steps"][0]["target"]["relations"] == [{"rel": "right"}], r.answer


def test_which_one_of_those_after_the_turn_before(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 3.0, 5.0, 1.6)
    assert s.say("show me the rooms on the ground floor").ok
    r = s.say("and which one of those is the biggest?")
    assert r.ok, r.answer
    rooms = [sp for sp in s.building.spaces() if s.building.storey(sp.storey or "").name == "Erdgeschoss"]
    biggest = max(rooms, key=lambda sp: sp.quantities.get("area", 0.0))
    assert r.value == [biggest.id]


def test_isolated_then_more_things_too(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "buildings/revit2020chs_basic-demo.ifc", -4.0, -3.0, 1.6, 90)
    both = standing_at(sessions, "buildings/revit2020chs_basic-demo.ifc", -4.0, -3.0, 1.6, 90)
    assert both.say("isolate the columns and the beams").ok
    assert s.say("show me only the columns").ok
    r = s.say("and the beams as well please")
    assert r.ok, r.answer
    assert set(s.state()["hidden"]) == set(both.state()["hidden"])


@pytest.mark.parametrize(("ifc", "text", "expected"), [
    ("duplex.ifc", "how many doors are in the whole duplex, and how many of those are on the ground floor?", 6),
    (SMILEY, "How many bathrooms are there across all five houses?", 10),
    ("buildings/freecad_testhouse.ifc", "how many footings does this thing sit on", 14),
])
def test_counts_over_the_whole_building(sessions: ev.Sessions, ifc: str, text: str, expected: int) -> None:
    r = standing_at(sessions, ifc, 2.0, 2.0, 1.6).say(text)
    assert r.ok and r.value == expected, r.answer


def test_a_plan_cut_with_the_storey_said_after_the_height(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 3.0, 5.0, 1.6)
    r = s.say("give me a plan cut at one point two metres on the ground floor")
    assert r.ok, r.answer
    step = r.program["steps"][0]
    assert step["op"] == "section" and step["height"] == pytest.approx(1.2) and step["storey"] == "Erdgeschoss"


def test_pop_me_over_and_a_prop_one_would_like_to_see(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, "AC20-FZK-Haus.ifc", 3.0, 5.0, 1.6)
    assert s.say("can you pop me over into the kitchen").ok
    assert "Küche" in str(ev.place_of(s)(s.state()["pose"])[1])
    r = s.say("I'd like to see a plant in the living room, can you drop one in there?")
    assert r.ok, r.answer
    assert [p["asset"] for p in s.state()["props"]] == ["plant"]


def test_down_to_the_cellar_of_a_terrace_is_down_a_floor(sessions: ev.Sessions) -> None:
    s = standing_at(sessions, SMILEY, 26.0, 5.0, 1.35, 90)
    r = s.say("let's go down to the cellar")
    assert r.ok and r.program["steps"] == [{"op": "change_floor", "by": -1}], r.answer
    assert "KELLERRAUM" in str(ev.place_of(s)(s.state()["pose"])[1]).upper()


@pytest.mark.parametrize(("ifc", "at", "text", "plain"), [
    ("MiniProject.ifc", (22.0, 15.0, 1.6), "how many piles are there under this thing in total",
     "how many piles are there"),
    ("buildings/archicad19_office-cv2.ifc", (10.0, 10.0, 1.6),
     "what's the total office floor area over the four levels", "what is the total floor area of the offices"),
    ("buildings/archicad9_niedriha.ifc", (10.0, 5.0, 1.6), "which rooms border on the kitchen",
     "which rooms are adjacent to the kitchen"),
    ("buildings/blenderbim_homemaker-test.ifc", (2.0, 3.0, 1.62), "just show me level one on its own",
     "isolate level 1"),
])
def test_said_as_people_say_it(sessions: ev.Sessions, ifc: str, at: tuple[float, float, float], text: str,
                               plain: str) -> None:
    meant = standing_at(sessions, ifc, *at).say(plain)
    assert meant.ok, meant.answer
    r = standing_at(sessions, ifc, *at).say(text)
    assert r.ok, r.answer
    assert r.program == meant.program


def test_doors_out_of_a_room_are_its_doors(sessions: ev.Sessions) -> None:
    model = ifcopenshell.open(str(BUILDINGS / "archicad9_niedriha.ifc"))
    kitchen = next(sp for sp in model.by_type("IfcSpace") if sp.LongName == "Kochen")
    s = standing_at(sessions, "buildings/archicad9_niedriha.ifc", 0.0, 0.0, 1.6)
    where = s.building.elements[str(kitchen.GlobalId)]
    s.set_pose(Pose.from_json({"position": [float(c) for c in (where.bbox_min + where.bbox_max) / 2][:2]
                               + [float(where.bbox_min[2]) + 1.6], "yaw": 0.0, "pitch": 0.0}))
    r = s.say("how many doors lead out of this kitchen")
    assert r.ok, r.answer
    assert "external" not in r.program["steps"][0]["target"] and r.value == 2


@pytest.mark.parametrize(("ifc", "text", "plain"), [
    ("duplex.ifc", "hide the furniture on level one, no sorry, on level two", "hide the furniture on level 2"),
    ("buildings/revit2008_quantities.ifc", "only the walls please, hide everything else", "isolate the walls"),
    ("buildings/revit2024por_building-teste-gis.ifc", "get rid of the roof so I can look in from above",
     "hide the roof"),
    ("buildings/archicad20_rooftop-4zones.ifc", "in which room is the shower", "which room is the shower in"),
    ("AC20-FZK-Haus.ifc", "could you make the ground floor walls kind of see-through, like half transparent",
     "make the walls on the ground floor 50 percent transparent"),
    ("duplex.ifc", "so how many bedrooms are there altogether in both units", "how many bedrooms are there"),
])
def test_more_ways_of_saying_it(sessions: ev.Sessions, ifc: str, text: str, plain: str) -> None:
    meant = standing_at(sessions, ifc, 2.0, 2.0, 1.6).say(plain)
    assert meant.ok, meant.answer
    r = standing_at(sessions, ifc, 2.0, 2.0, 1.6).say(text)
    assert r.ok, r.answer
    assert r.program == meant.program
