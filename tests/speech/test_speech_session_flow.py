"""Spoken command -> SpeechService -> Session.say -> a change in the scene state."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyagent.speech import SpeechConfig, load_speech_service

FZK = Path(__file__).parents[2] / "ifc" / "AC20-FZK-Haus.ifc"


@pytest.fixture(scope="module")
def session():
    session_mod = pytest.importorskip("pyagent.session")
    return session_mod.Session.open(FZK)


@pytest.mark.parametrize("recognizer", ["tiny-streaming", "tiny-whisper"])
def test_spoken_command_hides_the_doors(session, tiny_models, speak, recognizer):
    service = load_speech_service(SpeechConfig.load(env={}, overrides={"models_root": tiny_models,
                                                                        "recognizer": recognizer}))
    assert service.available, service.status
    service.set_building(session.building)  # what the link server does when a building loads
    speech = speak("hide all doors", rate=44100)
    before = session.revision
    service.start(1, speech.rate)
    for chunk in speech.chunks(0.05):
        service.feed(1, chunk)
    transcript = service.finish(1)
    assert transcript == "hide all doors"

    result = session.say(transcript)
    assert result.ok, result.to_json()
    doors = {e.id for e in session.building.elements.values() if e.ifc_class == "IfcDoor"}
    assert doors and doors <= set(session.state()["hidden"])
    assert session.revision > before
    session.do({"steps": [{"op": "show", "target": {"class": ["IfcDoor"]}}]})  # leave the module state clean
