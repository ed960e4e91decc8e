"""While ``serve`` loads a building for the first time (tens of seconds for a large file), engines that
connect already hear how far it got: a small ROUTER on the link's endpoint answers ``hello`` with a
``status`` line ("Loading duplex.ifc: making the geometry: 40 % (120 of 300)") and sends each new line
to the engines that said hello (with the token when the link has one; strangers get only the refusal
the link gives them). When loading is done it hands its socket, still bound, to the real link server
with the hellos it heard (``hand_over``): the engines that waited get their ``welcome`` at once, with no
reconnection."""

from __future__ import annotations

import hmac
import logging
import threading
from typing import Any

import zmq

from pyagent.link.protocol import MAX_TRANSPORT_BYTES, ProtocolError, encode, parse_message

log = logging.getLogger(__name__)

NOT_AUTHORISED = "not authorised: send hello with the agent's token first"


#: Engines whose hello is kept for the link server (more are answered but must say hello again).
MAX_WAITING = 64


class LoadingResponder:
    """Binds ``endpoint`` on a thread of its own until ``close()`` or ``hand_over()``; ``update(text)`` is
    thread-safe. The socket is made as the link server's is (a ROUTER, the same message size limit), so
    that the server can go on with it."""

    def __init__(self, endpoint: str, token: str | None = None, context: zmq.Context | None = None) -> None:
        self.context = context or zmq.Context.instance()
        self.token = token
        self.socket = self.context.socket(zmq.ROUTER)
        self.socket.setsockopt(zmq.LINGER, 0)
        self.socket.setsockopt(zmq.MAXMSGSIZE, MAX_TRANSPORT_BYTES)
        self.socket.bind(endpoint)
        self.endpoint = endpoint
        self.text = "Loading the building"
        self.sent = 0  # status messages sent (for tests and logs)
        self._peers: list[bytes] = []
        self._hellos: dict[bytes, list[zmq.Frame]] = {}  # each waiting engine's last good hello, as received
        self._lock = threading.Lock()
        self._changed = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="link-loading", daemon=True)
        self._thread.start()

    def update(self, text: str) -> None:
        with self._lock:
            self.text = text
            self._changed = True

    def _send(self, peer: bytes, body: dict[str, object]) -> None:
        try:
            self.socket.send_multipart([peer, encode(body)], flags=zmq.NOBLOCK)
            self.sent += 1
        except zmq.ZMQError:
            pass  # a peer that went away or cannot take more: it hears again on reconnect

    def _run(self) -> None:
        poller = zmq.Poller()
        poller.register(self.socket, zmq.POLLIN)
        while not self._stop.is_set():
            if poller.poll(10):
                try:
                    frames = self.socket.recv_multipart(flags=zmq.NOBLOCK, copy=False)
                except zmq.ZMQError:
                    continue
                self._on_message(frames)
            with self._lock:
                changed, text, peers = self._changed, self.text, list(self._peers)
                self._changed = False
            if changed:
                for peer in peers:
                    self._send(peer, {"type": "status", "text": text})

    def _on_message(self, frames: list[zmq.Frame]) -> None:
        if len(frames) < 2:
            return
        peer = frames[0].bytes
        try:
            msg = parse_message([f.bytes for f in frames[1:]])
        except ProtocolError:
            msg = None
        authorised = msg is not None and msg.type == "hello" and (
            self.token is None or (isinstance(msg.body.get("token"), str)
                                   and hmac.compare_digest(str(msg.body["token"]).encode(), self.token.encode())))
        if not authorised:
            if self.token is not None:
                self._send(peer, {"type": "error", "message": NOT_AUTHORISED})
            return
        with self._lock:
            if peer not in self._peers and len(self._peers) < MAX_WAITING:
                self._peers.append(peer)
            if peer in self._peers:
                self._hellos[peer] = frames
            text = self.text
        self._send(peer, {"type": "status", "text": text})

    def _stop_thread(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def hand_over(self) -> tuple[zmq.Socket[Any], list[list[zmq.Frame]]]:
        """Stop answering and give up the socket, still bound, with the last hello of each engine that
        waited (its frames as received: identity first); the caller owns the socket from then on.
        Messages not yet read stay in it for the new owner."""
        self._stop_thread()
        with self._lock:
            hellos = [self._hellos[p] for p in self._peers if p in self._hellos]
        return self.socket, hellos

    def close(self) -> None:
        self._stop_thread()
        self.socket.close(linger=0)
