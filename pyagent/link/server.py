"""The agent side of the engine link: a ZeroMQ ROUTER socket in front of a ``Session``.

``LinkServer.poll_once`` drains what the engines sent, answers each message of PROTOCOL.md, and
broadcasts a ``delta`` (numbered by ``seq``) to every connected engine whenever the scene state
changed. Malformed messages get an ``error`` reply and change nothing; nothing an engine sends can
stop the loop.

    python -m pyagent serve --ifc ifc/AC20-FZK-Haus.ifc [--endpoint tcp://127.0.0.1:5557]
    python -m pyagent serve --ifc FILE --listen 0.0.0.0:5557 --token-file PATH   # remote engines
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import ipaddress
import logging
import os
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol

import zmq

from pyagent.actions.delta import diff_states, is_empty
from pyagent.link.protocol import (
    MAX_TRANSPORT_BYTES,
    PROTOCOL_VERSION,
    Message,
    ProtocolError,
    encode,
    parse_message,
)

if TYPE_CHECKING:
    from pyagent.link.streaming import BackgroundLoad

log = logging.getLogger("pyagent.link")

DEFAULT_ENDPOINT = "tcp://127.0.0.1:5557"
DEFAULT_PORT = 5557
#: How long the link waits for its address to come free (the loading responder closing on it) before giving up.
BIND_PATIENCE_S = 3.0
MAX_STRANGERS = 64  # connections that have not (yet) said a good hello; the oldest is forgotten first
MAX_ENGINES = 16  # engines that said hello; never pushed out by newcomers while they are alive
ENGINE_IDLE_S = 30.0  # an engine silent this long (engines ping every 2 s) has gone and may be replaced
NOT_AUTHORISED = "not authorised: send hello with the agent's token first"
SPEECH_NOT_CONFIGURED = (
    "speech recognition is not configured: run `python -m pyagent models fetch ...` and restart the agent"
)
#: What the user is told (the error above, with how to fix it, goes to the log and ``error``).
SPEECH_NOT_CONFIGURED_ANSWER = (
    "I cannot listen: speech recognition is not set up on this computer. Type the command instead."
)


class SpeechService(Protocol):
    """What the server needs from speech recognition (built in ``pyagent/speech``)."""

    def start(self, utt_id: int, sample_rate: int) -> None: ...

    def feed(self, utt_id: int, pcm16: bytes) -> str | None: ...

    def finish(self, utt_id: int) -> str: ...


class ResultLike(Protocol):
    def to_json(self) -> dict[str, Any]: ...


class SessionLike(Protocol):
    """The part of ``pyagent.session.Session`` the link uses."""

    @property
    def glb_path(self) -> Path | None: ...

    def set_pose(self, pose: Any) -> Any: ...

    def say(self, text: str) -> ResultLike: ...

    def do(self, program: dict[str, Any]) -> ResultLike: ...

    def select(self, ids: list[str]) -> ResultLike: ...

    def state(self) -> dict[str, Any]: ...


@dataclass
class Peer:
    """One connected engine (a ZeroMQ routing id)."""

    identity: bytes
    address: str
    helloed: bool = False
    last_seen: float = 0.0

    def label(self) -> str:
        return f"{self.address or '?'}#{self.identity.hex()}"


@dataclass
class Utterance:
    key: tuple[bytes, int]  # (peer identity, the engine's id)
    utt_id: int  # the id the speech service sees (unique across engines)
    sample_rate: int
    last_partial: str = ""


@dataclass
class LinkStats:
    """Counters, for tests and the status line."""

    messages: int = 0
    errors: int = 0
    refused: int = 0
    poses_received: int = 0
    poses_applied: int = 0
    deltas: int = 0
    results: int = 0


@dataclass(frozen=True)
class ModelInfo:
    hash: str
    name: str
    size: int
    pending: int = 0  # elements still loading (a first view: a ``model_part`` brings them)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hash": self.hash, "name": self.name, "size": self.size}
        if self.pending:
            out["pending"] = self.pending
        return out


def _is_loopback_endpoint(endpoint: str) -> bool:
    scheme, _, rest = endpoint.partition("://")
    if scheme in ("ipc", "inproc"):
        return True
    if scheme != "tcp":
        return False
    host = rest.rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # an interface name or '*': not loopback


class LinkServer:
    """A ROUTER socket serving one ``Session`` to any number of engines (DEALER sockets)."""

    def __init__(
        self,
        session: SessionLike,
        endpoint: str = DEFAULT_ENDPOINT,
        *,
        token: str | None = None,
        allow_remote: bool = False,
        speech: SpeechService | None = None,
        speech_problem: str = "",
        pose_factory: Callable[[dict[str, Any]], Any] | None = None,
        model_name: str | None = None,
        context: zmq.Context[Any] | None = None,
        max_batch: int = 1000,
        background_saves: bool = True,
        bound: zmq.Socket[Any] | None = None,
    ) -> None:
        if allow_remote and not token:
            raise ValueError("listening beyond loopback needs a token (--token SECRET)")
        if not allow_remote and not _is_loopback_endpoint(endpoint):
            raise ValueError(f"{endpoint} is not a loopback endpoint; use --listen with --token for remote "
                             "engines")
        self.session = session
        persistence = getattr(session, "persistence", None)
        if background_saves and persistence is not None and hasattr(persistence, "background_saves"):
            persistence.background_saves = True  # a save must not stop the link answering
        self.token = token or None
        self.speech = speech
        self.speech_problem = speech_problem
        self.max_batch = max_batch
        self.stats = LinkStats()
        self.seq = 0
        self._models: dict[str, bytes] = {}  # every glb served by hash (a first view's too, for late asks)
        self._model_name = model_name
        self.model = self._load_model(model_name)
        self._loading: BackgroundLoad | None = None  # the rest of a first view, being made
        self._status_lock = threading.Lock()
        self._status_text: str | None = None  # a status line from another thread, not yet sent
        self._status_sent = ""
        self._pose_factory = pose_factory or _default_pose_factory
        self._strangers: OrderedDict[bytes, Peer] = OrderedDict()
        self._engines: dict[bytes, Peer] = {}
        self._pending_pose: tuple[Peer, Any] | None = None
        self._utterances: dict[tuple[bytes, int], Utterance] = {}
        self._refused_audio: OrderedDict[tuple[bytes, int], None] = OrderedDict()
        self._next_utt = 1
        self._state = self._snapshot()
        self._stop = threading.Event()
        if bound is not None:  # a ROUTER already bound (the loading responder's): its context is the caller's
            self._own_context = False
            self._ctx = bound.context
            self.socket: zmq.Socket[Any] = bound
        else:
            self._own_context = context is None
            self._ctx = context or zmq.Context()
            self.socket = self._ctx.socket(zmq.ROUTER)
            self.socket.setsockopt(zmq.LINGER, 0)
            self.socket.setsockopt(zmq.MAXMSGSIZE, MAX_TRANSPORT_BYTES)
            try:
                self._bind(endpoint)
            except zmq.ZMQError:
                self.socket.close(linger=0)
                if self._own_context:
                    self._ctx.term()
                raise
        self.endpoint: str = self.socket.getsockopt_string(zmq.LAST_ENDPOINT)
        self._poller = zmq.Poller()
        self._poller.register(self.socket, zmq.POLLIN)

    # ------------------------------------------------------------------------------------------ setup

    def _load_model(self, name: str | None) -> ModelInfo:
        path = getattr(self.session, "glb_path", None)
        building = getattr(self.session, "building", None)
        if name is None:
            name = (getattr(building, "project_name", "") or "") if building is not None else ""
            if not name and building is not None and getattr(building, "path", None):
                name = Path(building.path).stem
        self._glb: bytes = b""
        if path is not None and Path(path).is_file():
            self._glb = Path(path).read_bytes()
            name = name or Path(path).stem
        digest = hashlib.sha256(self._glb).hexdigest() if self._glb else ""
        if digest:
            self._models[digest] = self._glb
        pending = len(getattr(self.session, "pending", ()) or ())
        return ModelInfo(digest, name or "", len(self._glb), pending)

    def _snapshot(self) -> dict[str, Any]:
        return self.session.state()

    # ------------------------------------------------------------------------------------------ sending

    def _send(self, identity: bytes, body: dict[str, Any], data: bytes | None = None) -> None:
        frames = [identity, encode(body)]
        if data is not None:
            frames.append(data)
        try:
            self.socket.send_multipart(frames, flags=zmq.NOBLOCK, copy=data is None or len(data) < 65536)
        except zmq.Again:
            log.warning("engine %s is not reading; dropped a %s message", identity.hex(), body.get("type"))

    def _error(self, peer: Peer, message: str, ref_id: int | None = None) -> None:
        self.stats.errors += 1
        body: dict[str, Any] = {"type": "error", "message": message}
        if ref_id is not None:
            body["id"] = ref_id
        log.info("refused a message from %s: %s", peer.label(), message)
        self._send(peer.identity, body)

    def _result(self, peer: Peer, ref_id: int, result: dict[str, Any], **extra: Any) -> None:
        self.stats.results += 1
        body = {"type": "result", "id": ref_id, **result, **extra, "seq": self.seq}
        self._send(peer.identity, body)

    def publish_changes(self) -> dict[str, Any] | None:
        """Broadcast a ``delta`` to every engine when the state changed; returns the delta sent."""
        new = self._snapshot()
        delta = diff_states(self._state, new)
        self._state = new
        if is_empty(delta):
            return None
        self.seq += 1
        self.stats.deltas += 1
        body = {"type": "delta", "seq": self.seq, "changes": delta}
        for peer in list(self._engines.values()):
            self._send(peer.identity, body)
        return delta

    # ------------------------------------------------------------------------------------------ loop

    def poll_once(self, timeout_ms: int = 0) -> int:
        """Wait up to ``timeout_ms`` for messages, handle all pending ones; returns how many."""
        self._report_saves()
        self._report_status()
        if self._loading is not None and self._loading.done.is_set():
            self._finish_loading()
        if not self._poller.poll(timeout_ms):
            return 0
        batch: list[list[zmq.Frame]] = []
        while len(batch) < self.max_batch:
            try:
                batch.append(self.socket.recv_multipart(flags=zmq.NOBLOCK, copy=False))
            except zmq.Again:
                break
        self._pending_pose = None
        for frames in batch:
            self.stats.messages += 1
            try:
                self._handle(frames)
            except Exception:  # noqa: BLE001 - nothing a peer sends may end the process
                log.exception("a message could not be handled")
        if self._pending_pose is not None:
            self._apply_pose_guarded()
        return len(batch)

    def welcome_waiting(self, hellos: Sequence[list[zmq.Frame]]) -> None:
        """Answer hellos heard before this server started (the loading responder's, handed over with its
        socket) as if they came now: each engine that waited gets its ``welcome`` without saying hello
        again."""
        for frames in hellos:
            try:
                self._handle(frames)
            except Exception:  # noqa: BLE001 - nothing a peer sends may end the process
                log.exception("a waiting hello could not be handled")

    def _handle(self, frames: list[zmq.Frame]) -> None:
        peer = self._peer(frames[0])
        try:
            msg = parse_message([f.bytes for f in frames[1:]])
        except ProtocolError as exc:
            if self.token is not None and not peer.helloed:  # strangers learn nothing but the refusal
                self.stats.refused += 1
                self._error(peer, NOT_AUTHORISED)
            else:
                self._error(peer, str(exc), exc.ref_id)
            return
        if not self._admitted(peer, msg):
            return
        if msg.type == "pose":
            pose = self._parse_pose(peer, msg)
            if pose is not None:
                self.stats.poses_received += 1
                self._pending_pose = (peer, pose)  # only the newest pose of a batch is applied
            return
        if self._pending_pose is not None:  # what the user says refers to where they were when saying it
            self._apply_pose_guarded()
        self._dispatch(peer, msg)

    def _apply_pose_guarded(self) -> None:
        pending, self._pending_pose = self._pending_pose, None
        if pending is not None:
            try:
                self._apply_pose(*pending)
            except Exception:  # noqa: BLE001 - a bad pose must not stop the link
                log.exception("a pose could not be applied")

    # ------------------------------------------------------------------------------------------ streaming

    def _bind(self, endpoint: str, patience_s: float = BIND_PATIENCE_S) -> None:
        """Bind, waiting a moment when the address is still held: the loading responder that answered on
        the same endpoint while the building loaded closes its socket in zmq's I/O thread, not at once."""
        deadline = time.monotonic() + patience_s
        while True:
            try:
                self.socket.bind(endpoint)
                return
            except zmq.ZMQError as exc:
                if exc.errno != zmq.EADDRINUSE or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stream(self, loading: BackgroundLoad) -> None:
        """Serve a first view now and its rest when ``loading`` is done: the session ``complete``s, every
        engine gets a ``model_part`` with the new elements, and ``welcome`` offers the full model."""
        self._loading = loading

    @property
    def streaming(self) -> bool:
        """Whether the rest of a first view is still being made."""
        return self._loading is not None

    def post_status(self, text: str) -> None:
        """A ``status`` line for every engine, from any thread (sent by the link's loop; only the newest
        one waiting is sent)."""
        with self._status_lock:
            self._status_text = text

    def _report_status(self) -> None:
        with self._status_lock:
            text, self._status_text = self._status_text, None
        if text and text != self._status_sent:
            self._status_sent = text
            self._broadcast({"type": "status", "text": text})

    def _finish_loading(self) -> None:
        loading, self._loading = self._loading, None
        assert loading is not None
        name = loading.path.name
        try:
            part = loading.part()
        except Exception as exc:  # noqa: BLE001 - the first view stays served; the engines hear why
            log.error("the rest of %s could not be loaded: %s", name, exc)
            self._report_status()
            self._broadcast({"type": "status", "text": f"{name}: the rest of the building could not be loaded "
                                                       f"({str(exc)[:200]})"})
            return
        if part is None:
            return
        complete = getattr(self.session, "complete", None)
        if not callable(complete):
            return
        ids = complete(part.full)
        base = self.model
        self.model = self._load_model(self._model_name)
        data = part.glb_path.read_bytes()
        log.info("the rest of %s is in after %.1f s: %d elements (%d bytes of glb) to %d engines", name,
                 part.seconds, len(ids), len(data), len(self._engines))
        self._report_status()  # the last progress line goes before the part
        body = {"type": "model_part", "hash": self.model.hash, "base": base.hash, "name": self.model.name,
                "size": len(data), "elements": len(ids)}
        self._broadcast(body, data)
        self._broadcast({"type": "status", "text": f"{name} is fully loaded: {len(ids)} more elements came in "
                                                   f"after the first view"})
        self.publish_changes()  # what the file hides among the new elements

    def _broadcast(self, body: dict[str, Any], data: bytes | None = None) -> None:
        for peer in list(self._engines.values()):
            self._send(peer.identity, body, data)

    def _report_saves(self) -> None:
        """Tell every engine when a background save has finished (a ``status`` message)."""
        persistence = getattr(self.session, "persistence", None)
        poll = getattr(persistence, "poll_save", None)
        if not callable(poll):
            return
        try:
            text = poll()
        except Exception:  # noqa: BLE001 - a failed save is reported, never fatal
            log.exception("checking the background save failed")
            return
        if text:
            log.info("%s", text)
            for peer in list(self._engines.values()):
                self._send(peer.identity, {"type": "status", "text": text})

    def run(self, install_signals: bool = True) -> None:
        """Serve until ``stop()`` (or SIGINT/SIGTERM when run in the main thread)."""
        previous: dict[signal.Signals, Any] = {}
        if install_signals and threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                previous[sig] = signal.signal(sig, self._on_signal)
        try:
            while not self._stop.is_set():
                try:
                    self.poll_once(100)
                except zmq.ZMQError as exc:  # e.g. interrupted by a signal; the socket itself is fine
                    if exc.errno == zmq.ETERM:
                        break
                    log.warning("link: %s", exc)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        log.info("signal %d: stopping", signum)
        self._stop.set()

    def stop(self) -> None:
        self._stop.set()

    def close(self) -> None:
        self._stop.set()
        self.socket.close(linger=0)
        if self._own_context:
            self._ctx.term()

    def __enter__(self) -> LinkServer:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------------------ peers

    def _peer(self, frame: zmq.Frame) -> Peer:
        identity = frame.bytes
        peer = self._engines.get(identity) or self._strangers.get(identity)
        if peer is None:
            try:
                address = frame.get("Peer-Address")
            except (zmq.ZMQError, AttributeError):
                address = ""
            peer = Peer(identity, str(address or ""))
            self._strangers[identity] = peer
            while len(self._strangers) > MAX_STRANGERS:  # only other strangers are pushed out, never engines
                self._strangers.popitem(last=False)
        elif identity in self._strangers:
            self._strangers.move_to_end(identity)
        peer.last_seen = time.monotonic()
        return peer

    def _admit_engine(self, peer: Peer) -> bool:
        """Move ``peer`` to the engines after a good hello; False when the engine table is full of live ones."""
        if peer.identity in self._engines:
            return True
        if len(self._engines) >= MAX_ENGINES:
            now = time.monotonic()
            idle = min(self._engines.values(), key=lambda p: p.last_seen)
            if now - idle.last_seen < ENGINE_IDLE_S:
                return False
            log.info("engine %s has been silent for %.0f s: replaced", idle.label(), now - idle.last_seen)
            del self._engines[idle.identity]
        self._strangers.pop(peer.identity, None)
        self._engines[peer.identity] = peer
        peer.helloed = True
        return True

    def _demote(self, peer: Peer) -> None:
        peer.helloed = False
        if self._engines.pop(peer.identity, None) is not None:
            self._strangers[peer.identity] = peer

    @property
    def peers(self) -> list[Peer]:
        return [*self._engines.values(), *self._strangers.values()]

    def _admitted(self, peer: Peer, msg: Message) -> bool:
        if msg.type == "hello":
            return True
        if self.token is not None and not peer.helloed:
            self.stats.refused += 1
            log.warning("refused %s from %s: it has not said hello with the token", msg.type, peer.label())
            self._error(peer, NOT_AUTHORISED, msg.id)
            return False
        return True

    # ------------------------------------------------------------------------------------------ handlers

    def _dispatch(self, peer: Peer, msg: Message) -> None:
        handler = getattr(self, f"_on_{msg.type}")
        try:
            handler(peer, msg)
        except Exception as exc:  # noqa: BLE001 - a bug in one request must not stop the link
            log.exception("%s from %s failed", msg.type, peer.label())
            if msg.type in ("say", "do", "audio_end") and msg.id is not None:
                self._result(peer, msg.id, _failure(f"internal error: {str(exc)[:200]}"))
            else:
                self._error(peer, f"internal error: {str(exc)[:200]}", msg.id)
        self.publish_changes()

    def _on_hello(self, peer: Peer, msg: Message) -> None:
        if self.token is not None:  # the token first: a stranger learns nothing else
            given = msg.body.get("token")
            if not isinstance(given, str) or not hmac.compare_digest(given.encode(), self.token.encode()):
                self.stats.refused += 1
                self._demote(peer)
                log.warning("refused hello from %s: %s token", peer.label(), "wrong" if given else "missing")
                self._error(peer, "not authorised: wrong or missing token")
                return
        if msg.body["protocol"] != PROTOCOL_VERSION:
            self._error(peer, f"protocol {msg.body['protocol']} is not supported; this agent speaks "
                              f"protocol {PROTOCOL_VERSION}")
            return
        if not self._admit_engine(peer):
            self.stats.refused += 1
            log.warning("refused hello from %s: %d engines are connected", peer.label(), len(self._engines))
            self._error(peer, f"too many engines are connected (at most {MAX_ENGINES}); try again later")
            return
        self.publish_changes()  # so the welcome state and seq are current
        log.info("engine %s said hello", peer.label())
        welcome = {"type": "welcome", "protocol": PROTOCOL_VERSION, "model": self.model.to_json(),
                   "state": self._state, "seq": self.seq}
        self._send(peer.identity, welcome)

    def _parse_pose(self, peer: Peer, msg: Message) -> Any:
        try:
            return self._pose_factory(msg.body["pose"])
        except (ValueError, KeyError, TypeError) as exc:
            self._error(peer, f"pose: {exc}")
            return None

    def _apply_pose(self, peer: Peer, pose: Any) -> None:
        try:
            self.session.set_pose(pose)
        except (ValueError, TypeError) as exc:
            self._error(peer, f"pose: {exc}")
            return
        self.stats.poses_applied += 1
        # The engine knows where its user stands: record the pose without echoing it back as a delta.
        self._state["pose"] = self._snapshot()["pose"]

    def _on_say(self, peer: Peer, msg: Message) -> None:
        self._reply_with(peer, msg.body["id"], self.session.say(msg.body["text"]))

    def _on_do(self, peer: Peer, msg: Message) -> None:
        self._reply_with(peer, msg.body["id"], self.session.do(msg.body["program"]))

    def _reply_with(self, peer: Peer, ref_id: int, result: ResultLike, **extra: Any) -> None:
        self.publish_changes()  # the delta goes out before the result that caused it
        self._result(peer, ref_id, result.to_json(), **extra)

    def _on_select(self, peer: Peer, msg: Message) -> None:
        out = self.session.select(list(msg.body["ids"])).to_json()
        if not out.get("ok", False):
            self._error(peer, f"select: {out.get('error') or 'refused'}")

    def _on_get_model(self, peer: Peer, msg: Message) -> None:
        if not self._glb:
            self._error(peer, "this agent has no model geometry to send")
        elif msg.body["hash"] == self.model.hash:
            self._send(peer.identity, {"type": "model", **self.model.to_json()}, self._glb)
        elif msg.body["hash"] in self._models:  # a first view asked for before the rest came: its part follows
            data = self._models[msg.body["hash"]]
            self._send(peer.identity, {"type": "model", "hash": msg.body["hash"], "name": self.model.name,
                                       "size": len(data)}, data)
        else:
            self._error(peer, f"unknown model {msg.body['hash'][:16]!r}; "
                              f"the current model is {self.model.hash}")

    def _on_ping(self, peer: Peer, msg: Message) -> None:
        self._send(peer.identity, {"type": "pong", "t": msg.body["t"]})

    # -------------------------------------------------------------------------------------------- audio

    def _on_audio_start(self, peer: Peer, msg: Message) -> None:
        key = (peer.identity, msg.body["id"])
        if self.speech is None:
            self._refused_audio[key] = None
            while len(self._refused_audio) > 256:
                self._refused_audio.popitem(last=False)
            reason = SPEECH_NOT_CONFIGURED + (f" ({self.speech_problem})" if self.speech_problem else "")
            self._result(peer, key[1], _failure(reason, SPEECH_NOT_CONFIGURED_ANSWER), transcript="")
            return
        if key in self._utterances:
            self._error(peer, f"audio_start: utterance {key[1]} has already started", key[1])
            return
        utt = Utterance(key, self._next_utt, msg.body["sample_rate"])
        self._next_utt += 1
        try:
            self.speech.start(utt.utt_id, utt.sample_rate)
        except (RuntimeError, ValueError, KeyError) as exc:
            self._result(peer, key[1], _failure(f"speech recognition failed: {exc}"), transcript="")
            self._refused_audio[key] = None
            return
        self._utterances[key] = utt

    def _utterance(self, peer: Peer, msg: Message) -> Utterance | None:
        key = (peer.identity, msg.body["id"])
        utt = self._utterances.get(key)
        if utt is None and key not in self._refused_audio:
            self._error(peer, f"{msg.type}: no audio_start for utterance {key[1]}", key[1])
        return utt

    def _speech_failed(self, peer: Peer, utt: Utterance, exc: Exception) -> None:
        self._utterances.pop(utt.key, None)
        self._refused_audio[utt.key] = None  # ignore the rest of this utterance quietly
        cancel = getattr(self.speech, "cancel", None)
        if callable(cancel):
            cancel(utt.utt_id)
        log.warning("speech recognition failed for %s: %s", peer.label(), exc)
        self._result(peer, utt.key[1], _failure(f"speech recognition failed: {exc}"), transcript="")

    def _on_audio(self, peer: Peer, msg: Message) -> None:
        utt = self._utterance(peer, msg)
        if utt is None or self.speech is None:
            return
        assert msg.data is not None  # parse_message guarantees frame 1 for audio
        try:
            text = self.speech.feed(utt.utt_id, msg.data)
            pop = getattr(self.speech, "pop_segments", None)
            segments: list[str] = list(pop(utt.utt_id)) if callable(pop) else []
        except (RuntimeError, ValueError, KeyError) as exc:
            self._speech_failed(peer, utt, exc)
            return
        if text is not None and text != utt.last_partial:
            utt.last_partial = text
            self._send(peer.identity, {"type": "partial", "id": msg.body["id"], "text": text})
        for segment in segments:  # hands-free: each segment the VAD closed is a command of its own
            if segment.strip():
                self._reply_with(peer, msg.body["id"], self.session.say(segment.strip()),
                                 transcript=segment.strip(), segment=True)

    def _on_audio_end(self, peer: Peer, msg: Message) -> None:
        utt = self._utterance(peer, msg)
        if utt is None or self.speech is None:
            self._refused_audio.pop((peer.identity, msg.body["id"]), None)
            return
        try:
            transcript = self.speech.finish(utt.utt_id).strip()
        except (RuntimeError, ValueError, KeyError) as exc:
            self._speech_failed(peer, utt, exc)
            self._refused_audio.pop(utt.key, None)
            return
        del self._utterances[utt.key]
        if not transcript:
            self._result(peer, msg.body["id"], _failure("nothing was recognised", "I didn't catch that."),
                         transcript="")
            return
        self._reply_with(peer, msg.body["id"], self.session.say(transcript), transcript=transcript)


def _failure(error: str, answer: str | None = None) -> dict[str, Any]:
    return {"ok": False, "program": None, "answer": answer or error, "value": None, "error": error}


def _default_pose_factory(data: dict[str, Any]) -> Any:
    from pyagent.model import Pose

    return Pose.from_json(data)


# -------------------------------------------------------------------------------------------- command line


def _listen_endpoint(listen: str) -> str:
    """``0.0.0.0`` / ``0.0.0.0:5557`` / ``[::]:5557`` / ``tcp://...`` -> a tcp endpoint."""
    if "://" in listen:
        return listen
    host, port = listen, DEFAULT_PORT
    if listen.startswith("["):
        host, _, rest = listen.partition("]")
        host += "]"
        if rest.startswith(":"):
            port = int(rest[1:])
    elif listen.count(":") == 1:
        host, port_text = listen.split(":")
        port = int(port_text)
    return f"tcp://{host}:{port}"


def _default_speech() -> tuple[SpeechService | None, str]:
    """The speech service from ``pyagent.speech`` and, when it is unavailable, the reason why."""
    try:
        from pyagent.speech import load_speech_service
    except ImportError as exc:
        return None, f"the speech package cannot be imported ({exc})"
    try:
        service = load_speech_service()
    except (OSError, ValueError, RuntimeError) as exc:
        return None, str(exc)
    if not getattr(service, "available", True):
        return None, str(getattr(service, "status", "") or "")
    return service, ""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pyagent serve",
                                description="Serve a building to Godot engines.")
    p.add_argument("--ifc", required=True, help="the IFC file to open")
    p.add_argument("--endpoint", default=DEFAULT_ENDPOINT,
                   help=f"loopback endpoint (default {DEFAULT_ENDPOINT})")
    p.add_argument("--listen", metavar="ADDR", help="accept remote engines on ADDR[:PORT] (needs --token)")
    p.add_argument("--token", metavar="SECRET",
                   help="shared secret engines must send in hello; visible to other users in the process "
                        "list, so prefer --token-file or $PYAGENT_LINK_TOKEN")
    p.add_argument("--token-file", metavar="PATH", help="read the shared secret from the first line of PATH")
    p.add_argument("--no-speech", action="store_true", help="do not load speech recognition")
    p.add_argument("--journal", metavar="DIR", nargs="?", const="default",
                   help="journal folder (default: .cache/sessions/<file sha>/); every change is fsynced there")
    p.add_argument("--no-journal", action="store_true", help="do not journal (edits are lost if the agent dies)")
    p.add_argument("--fresh", action="store_true", help="start anew instead of restoring the journaled session")
    p.add_argument("--save-dir", metavar="DIR", help="where 'save' writes IFC revisions (default: next to the file)")
    p.add_argument("--mcp-http", metavar="[HOST:]PORT",
                   help="also serve this session over MCP (streamable HTTP, http://HOST:PORT/mcp; see pyagent/mcp)")
    p.add_argument("--mcp-token", metavar="SECRET", default=os.environ.get("PYAGENT_MCP_TOKEN"),
                   help="bearer token MCP clients must send (required beyond loopback; default $PYAGENT_MCP_TOKEN)")
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar on stderr (engines still hear it)")
    return p


def resolve_token(args: argparse.Namespace) -> str | None:
    """The link token: ``--token-file``, else ``--token``, else ``$PYAGENT_LINK_TOKEN``; None when none is
    given. Raises ``ValueError`` for an unreadable or empty token file."""
    if args.token_file:
        try:
            text = Path(args.token_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read the token file {args.token_file}: {exc}") from None
        token = text.splitlines()[0].strip() if text.strip() else ""
        if not token:
            raise ValueError(f"the token file {args.token_file} is empty")
        return token
    return args.token or os.environ.get("PYAGENT_LINK_TOKEN") or None


def serve_main(argv: Sequence[str] | None = None, *, speech: SpeechService | None = None) -> int:
    """``python -m pyagent serve ...``; returns the exit code."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        args.token = resolve_token(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.listen and not args.token:
        print("error: --listen needs a token: --token-file PATH, $PYAGENT_LINK_TOKEN or --token SECRET "
              "(remote engines must authenticate)", file=sys.stderr)
        return 2
    if not Path(args.ifc).is_file():
        print(f"error: no such IFC file: {args.ifc}", file=sys.stderr)
        return 2
    endpoint = _listen_endpoint(args.listen) if args.listen else args.endpoint
    started = time.monotonic()
    journal: str | bool | None = None if args.no_journal else (True if args.journal in (None, "default")
                                                                  else args.journal)
    from pyagent.link.loading import LoadingResponder
    from pyagent.link.streaming import BackgroundLoad, StatusRelay
    from pyagent.progress import TerminalBar, Throttled, both

    if not args.listen and not _is_loopback_endpoint(endpoint):
        print(f"error: cannot listen on {endpoint}: not a loopback endpoint; use --listen with --token for "
              "remote engines", file=sys.stderr)
        return 2
    # The building loads beside the link (a first load in a child process, started before any socket
    # exists so that it holds none, and before the session's own modules are imported, which this process
    # does meanwhile): the link starts on the fast pass's first view, and the rest streams to the engines
    # when it is made (a cached load has it all at once).
    bar = TerminalBar(Path(args.ifc).name, quiet=args.quiet)
    relay = StatusRelay(lambda _text: None)
    background = BackgroundLoad(args.ifc, progress=both(bar, Throttled(relay, Path(args.ifc).name)),
                                after=bar.close)
    context = zmq.Context()
    try:  # engines that connect while a first load runs hear how far it got
        loading = LoadingResponder(endpoint, args.token, context=context)
    except zmq.ZMQError as exc:
        background.cancel()
        context.term()
        print(f"error: cannot listen on {endpoint}: {exc}", file=sys.stderr)
        return 2
    relay.point_at(loading.update)
    try:
        from pyagent.session import Session

        first = background.wait_first()
        session = Session.from_loaded(first if first is not None else background.full(), journal_dir=journal,
                                      fresh=args.fresh, save_dir=args.save_dir)
    except BaseException:
        loading.close()
        context.term()
        raise
    if journal:
        print(session.restore_report.summary(), file=sys.stderr)
    def warm_front_end() -> None:  # made and warmed while engines connect (a first say waits for it)
        front = session.front_end()
        if front is not None:
            front.warm_in_background()  # the language model, when one is installed, loads too

    threading.Thread(target=warm_front_end, name="front-end", daemon=True).start()
    speech_problem = "started with --no-speech" if args.no_speech else ""
    if speech is None and not args.no_speech:
        speech, speech_problem = _default_speech()
    if speech is not None and hasattr(speech, "set_building"):
        speech.set_building(session.building)  # bias recognition towards this building's words
    server_cls = LinkServer
    if args.mcp_http:  # MCP requests run on the link's thread, between engine messages
        from pyagent.mcp.attach import JobLinkServer as server_cls
    # the link goes on with the responder's socket: engines that said hello while the building loaded
    # are welcomed now, without reconnecting
    bound, waiting = loading.hand_over()
    try:
        server = server_cls(session, endpoint, token=args.token, allow_remote=bool(args.listen),
                            speech=speech, speech_problem=speech_problem, bound=bound)
    except (ValueError, zmq.ZMQError) as exc:
        bound.close(linger=0)
        context.term()
        print(f"error: cannot listen on {endpoint}: {exc}", file=sys.stderr)
        return 2
    if first is not None:
        server.stream(background)
        relay.point_at(server.post_status)
    mcp_endpoint = None
    if args.mcp_http:
        from pyagent.mcp.cli import attach_http

        try:
            mcp_endpoint = attach_http(server, session, args.mcp_http, args.mcp_token)
        except (ValueError, OSError) as exc:
            server.close()
            context.term()
            print(f"error: --mcp-http: {exc}", file=sys.stderr)
            return 2
    with server:
        log.info("serving %s (%s, %d bytes of glb%s) on %s after %.1f s%s", args.ifc, server.model.name,
                 server.model.size, f", a first view: {server.model.pending} elements still loading"
                 if server.streaming else "", server.endpoint, time.monotonic() - started,
                 "" if speech else f"; speech recognition is not configured ({speech_problem})")
        print(f"listening on {server.endpoint}", flush=True)
        server.welcome_waiting(waiting)
        try:
            server.run()
        finally:
            if mcp_endpoint is not None:
                mcp_endpoint.stop()
    context.term()
    background.join(timeout=30.0)  # a first load's process may still be writing the cache for the next start
    close = getattr(session, "close", None)
    if callable(close):
        close()
    return 0


if __name__ == "__main__":
    sys.exit(serve_main())
