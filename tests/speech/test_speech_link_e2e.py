"""Voice end to end through the real link: espeak-ng speech at a headset's device rate, chunked like
push-to-talk, over ZeroMQ into `LinkServer`, recognised by sherpa-onnx (a tiny streaming Zipformer
built by the tests), understood by the parser and applied: the engine receives the delta."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import zmq

from pyagent.actions.delta import element_changes
from pyagent.link.server import LinkServer
from pyagent.session import Session
from pyagent.speech.service import load_speech_service

HAUS = Path(__file__).resolve().parents[2] / "ifc" / "AC20-FZK-Haus.ifc"


class Engine:
    """A DEALER socket standing in for the Godot engine."""

    def __init__(self, srv: LinkServer, ctx: zmq.Context) -> None:
        self.srv = srv
        self.sock = ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect(srv.endpoint)

    def exchange(self, body: dict[str, Any], data: bytes | None = None, wait_ms: int = 3000) -> list[dict[str, Any]]:
        frames = [json.dumps(body).encode()] + ([data] if data is not None else [])
        self.sock.send_multipart(frames)
        self.srv.poll_once(wait_ms)
        out = []
        while self.sock.poll(50):
            out.append(json.loads(self.sock.recv_multipart()[0]))
            self.srv.poll_once(0)
        return out


@pytest.mark.parametrize("rate", [44100, 48000])
def test_spoken_command_over_the_link_hides_the_doors(tiny_models: Path, speak: Any, rate: int) -> None:
    service = load_speech_service({"models_root": tiny_models, "recognizer": "tiny-streaming", "probe": False})
    assert service.available, service.status
    session = Session.open(HAUS)
    doors = sorted(g for g, e in session.building.elements.items() if e.ifc_class == "IfcDoor")
    speech = speak("hide all doors", rate=rate)
    ctx = zmq.Context()
    with LinkServer(session, "inproc://voice-e2e", context=ctx, speech=service) as srv:
        engine = Engine(srv, ctx)
        try:
            welcome = engine.exchange({"type": "hello", "protocol": 2})
            assert welcome[0]["type"] == "welcome" and welcome[0]["state"]["hidden"] == []
            assert engine.exchange({"type": "audio_start", "id": 7, "sample_rate": rate}) == []
            partials: list[str] = []
            for chunk in speech.chunks(0.1):  # 100 ms push-to-talk chunks
                partials += [m["text"] for m in engine.exchange({"type": "audio", "id": 7}, chunk, wait_ms=500)
                             if m["type"] == "partial"]
            replies = engine.exchange({"type": "audio_end", "id": 7}, wait_ms=5000)
        finally:
            engine.sock.close(linger=0)
    ctx.term()
    assert partials, "no partial transcript reached the engine while the user spoke"
    assert partials[-1] in "hide all doors" and len(partials) == len(set(partials))
    deltas = [m for m in replies if m["type"] == "delta"]
    result = [m for m in replies if m["type"] == "result"][-1]
    assert result["ok"] and result["transcript"] == "hide all doors" and result["id"] == 7
    assert sorted(g for g, ch in element_changes(deltas[0]["changes"]).items() if ch["hidden"]) == doors
    assert sorted(session.state()["hidden"]) == doors
