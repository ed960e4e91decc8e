"""Speech on the device: sherpa-onnx recognition for push-to-talk, streaming and hands-free use.

Public interface (used by the link server)::

    from pyagent.speech import load_speech_service
    service = load_speech_service()          # or load_service() -> None when unavailable
    service.set_building(building)           # vocabulary biasing (transducer models)
    service.start(utt_id, sample_rate); service.feed(utt_id, pcm16) -> str | None
    service.finish(utt_id) -> str

See ``service.py`` for configuration and ``models/README.md`` for installing models.
"""

from pyagent.speech.hotwords import building_hotwords
from pyagent.speech.normalize import normalize_transcript
from pyagent.speech.service import (
    SpeechConfig,
    SpeechService,
    SpeechUnavailable,
    load_service,
    load_speech_service,
)

__all__ = [
    "SpeechConfig",
    "SpeechService",
    "SpeechUnavailable",
    "building_hotwords",
    "load_service",
    "load_speech_service",
    "normalize_transcript",
]
