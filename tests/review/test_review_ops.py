"""Review tools by voice on the shipped house: sections, saved views, sun study, scale model, measuring
here. Each checks the state keys, undo, the journal's restore and the facts behind the answer."""

from __future__ import annotations

import datetime as dt
import json
import math
import shutil
from pathlib import Path

import ifcopenshell
import jsonschema
import pytest

from pyagent.actions.schema import def_validator
from pyagent.model import Pose
from pyagent.review import sun as solar
from pyagent.review.site import compound_to_degrees
from pyagent.session import Session

REPO = Path(__file__).resolve().parents[2]
FZK = REPO / "ifc" / "AC20-FZK-Haus.ifc"
LIVING = {"position": [4.0, 4.5, 1.6], "yaw": 0.0, "pitch": 0.0}  # Flur/Wohnen, ground floor


@pytest.fixture()
def session() -> Session:
    s = Session.open(FZK)
    s.set_pose(Pose.from_json(LIVING))
    yield s
    s.close()


def say(s: Session, text: str) -> dict:
    r = s.say(text)
    assert r.ok, (text, r.answer, r.error)
    return r.to_json()


def test_state_has_the_review_keys_and_is_schema_valid(session: Session) -> None:
    state = session.state()
    assert state["sections"] == [] and state["viewpoints"] == {} and state["sun"] is None
    assert state["view_scale"] is None
    for text in ("cut the building at 1.2 metres", "remember this view as entrance",
                 "show the shadows on the 21st of June at 3 pm", "show me the model on the table"):
        say(session, text)
    state = session.state()
    errors = [e.message for e in def_validator("engine_state").iter_errors(state)]
    assert not errors, errors
    assert set(state) >= {"sections", "viewpoints", "sun", "view_scale"}


# ---- sections ------------------------------------------------------------------------------------
def test_a_horizontal_cut_is_measured_from_the_users_floor_and_moves(session: Session) -> None:
    say(session, "cut the building at 1.2 metres")
    (plane,) = session.state()["sections"]
    assert plane["direction"] == [0.0, 0.0, 1.0] and plane["location"][2] == pytest.approx(1.2)
    say(session, "move the cut up 50 centimetres")
    assert session.state()["sections"][0]["location"][2] == pytest.approx(1.7)
    say(session, "lower the cut by twenty centimetres")
    assert session.state()["sections"][0]["location"][2] == pytest.approx(1.5)
    # Upstairs the same words cut 1.2 m above that floor (Dachgeschoss is at 2.70 m in the file).
    session.set_pose(Pose.from_json({"position": [4.0, 4.5, 4.3], "yaw": 0.0, "pitch": 0.0}))
    say(session, "cut the building at 1.2 metres")
    assert session.state()["sections"][0]["location"][2] == pytest.approx(3.9)
    say(session, "remove the section")
    assert session.state()["sections"] == []
    r = session.say("remove the section")
    assert not r.ok and "no section" in r.answer


def test_a_section_box_around_a_room_and_a_storey(session: Session) -> None:
    say(session, "show a section through the kitchen")
    planes = session.state()["sections"]
    assert len(planes) == 6
    kitchen = next(e for e in session.building.spaces() if e.name.startswith("Küche") or "Küche" in e.label())
    lo = [min(p["location"][i] for p in planes) for i in range(3)]
    hi = [max(p["location"][i] for p in planes) for i in range(3)]
    for i in range(3):  # the box holds the room with a margin
        assert lo[i] <= kitchen.bbox_min[i] and hi[i] >= kitchen.bbox_max[i]
        assert hi[i] - lo[i] < (kitchen.bbox_max[i] - kitchen.bbox_min[i]) + 1.0
    say(session, "clip to the ground floor")
    planes = session.state()["sections"]
    top = max(p["location"][2] for p in planes if p["direction"][2] > 0)
    roofs = [e for e in session.building.products() if e.ifc_class.startswith("IfcRoof") or
             (e.ifc_class.startswith("IfcSlab") and e.bbox_max[2] > 5.0)]
    assert roofs and top < max(e.bbox_max[2] for e in roofs) - 2.0  # the roof's ridge is cut away


def test_what_can_i_see_ignores_what_is_cut_away(session: Session) -> None:
    before = set(say(session, "what can I see")["value"])
    cut_z = 1.0
    above = {e.id for e in session.building.products() if e.bbox_min[2] > cut_z + 1e-6}
    assert before & above, "from the hall the ceiling slab and a beam are in view"
    say(session, "cut the building at 1 metre")
    after = set(say(session, "what can I see")["value"])
    assert after and not (after & above), sorted(after & above)
    assert after == {g for g in before if g not in above}  # the rest is still seen


def test_sections_undo_and_survive_a_restart(tmp_path: Path) -> None:
    src = tmp_path / "house.ifc"
    shutil.copy(FZK, src)
    s = Session.open(src, journal_dir=tmp_path / "j")
    s.set_pose(Pose.from_json(LIVING))
    say(s, "cut the building at 1.2 metres")
    say(s, "move the cut up 50 centimetres")
    say(s, "undo that")
    assert s.state()["sections"][0]["location"][2] == pytest.approx(1.2)
    say(s, "remember this view as entrance")
    say(s, "show the shadows on the 21st of June at 3 pm")
    say(s, "show me the model on the table")
    expected = s.state()
    s.close()
    s2 = Session.open(src, journal_dir=tmp_path / "j")
    try:
        assert not s2.restore_report.problems, s2.restore_report.problems
        assert s2.state() == expected
        say(s2, "undo")  # the history came back too: the table model goes
        assert s2.state()["view_scale"] is None and s2.state()["sun"] == expected["sun"]
    finally:
        s2.close()


# ---- viewpoints ----------------------------------------------------------------------------------
def test_saved_views_come_back_with_their_section(session: Session) -> None:
    say(session, "cut the building at 1.2 metres")
    say(session, "remember this view as Entrance")
    say(session, "remove the section")
    say(session, "take me to the kitchen")
    moved = session.state()["pose"]
    assert moved != LIVING
    r = say(session, "go back to the entrance view")
    assert "entrance" in r["answer"]
    state = session.state()
    assert state["pose"]["position"] == LIVING["position"] and len(state["sections"]) == 1
    assert say(session, "list my views")["value"] == ["entrance"]
    r = session.say("go back to the garage view")
    assert not r.ok and "entrance" in r.answer  # says which views there are
    say(session, "undo")
    assert session.state()["pose"] == moved and session.state()["sections"] == []
    say(session, "reset")  # back to the model as loaded: remembered views stay
    assert list(session.state()["viewpoints"]) == ["entrance"]


# ---- sun -----------------------------------------------------------------------------------------
def test_the_site_comes_from_ifcsite() -> None:
    model = ifcopenshell.open(str(FZK))
    site = model.by_type("IfcSite")[0]
    s = Session.open(FZK)
    try:
        assert s.building.site is not None
        assert s.building.site.latitude == pytest.approx(compound_to_degrees(site.RefLatitude), abs=1e-6)
        assert s.building.site.longitude == pytest.approx(compound_to_degrees(site.RefLongitude), abs=1e-6)
        assert 49.0 < s.building.site.latitude < 49.2 and 8.3 < s.building.site.longitude < 8.5  # Karlsruhe
    finally:
        s.close()


def test_sun_positions_agree_with_published_values(session: Session) -> None:
    site = session.building.site
    assert site is not None
    # Solar noon on the June solstice: elevation = 90 - latitude + 23.44 (the Earth's axial tilt).
    noon = solar.part_of_day_clock(site, dt.date(2026, 6, 21), "noon")
    pos = solar.position(site, 90.0, dt.date(2026, 6, 21), noon)
    assert pos.elevation_deg == pytest.approx(90 - site.latitude + 23.44, abs=0.4)
    assert pos.azimuth_deg == pytest.approx(180.0, abs=1.0)
    # Karlsruhe's published sunrise and sunset on 21 June: 05:19 and 21:35 (CEST).
    rise = solar.part_of_day_clock(site, dt.date(2026, 6, 21), "sunrise")
    sets = solar.part_of_day_clock(site, dt.date(2026, 6, 21), "sunset")
    assert abs((rise.hour * 60 + rise.minute) - (5 * 60 + 19)) <= 4
    assert abs((sets.hour * 60 + sets.minute) - (21 * 60 + 35)) <= 4
    # At the equinox the sun rises due east.
    rise = solar.part_of_day_clock(site, dt.date(2026, 3, 20), "sunrise")
    assert solar.position(site, 90.0, dt.date(2026, 3, 20), rise).azimuth_deg == pytest.approx(90.0, abs=2.5)


def test_the_sun_study_turns_with_the_files_true_north(session: Session) -> None:
    say(session, "show the shadows on the 21st of June at 3 pm")
    sun = session.state()["sun"]
    assert sun["date"] == "2026-06-21" and sun["time"] == "15:00" and sun["timezone"] == "Europe/Berlin"
    north = session.building.true_north_deg
    plan = math.degrees(math.atan2(sun["direction"][1], sun["direction"][0]))
    # The direction's bearing in the file's plan is true north turned clockwise by the azimuth.
    assert ((north - sun["azimuth_deg"]) - plan + 180) % 360 - 180 == pytest.approx(0.0, abs=0.01)
    assert math.degrees(math.asin(sun["direction"][2])) == pytest.approx(sun["elevation_deg"], abs=0.01)
    assert 200 < sun["azimuth_deg"] < 260  # mid-afternoon in summer: south-west
    r = say(session, "where does the sun come from in the morning")
    assert "east" in r["answer"] and r["value"]["compass"] in ("east", "north-east", "south-east")
    say(session, "switch off the sun")
    assert session.state()["sun"] is None


def test_a_file_that_does_not_say_where_it_stands(tmp_path: Path) -> None:
    model = ifcopenshell.open(str(FZK))
    for site in model.by_type("IfcSite"):
        site.RefLatitude = None
        site.RefLongitude = None
    path = tmp_path / "nowhere.ifc"
    model.write(str(path))
    s = Session.open(path)
    try:
        r = s.say("show the shadows on the 21st of June at 3 pm")
        assert not r.ok and "where on Earth" in r.answer and s.state()["sun"] is None
    finally:
        s.close()


# ---- scale model ---------------------------------------------------------------------------------
def test_the_table_model_fits_in_front_of_the_user(session: Session) -> None:
    say(session, "show me the model on the table")
    vs = session.state()["view_scale"]
    drawn = [e for e in session.building.elements.values()
             if (not e.is_spatial or e.ifc_class == "IfcSite") and e.has_geometry]
    span = max(max(e.bbox_max[i] for e in drawn) - min(e.bbox_min[i] for e in drawn) for i in (0, 1))
    assert span * vs["scale"] == pytest.approx(1.0, abs=1e-3)
    assert vs["anchor"][0] == pytest.approx(LIVING["position"][0] + 1.0) and vs["anchor"][2] == pytest.approx(0.8)
    say(session, "back to full size")
    assert session.state()["view_scale"] is None
    assert not session.say("back to full size").ok


# ---- measuring here ------------------------------------------------------------------------------
def test_ceiling_height_and_corridor_width_by_rays(session: Session) -> None:
    r = say(session, "how high is the ceiling here")
    upper = next(s for s in session.building.storeys if s.name == "Dachgeschoss")
    slab = [e for e in session.building.products() if e.ifc_class.startswith("IfcSlab")
            and e.bbox_min[0] <= 4.0 <= e.bbox_max[0] and e.bbox_min[1] <= 4.5 <= e.bbox_max[1]
            and abs(e.bbox_max[2] - upper.elevation) < 0.05]
    assert slab, "the upper floor's slab is above the hall"
    assert r["value"] == pytest.approx(slab[0].bbox_min[2], abs=0.02)  # the ground floor's top is at 0
    r = say(session, "how wide is this corridor")
    left, right = r["answer"].split("(")[1].split(",")
    assert r["value"] > 1.0 and "to your left" in left and "to your right" in right
    say(session, "hide all walls")
    r = session.say("how wide is this corridor")
    assert not r.ok  # hidden walls are not there for the rays


# ---- the templates -------------------------------------------------------------------------------
SLOT_VALUES = {"{length}": "1.2 metres", "{target}": "the kitchen", "{name}": "entrance",
               "{when}": "21 june at 3 pm", "{storey}": "the ground floor", "{place}": "the corridor"}
INTENT_OPS = {
    "SectionPlane": "section", "SectionPlaneOnStorey": "section", "SectionBox": "section",
    "MoveSection": "move_section", "ClearSection": "clear_section", "SaveView": "save_view",
    "GoToView": "go_to_view", "ListViews": "list_views", "SunSet": "sun", "SunOff": "sun",
    "SunPosition": "sun_position", "SunRiseWhere": "sun_position", "SunSetWhere": "sun_position",
    "ModelTable": "model_view", "ModelFull": "model_view", "MeasureCeiling": "measure_here",
    "MeasureWidth": "measure_here", "MeasureLength": "measure_here", "ExportNotes": "export_notes",
}


def test_every_template_sentence_parses_to_its_op(session: Session) -> None:
    from pyagent.language.parser import ParseContext
    from pyagent.language.review_intents import sentences

    front = session.front_end()
    ctx = ParseContext(session.view(), session.dialogue)
    validator = jsonschema.Draft202012Validator(json.loads((REPO / "pyagent/actions/action.schema.json").read_text()))
    seen: dict[str, int] = {}
    for intent, text in sentences():
        if seen.get(intent, 0) >= 40:  # a sample of each intent's sentences keeps this quick
            continue
        seen[intent] = seen.get(intent, 0) + 1
        for slot, value in SLOT_VALUES.items():
            text = text.replace(slot, value)
        parsed = front.review.parse(text, ctx)
        assert parsed is not None and parsed.intent == intent, (intent, text)
        assert parsed.program is not None, (text, parsed.reason)
        assert parsed.program["steps"][0]["op"] == INTENT_OPS[intent], text
        assert not list(validator.iter_errors(parsed.program)), text
    assert set(seen) == set(INTENT_OPS)


def test_templates_do_not_take_other_sentences(session: Session) -> None:
    for text in ("how wide is the kitchen", "take me to the kitchen", "hide the door in front of me",
                 "how many windows are upstairs", "show the walls", "undo that"):
        r = session.say(text)
        ops = {s["op"] for s in (r.program or {"steps": []})["steps"]}
        assert not ops & {"section", "measure_here", "model_view", "sun", "save_view", "go_to_view"}, text
