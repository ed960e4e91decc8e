"""The engine <-> agent link protocol (``PROTOCOL.md``): parsing and checking incoming messages.

Every message is one or two ZeroMQ frames: frame 0 a UTF-8 JSON object with a ``"type"``, an optional
frame 1 of binary data. ``parse_message`` turns raw frames into a ``Message`` or raises ``ProtocolError``
with a message fit to send back to the engine; it never lets a malformed message through.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pyagent.jsonsafe import JsonInputError, finite_number, loads

PROTOCOL_VERSION = 2
MAX_JSON_BYTES = 1 << 20  # one JSON frame (a program, a selection of thousands of ids)
MAX_TRANSPORT_BYTES = 64 << 20  # libzmq drops a peer that sends a bigger message than this
MAX_AUDIO_BYTES = 1 << 20  # one audio chunk: 32 s of 16 kHz PCM16
MAX_TEXT_CHARS = 2000
SAMPLE_RATES = range(8000, 96001)

# Field kinds: "int" (not bool), "num" (finite int/float, not bool), "str", "obj", "ids" (list of str).
_FIELDS: dict[str, dict[str, tuple[str, bool]]] = {
    "hello": {"protocol": ("int", True), "token": ("str", False)},
    "pose": {"pose": ("obj", True)},
    "say": {"id": ("int", True), "text": ("str", True)},
    "do": {"id": ("int", True), "program": ("obj", True)},
    "select": {"ids": ("ids", True)},
    "audio_start": {"id": ("int", True), "sample_rate": ("int", True)},
    "audio": {"id": ("int", True)},
    "audio_end": {"id": ("int", True)},
    "get_model": {"hash": ("str", True)},
    "ping": {"t": ("num", True)},
}
MESSAGE_TYPES = frozenset(_FIELDS)
#: Types whose frame 1 (binary payload) is required; every other type must be a single frame.
_BINARY = frozenset({"audio"})


class ProtocolError(ValueError):
    """A malformed message; ``str(err)`` is the text for the ``error`` reply."""

    def __init__(self, message: str, ref_id: int | None = None) -> None:
        super().__init__(message)
        self.ref_id = ref_id


@dataclass
class Message:
    """One checked engine -> agent message."""

    type: str
    body: dict[str, Any]
    data: bytes | None = None

    @property
    def id(self) -> int | None:
        value = self.body.get("id")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


def _check(kind: str, value: Any) -> bool:
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "num":
        return finite_number(value)
    if kind == "str":
        return isinstance(value, str)
    if kind == "obj":
        return isinstance(value, dict)
    if kind == "ids":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    raise AssertionError(kind)


_KIND_NAMES = {"int": "an integer", "num": "a finite number", "str": "a string", "obj": "an object",
               "ids": "a list of strings"}


def parse_message(frames: Sequence[bytes]) -> Message:
    """Check raw frames against PROTOCOL.md. Raises ``ProtocolError`` for anything malformed."""
    if not frames:
        raise ProtocolError("empty message")
    if len(frames) > 2:
        raise ProtocolError(f"a message has one or two frames, got {len(frames)}")
    raw = frames[0]
    if len(raw) > MAX_JSON_BYTES:
        raise ProtocolError(f"JSON frame too large ({len(raw)} bytes, at most {MAX_JSON_BYTES})")
    try:
        body = loads(raw)
    except JsonInputError as exc:
        raise ProtocolError(f"frame 0 is not UTF-8 JSON: {exc}") from None
    if not isinstance(body, dict):
        raise ProtocolError(f"frame 0 must be a JSON object, got {type(body).__name__}")
    mtype = body.get("type")
    if not isinstance(mtype, str):
        raise ProtocolError('the message has no "type" string')
    if mtype not in _FIELDS:
        raise ProtocolError(f"unknown message type {mtype!r}; known: {', '.join(sorted(MESSAGE_TYPES))}")
    ref = body.get("id") if isinstance(body.get("id"), int) and not isinstance(body.get("id"), bool) else None
    for name, (kind, required) in _FIELDS[mtype].items():
        if name not in body:
            if required:
                raise ProtocolError(f"{mtype}: missing field {name!r}", ref)
            continue
        if not _check(kind, body[name]):
            raise ProtocolError(f"{mtype}: field {name!r} must be {_KIND_NAMES[kind]}", ref)
    data = frames[1] if len(frames) == 2 else None
    if mtype in _BINARY:
        if data is None:
            raise ProtocolError(f"{mtype}: frame 1 (the PCM16 samples) is missing", ref)
        if len(data) > MAX_AUDIO_BYTES:
            raise ProtocolError(f"{mtype}: audio chunk too large ({len(data)} bytes, at most "
                                f"{MAX_AUDIO_BYTES})", ref)
        if len(data) % 2:
            raise ProtocolError(f"{mtype}: PCM16 data must have an even number of bytes", ref)
    elif data is not None:
        raise ProtocolError(f"{mtype}: unexpected binary frame", ref)
    if mtype == "say" and len(body["text"]) > MAX_TEXT_CHARS:
        raise ProtocolError(f"say: text too long ({len(body['text'])} characters, at most {MAX_TEXT_CHARS})",
                            ref)
    if mtype == "audio_start" and body["sample_rate"] not in SAMPLE_RATES:
        raise ProtocolError(f"audio_start: sample_rate {body['sample_rate']} is outside 8000..96000 Hz", ref)
    return Message(mtype, body, data)


def _json_default(value: Any) -> Any:
    # numpy scalars and arrays, sets, tuples-as-lists: whatever a Result may carry.
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, set | frozenset):
        return sorted(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def encode(body: dict[str, Any]) -> bytes:
    """A message body as compact UTF-8 JSON (frame 0)."""
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False, allow_nan=False,
                      default=_json_default).encode("utf-8")
