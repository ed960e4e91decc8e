"""While ``serve`` loads a building for the first time (tens of seconds for a large file), engines that
connect already hear how far it got: a small ROUTER on the link's endpoint answers ``hello`` with a
``status`` line ("Loading duplex.ifc: making the geometry: 40 % (120 of 300)") and sends each new line
to the engines that said hello (with the token when the link has one; strangers get only the refusal
the link gives them). When loading is done it closes; the engines' reconnect then reaches the real link
server on the same endpoint and they get their ``welcome``."""

from __future__ import annotations

import hmac
import logging
import threading

import zmq

from pyagent.link.protocol import MAX_JSON_BYTES, ProtocolError, encode, parse_message

log = logging.getLogger(__name__)

NOT_AUTHORISED = "not authorised: send hello with the agent's token first"


class LoadingResponder:
    """Binds ``endpoint`` on a thread of its own until ``close()``; ``update(text)`` is thread-safe."""

    def __init__(self, endpoint: str, token: str | None = None, context: zmq.Context | None = None) -> None:
        self.context = context or zmq.Context.instance()
        self.token = token
        self.socket = self.context.socket(zmq.ROUTER)
        self.socket.setsockopt(zmq.LINGER, 0)
        self.socket.setsockopt(zmq.MAXMSGSIZE, MAX_JSON_BYTES + 4096)
        self.socket.bind(endpoint)
        self.endpoint = endpoint
        self.text = "Loading the building"
        self.sent = 0  # status messages sent (for tests and logs)
        self._peers: list[bytes] = []
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
            if poller.poll(50):
                try:
                    frames = self.socket.recv_multipart(flags=zmq.NOBLOCK)
                except zmq.ZMQError:
                    continue
                self._on_message(frames)
            with self._lock:
                changed, text, peers = self._changed, self.text, list(self._peers)
                self._changed = False
            if changed:
                for peer in peers:
                    self._send(peer, {"type": "status", "text": text})

    def _on_message(self, frames: list[bytes]) -> None:
        if len(frames) < 2:
            return
        peer = frames[0]
        try:
            msg = parse_message(frames[1:])
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
            if peer not in self._peers and len(self._peers) < 64:
                self._peers.append(peer)
            text = self.text
        self._send(peer, {"type": "status", "text": text})

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.socket.close(linger=0)
