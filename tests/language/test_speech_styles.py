"""The same requests said in other styles of speech (pyagent/language/data/phrasing.yaml: politeness, questions
asked inside others, fragments; pyagent/language/parser.py): a polite, long-winded client ("could you possibly
...", "I was wondering how thick the walls are", "..., by any chance?") and a hurried architect ("columns, how many
in total?", "back door, how far from here?", "and upstairs, blue") get the program the plain request gets. Through
the whole front end on public buildings; each styled request is compared with its plain form in the same session
state."""

from __future__ import annotations

from typing import Any

import pytest

from pyagent.language import evaluate as ev
from pyagent.model import Pose

FZK = "AC20-FZK-Haus.ifc"
DUPLEX = "duplex.ifc"
NIEDRIHA = "buildings/archicad9_niedriha.ifc"
JASMIN = "buildings/archicad9_jasmin-sun.ifc"
HOM = "buildings/blenderbim_example-hom.ifc"
FLATS = "buildings/revit2024por_building-teste-gis.ifc"
OFFICE = "buildings/archicad18_multizone-office.ifc"
TOYO = "real/tekla_TOYO_INK_Legkezelo.ifc"
SMILEY = "buildings/archicad11_smiley-west.ifc"
RENGA = "buildings/renga_house.ifc"
BPI = "buildings/autocadarch2012_bpi-office.ifc"
ROOFTOP = "buildings/archicad20_rooftop-4zones.ifc"
SENSOR = "buildings/revit2022deu_sensor-versuchsstand.ifc"
JAPANESE = "real/revit2014_japanese_unicode.ifc"
FREEDOM = "buildings/blenderbim_creative-freedom.ifc"
CV2 = "buildings/archicad19_office-cv2.ifc"
SAMPLE = "buildings/revit2015_samplehouse.ifc"
OPENHOUSE = "real/ifcopenshell_IfcOpenHouse_IFC4.ifc"
MINI = "MiniProject.ifc"
IN_FZK_KITCHEN = {"position": [6.0, 2.0, 1.6], "yaw": 90.0, "pitch": 0.0}
IN_DUPLEX = {"position": [4.0, 4.0, 1.6], "yaw": 90.0, "pitch": 0.0}


@pytest.fixture(scope="module")
def sessions() -> ev.Sessions:
    return ev.Sessions(use_llm=False)


def said(sessions: ev.Sessions, ifc: str, pose: dict[str, Any], text: str, before: tuple[str, ...] = ()) -> Any:
    s = sessions.fresh(ifc)
    s.set_pose(Pose.from_json(pose))
    for earlier in before:
        assert s.say(earlier).ok, earlier
    return s.say(text)


@pytest.mark.parametrize(("ifc", "styled", "plain"), [
    # politeness and hedges around the request
    (FZK, "Could you possibly hide the windows for me, if it's not too much trouble?", "hide the windows"),
    (FZK, "Sorry to ask, but how many doors are there on the ground floor, by any chance?",
     "how many doors are on the ground floor"),
    (FZK, "Just out of interest, what would you say the walls are made of?", "what are the walls made of"),
    (FZK, "Would it be possible to make the roof see-through, just to see?", "make the roof see-through"),
    (FZK, "Lovely, thank you. Could you paint the doors a nice bright red?", "paint the doors bright red"),
    (DUPLEX, "Out of all the rooms, which would you say is the biggest one?", "which room is the biggest"),
    # a question asked inside another
    (FZK, "I was wondering how thick the walls are on the ground floor", "how thick are the walls on the ground floor"),
    (DUPLEX, "Do you know how many windows there are upstairs?", "how many windows are there upstairs"),
    (NIEDRIHA, "I wonder whether there is a toilet on the ground floor", "is there a toilet on the ground floor"),
    # something the speaker says of themselves, beside the request
    (FZK, "I keep getting lost in here: could you make the doors stand out in yellow?", "paint the doors yellow"),
    # descriptive words that pick nothing out
    (DUPLEX, "how tall are those big chunky square columns?", "how tall are the columns"),
    (FZK, "how many windows has the little house got, all in all?", "how many windows does the house have"),
    # a thing named first, its question cut short
    (DUPLEX, "okay so, doors. how many in total?", "how many doors are there"),
    (DUPLEX, "windows on this floor, how wide?", "how wide are the windows on this floor"),
    (FZK, "the walls upstairs, what material?", "what are the walls upstairs made of"),
    (FZK, "nearest door, timber or steel?", "what is the nearest door made of"),
    (FZK, "doors plus windows, how many altogether", "how many doors and windows are there"),
    (FZK, "the walls on this floor, total volume?", "what is the total volume of the walls on this floor"),
    (DUPLEX, "columns and beams, black, no wait, dark grey", "paint the columns and beams dark grey"),
    (DUPLEX, "floor to ceiling here?", "how high is the ceiling here"),
    # non-native word order and literal translations
    (FZK, "how much doors has the upper etage?", "how many doors are upstairs"),
    (FZK, "how far I am from the house door?", "how far am i from the front door"),
    (FZK, "which room of the Dachgeschoss is the most big?", "which room on the Dachgeschoss is the biggest"),
    (FZK, "from what are made the walls?", "what are the walls made of"),
    (DUPLEX, "paint in green the doors of the upper floor", "paint the doors upstairs green"),
    (DUPLEX, "the door at my right side, how wide is it?", "how wide is the door on my right"),
    (DUPLEX, "on which floor are the most windows?", "which floor has the most windows"),
    # as a speech recogniser writes it: no punctuation, no apostrophes, pauses only in the words
    (FZK, "the door on my right um how wide is it", "how wide is the door on my right"),
    (FZK, "whats the u value of the windows", "what is the u-value of the windows"),
    (DUPLEX, "okay im on level one now hide the doors in here", "hide the doors in this room"),
    (DUPLEX, "so im in the kitchen how many doors are in here", "how many doors are in this room"),
    (DUPLEX, "isolate the stairs i wanna see how they stack up", "isolate the stairs"),
    (DUPLEX, "paint the sofa thats closest to me blew", "paint the closest sofa blue"),
    (DUPLEX, "uh know undo that", "undo that"),
    # a reason said after a question, for whom the answer is
    (FZK, "what's the total floor area of the rooms on this floor? I need it for the screed order",
     "what is the total floor area of the rooms on this floor"),
    (FZK, "how many windows are there? the client is asking", "how many windows are there"),
    (FZK, "are all the walls down in the cellar concrete?", "are all the walls in the cellar concrete"),
    (FZK, "how many doors am I going to have to order?", "how many doors are there"),
    (FZK, "hide the doors, they're just clutter", "hide the doors"),
    (FZK, "what's the total volume of concrete in the walls, all floors?",
     "what is the total volume of the concrete walls"),
    (FZK, "how far am I from the closest of these doors?", "how far am i from the closest door"),
    (FZK, "mark the door closest to me in red", "paint the closest door red"),
    (FZK, "take the roof off for a sec i want to look inside", "hide the roof"),
    (FZK, "Can you paint the doors green? The client wants to see them in a bold colour.", "paint the doors green"),
    (FZK, "colour the windows bright orange so i can spot them", "paint the windows bright orange"),
    (FZK, "What are the walls made of? Is it brick or concrete?", "what are the walls made of"),
    # what the speaker is busy with, or a question announced, before the request
    (FZK, "Quick one for the structure: are all the walls concrete?", "are all the walls concrete"),
    (DUPLEX, "We're sizing the hot water system, so how many doors are there in the building?",
     "how many doors are there"),
    (DUPLEX, "I'm pricing the kitchen, how many windows are there", "how many windows are there"),
    (DUPLEX, "how many footings are there under the house?", "how many footings are there"),
    (DUPLEX, "turn the sofa on my left around", "rotate the sofa on my left 180 degrees"),
    # a thing corrected mid-sentence, the rest said after it
    (FZK, "colour the bathroom door, sorry, I mean the office door, yellow", "colour the office door yellow"),
    (TOYO, "what's the total weight of the HEA one twenty, sorry, the HEA hundred beams?",
     "what is the total weight of the HEA hundred beams"),
    # misheard, non-native, or said with the case it is asked for
    (FZK, "how many windows as the living room got", "how many windows has the living room got"),
    (JASMIN, "the toilet downstairs, it has a window or no?", "does the toilet downstairs have a window"),
    (FLATS, "please bring me in the kitchen of the apartment on top floor", "take me to the kitchen on the top floor"),
    (FZK, "if a fire starts in here, how far would I have to walk to the front door?",
     "how far would I have to walk to the front door"),
    # places and parts said in other words
    (HOM, "how many doors open off the hallway on the first floor?",
     "how many doors are in the hallway on the first floor"),
    (OFFICE, "how far am I from the exit door at the north end?",
     "how far am I from the outside door on the north side"),
    (JASMIN, "hide the toilet and the hand basin in the WC", "hide the toilet in the WC and the hand basin in the WC"),
    (FZK, "make the south side of the roof see-through", "make the south roof see-through"),
    (BPI, "For the lease we need the total floor area of all the rooms added together. What does that come to?",
     "what is the total floor area of all the rooms"),
    (BPI, "How long is the way to walk until the toilet from here?", "how far is the walk to the toilet"),
    (SMILEY, "Those little canopies over the front doors, can you make them red? I want to see all five at once.",
     "make the canopies above the front doors red"),
    (DUPLEX, "Turn the bed ninety degrees to the left, sorry, to the right.",
     "turn the bed ninety degrees to the right"),
    (DUPLEX, "Go up two floors, no wait, just one.", "go up one floor"),
    (ROOFTOP, "How much space is there between the shower and the toilet?", "how far is the shower from the toilet"),
    (ROOFTOP, "How many beams are up in the roof? Not the floor joists, just the roof.",
     "how many beams are in the roof"),
    (FZK, "where does the door in this room lead to?", "which rooms are connected to this room"),
    (DUPLEX, "Just so I get a feel for the size, the kitchen and the living room together, how many square metres "
             "is that?", "what is the total area of the kitchen and the living room"),
    (FZK, "go up one floor and tell me how wide the window is", "go up one floor and how wide is the window"),
    (SENSOR, "What glazing do the windows in this building have? Double or triple?",
     "what glazing do the windows have"),
    (SENSOR, "Could you put a plant next to the bench? That corner feels a bit empty.",
     "put a plant next to the bench"),
    (NIEDRIHA, "Please make the roof of the garage half transparent, I want look inside of it.",
     "make the roof above the garage half transparent"),
    (SENSOR, "Just show me the staircase on its own for a moment.", "isolate the staircase"),
    (JAPANESE, "hide the columns, wait no, only the ones upstairs", "hide the columns upstairs"),
    (FZK, "which door goes from the hall into the bedroom?", "which door connects the hall and the bedroom"),
    (FZK, "Isolate the windows and doors on the ground floor and tell me how many there are.",
     "isolate the windows and doors on the ground floor and how many of them are there"),
    (CV2, "take me up to level three sorry i mean level two", "take me to level two"),
    (CV2, "Paint the fire exit door green so it stands out.", "paint the exit door green"),
    (SAMPLE, "How many chairs has the dining table?", "how many chairs are around the dining table"),
    (OPENHOUSE, "Wall thickness?", "what is the thickness of the walls"),
    (SAMPLE, "what are the solid outside walls made of?",
     "what are the outside walls except the curtain walls made of"),
    (DUPLEX, "Hide the ceilings and all the furniture on this floor.",
     "hide the ceilings on this floor and all the furniture on this floor"),
    (MINI, "just show me the columns, and paint the steel ones red",
     "isolate the columns and paint the steel columns red"),
    (MINI, "hide everything that's made of timber", "hide everything made of timber"),
    (DUPLEX, "Hide all the doors and tell me how many there were.",
     "hide all the doors and how many of them are there"),
    # one of a few, said with a comparative
    (DUPLEX, "which of the two nearest doors is closer to me?", "which door is the nearest"),
    (DUPLEX, "which of the windows on this floor is the widest?", "which window on this floor is the widest"),
])
def test_a_styled_request_means_what_the_plain_one_does(sessions: ev.Sessions, ifc: str, styled: str,
                                                        plain: str) -> None:
    pose = IN_DUPLEX if ifc == DUPLEX else IN_FZK_KITCHEN
    want = said(sessions, ifc, pose, plain)
    assert want.program is not None, (plain, want.answer)
    got = said(sessions, ifc, pose, styled)
    assert got.program == want.program, (styled, got.answer)
    assert got.value == want.value


def test_and_a_place_then_a_colour_colours_the_same_things_there(sessions: ev.Sessions) -> None:
    """"Columns on this floor, how tall?" ... "and upstairs, blue": the columns upstairs turn blue."""
    got = said(sessions, DUPLEX, IN_DUPLEX, "and upstairs, blue", before=("doors on this floor, how wide?",))
    want = said(sessions, DUPLEX, IN_DUPLEX, "paint the doors upstairs blue")
    assert got.ok and want.ok, (got.answer, want.answer)
    assert [st["op"] for st in got.program["steps"]] == ["color"]
    assert got.program["steps"][0]["target"]["storey"] == want.program["steps"][0]["target"]["storey"]
    assert got.program["steps"][0]["rgba"] == want.program["steps"][0]["rgba"]


def test_a_request_about_the_other_one_after_a_question_about_one(sessions: ev.Sessions) -> None:
    """After a question about one of two doors, "paint the other one green" colours the other door only."""
    s = sessions.fresh("real/bonsai_project0-openings.ifc")
    s.set_pose(Pose.from_json({"position": [1.5, 1.5, 1.6], "yaw": 270.0, "pitch": 0.0}))
    first = s.say("the nearest door, what's it called?")
    assert first.ok, first.answer
    doors = {e.id for e in s.building.elements.values() if e.ifc_class == "IfcDoor"}
    asked = set(s.executor.last_ids)
    assert len(doors) == 2 and len(asked) == 1 and asked <= doors
    got = s.say("okay, paint the other one green")
    assert got.ok and got.program["steps"][0]["op"] == "color", got.answer
    assert set(s.scene.colors) == doors - asked


def test_does_it_face_a_compass_direction(sessions: ev.Sessions) -> None:
    """"Does the X face east?" is yes for one direction and no for the opposite one."""
    answers = {d: said(sessions, FZK, IN_FZK_KITCHEN, f"does the nearest window look out to the {d}?").value
               for d in ("north", "south", "east", "west")}
    assert set(answers.values()) <= {True, False} and any(answers.values()), answers
    assert not (answers["north"] and answers["south"]) and not (answers["east"] and answers["west"]), answers


def test_a_design_meeting_chain(sessions: ev.Sessions) -> None:
    """A reason for whom the change is, a second colour as a follow-up, both undone at once, and a question
    about the things just counted in the same breath."""
    s = sessions.fresh(DUPLEX)
    s.set_pose(Pose.from_json(IN_DUPLEX))
    first = s.say("make the doors blue so everyone can spot them")
    assert first.ok and first.program["steps"][0]["op"] == "color", first.answer
    second = s.say("and the windows green")
    assert second.ok and second.program["steps"][0]["target"].get("class") == ["IfcWindow"], second.answer
    assert {s.building.elements[g].ifc_class for g in s.scene.colors} == {"IfcDoor", "IfcWindow"}
    both = s.say("hmm, no, undo both of those")
    assert both.ok and not s.scene.colors, both.answer
    asked = s.say("how many rooms are on level 1, and which one's the biggest?")
    biggest = s.say("which room on level 1 is the biggest?")
    assert asked.ok and biggest.ok and asked.value == biggest.value and asked.value, asked.answer
    assert [st["op"] for st in asked.program["steps"]] == ["count", "list"]


def test_how_many_has_it_got_after_naming_a_room(sessions: ev.Sessions) -> None:
    """"Which room is this?" then "how many windows has it got?": the windows of that room, not the building's."""
    s = sessions.fresh(FZK)
    s.set_pose(Pose.from_json(IN_FZK_KITCHEN))
    assert s.say("which room is this?").ok
    got = s.say("how many windows has it got?")
    room_windows = s.say("how many windows are in this room?")
    assert got.ok and got.value == room_windows.value, got.answer
    assert got.value < s.say("how many windows are there?").value


def test_taken_to_a_thing_one_stands_in_its_room(sessions: ev.Sessions) -> None:
    """"Where's the nearest sofa? take me there": the user stands by it in the room it is in, not behind a
    wall."""
    s = sessions.fresh(DUPLEX)
    s.set_pose(Pose.from_json(IN_DUPLEX))
    got = s.say("where's the nearest sofa? take me there")
    assert got.ok, got.answer
    sofa = s.building.elements[got.value[0]]
    room = s.building.elements[sofa.room] if sofa.room else None
    assert room is not None and s.say("which room am I in?").value in (room.name, room.long_name)


def test_a_kind_is_not_found_inside_another_word(sessions: ev.Sessions) -> None:
    """The "loo" of a toilet is not the "loo" of "Floor:Residential - Wood Joist with Subflooring": where no
    toilet is, none is found."""
    s = sessions.fresh(DUPLEX)
    assert any("subflooring" in f"{e.name} {e.type_name}".lower() for e in s.building.elements.values())
    named = [e for e in s.building.elements.values()
             if any(w in f"{e.name} {e.type_name}".lower() for w in ("toilet", "wc", " loo"))]
    assert named == [] and s.executor.peek({"kind": "toilet"}) == []
    assert s.executor.peek({"kind": "sofa"})  # a kind said as a word of a name is found


def test_an_undo_said_two_ways_is_one_and_said_twice_is_two(sessions: ev.Sessions) -> None:
    """"Hmm no, put them back, undo that" takes back the last change only; "undo, undo" the last two."""
    s = sessions.fresh(DUPLEX)
    s.set_pose(Pose.from_json(IN_DUPLEX))
    for request in ("hide the doors", "hide the windows"):
        assert s.say(request).ok, request
    once = s.say("hmm no, put them back, undo that")
    assert once.ok and once.program == {"steps": [{"op": "undo"}]}, once.answer
    assert {s.building.elements[g].ifc_class for g in s.scene.hidden} == {"IfcDoor"}
    assert s.say("hide the windows").ok
    twice = s.say("undo, undo")
    assert twice.ok and twice.program == {"steps": [{"op": "undo", "count": 2}]}, twice.answer
    assert not s.scene.hidden


def test_their_average_after_a_count(sessions: ev.Sessions) -> None:
    """"How many offices are there?" then "and what's their average size": the average area of those rooms."""
    s = sessions.fresh(OFFICE)
    counted = s.say("how many offices are there?")
    assert counted.ok and counted.value > 1, counted.answer
    got = s.say("and whats their average size")
    want = sessions.fresh(OFFICE).say("what is the average size of the offices")
    assert got.ok and want.ok, (got.answer, want.answer)
    assert got.value == pytest.approx(want.value)


def test_canopies_over_each_front_door_and_the_big_door_of_a_room(sessions: ev.Sessions) -> None:
    """The Smiley terrace's five canopies ('Vordach', German only) are over its five front doors, each just
    outside its door's wall; the Renga house's garage has a 3 m door and a 0.9 m one: "the big garage door"
    is the 3 m one (ifcopenshell: OverallWidth 3000 mm, GlobalId 1rU5_ytFj2w9rOKxGO8Gln)."""
    s = sessions.fresh(SMILEY)
    got = s.say("make the canopies over the front doors red")
    assert got.ok, got.answer
    assert len(s.scene.colors) == 5
    assert all("vordach" in s.building.elements[g].name.lower() for g in s.scene.colors)
    s = sessions.fresh(RENGA)
    got = s.say("make the big garage door fifty percent transparent")
    assert got.ok, got.answer
    assert set(s.scene.colors) == {"1rU5_ytFj2w9rOKxGO8Gln"} and s.scene.colors["1rU5_ytFj2w9rOKxGO8Gln"][3] == 0.5


def test_the_roof_of_a_file_without_one_and_the_rooms_of_this_unit(sessions: ev.Sessions) -> None:
    """The rooftop flat has no IfcRoof: its roof is a slab typed 'Roofplate 338' (ifcopenshell), which "the
    roof" hides. In the duplex, "the kitchen and the living room" are those of the user's own flat, two rooms
    of the four."""
    s = sessions.fresh(ROOFTOP)
    got = s.say("hide the roof")
    assert got.ok, got.answer
    assert [s.building.elements[g].type_name for g in s.scene.hidden] == ["Roofplate 338"]
    s = sessions.fresh(DUPLEX)
    s.set_pose(Pose.from_json(IN_DUPLEX))
    got = s.say("what is the total area of the kitchen and the living room")
    assert got.ok, got.answer
    rooms = got.program["steps"][0]["target"]["ids"]
    here = s.view().user_storey()
    assert len(rooms) == 2 and {s.building.elements[g].storey for g in rooms} == {here}


def test_follow_ups_about_several_things_and_an_undo_said_as_bringing_back(sessions: ev.Sessions) -> None:
    """"What's the table made of?" then "and the chairs?": the material of each of the two chairs (the sensor
    building's 'Stuhl-04'), not a question back; "hide Suzanne" then "hmm, no, bring her back. undo that":
    one undo."""
    s = sessions.fresh(SENSOR)
    assert s.say("what's the table made of?").ok
    chairs = s.say("and the chairs?")
    assert chairs.ok and chairs.program["steps"][0]["target"] == {"kind": "chair"}, chairs.answer
    assert len(chairs.value) == 2
    s = sessions.fresh(FREEDOM)
    assert s.say("hide suzanne").ok and s.scene.hidden
    back = s.say("hmm, no, bring her back. undo that")
    assert back.ok and back.program == {"steps": [{"op": "undo"}]}, back.answer
    assert not s.scene.hidden
