"""The ZeroMQ link between the agent and the Godot engine (protocol: ``PROTOCOL.md`` here)."""

from pyagent.link.protocol import PROTOCOL_VERSION, Message, ProtocolError, parse_message
from pyagent.link.server import LinkServer, SpeechService, serve_main

__all__ = ["PROTOCOL_VERSION", "LinkServer", "Message", "ProtocolError", "SpeechService", "parse_message",
           "serve_main"]
