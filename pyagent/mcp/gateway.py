"""What an MCP request does to the session: bounded, validated, attributed, on the session's own thread.

``Gateway.call(name, arguments)`` checks the request (size, then the tool's input schema, which comes
from the action schema), builds the program and hands a job to the session's owner: the link server's
thread when attached to ``serve`` (so a change reaches the engines in the same loop turn, as a
``delta``), or a single worker thread otherwise. While the job runs, the session's persistence is told
the change comes from ``mcp``: the journal record carries ``"src": "mcp"`` and a review note's author
says "via mcp". Nothing is executed but validated action programs.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import math
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from jsonschema import Draft202012Validator

from pyagent.mcp.tools import GET_STATE, OP, PROGRAM, SAY, SET_POSE, ToolSpec, spec, tool_specs

SOURCE = "mcp"
MAX_ARGUMENT_BYTES = 64 << 10  # a program is at most 8 steps; 64 KiB of JSON is far beyond any real one
MAX_DEPTH = 24
CALL_TIMEOUT_S = 30.0
MAX_WAITING_JOBS = 256  # requests queued for the session at once; more are refused, not held

T = TypeVar("T")


class Runner(Protocol):
    """Runs a job on the thread that owns the session; the future gives its result."""

    def submit(self, job: Callable[[], T]) -> concurrent.futures.Future[T]: ...


class WorkerRunner:
    """A session with no link: one worker thread runs every job, in order."""

    def __init__(self, max_waiting: int = MAX_WAITING_JOBS) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="mcp-session")
        self._slots = threading.BoundedSemaphore(max_waiting)

    def submit(self, job: Callable[[], T]) -> concurrent.futures.Future[T]:
        if not self._slots.acquire(blocking=False):
            busy: concurrent.futures.Future[T] = concurrent.futures.Future()
            busy.set_exception(RuntimeError("the agent is busy: too many requests are waiting"))
            return busy
        fut = self._pool.submit(job)
        fut.add_done_callback(lambda _f: self._slots.release())
        return fut

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


@dataclass
class Outcome:
    """The answer to one tool call: ``ok`` false is a refused or failed request (nothing changed)."""

    ok: bool
    text: str
    data: dict[str, Any] = field(default_factory=dict)


def _json_size(value: Any) -> int | None:
    try:
        return len(json.dumps(value, allow_nan=False, ensure_ascii=False).encode())
    except (TypeError, ValueError, RecursionError):
        return None


def _depth(value: Any, limit: int) -> int:
    deepest = 0
    stack = [(value, 1)]
    while stack and deepest <= limit:
        v, d = stack.pop()
        deepest = max(deepest, d)
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
    return deepest


def _clean(value: Any) -> Any:
    """JSON-safe (numpy scalars to Python numbers, NaN/inf to null)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item"):
        return _clean(value.item())
    return value


_validators: dict[str, Draft202012Validator] = {}
_validators_lock = threading.Lock()


def _validator(s: ToolSpec) -> Draft202012Validator:
    with _validators_lock:
        v = _validators.get(s.name)
        if v is None:
            v = _validators[s.name] = Draft202012Validator(s.input_schema)
        return v


def check_arguments(name: str, arguments: Any) -> tuple[ToolSpec | None, str | None]:
    """The tool and ``None``, or a clear reason the request is refused (before any work is done)."""
    s = spec(name)
    if s is None:
        return None, f"unknown tool {str(name)[:60]!r}; the tools are: {', '.join(t.name for t in tool_specs())}"
    args = {} if arguments is None else arguments
    size = _json_size(args)
    if size is None:
        return s, "arguments must be plain JSON (no NaN or infinity)"
    if size > MAX_ARGUMENT_BYTES:
        return s, f"arguments too large ({size} bytes; the limit is {MAX_ARGUMENT_BYTES})"
    if _depth(args, MAX_DEPTH) > MAX_DEPTH:
        return s, f"arguments nested too deeply (more than {MAX_DEPTH} levels)"
    errors = sorted(_validator(s).iter_errors(args), key=lambda e: list(e.absolute_path))
    if errors:
        parts = []
        for err in errors[:3]:
            where = "/".join(str(p) for p in err.absolute_path) or "arguments"
            parts.append(f"{where}: {err.message[:300]}")
        return s, f"invalid arguments for '{s.name}': " + "; ".join(parts)
    return s, None


class Gateway:
    """The MCP side of one session."""

    def __init__(self, session: Any, runner: Runner | None = None, timeout_s: float = CALL_TIMEOUT_S) -> None:
        self.session = session
        self._own_runner = runner is None
        self.runner: Runner = runner if runner is not None else WorkerRunner()
        self.timeout_s = timeout_s

    def close(self) -> None:
        if self._own_runner and isinstance(self.runner, WorkerRunner):
            self.runner.close()

    # ---- running on the session's thread --------------------------------------------------------
    def submit(self, job: Callable[[], T]) -> concurrent.futures.Future[T]:
        return self.runner.submit(job)

    def run_sync(self, job: Callable[[], T]) -> T:
        """Run ``job`` on the session's thread and wait (bounded) for it."""
        fut = self.submit(job)
        try:
            return fut.result(timeout=self.timeout_s)
        except concurrent.futures.TimeoutError:
            fut.cancel()
            raise

    @contextlib.contextmanager
    def _attributed(self) -> Iterator[None]:
        p = getattr(self.session, "persistence", None)
        previous = getattr(p, "origin", None)
        if p is not None:
            p.origin = SOURCE
        try:
            yield
        finally:
            if p is not None:
                p.origin = previous

    # ---- the tools --------------------------------------------------------------------------------
    def job(self, name: str, arguments: Any) -> Callable[[], Outcome]:
        """The work of one tool call (checked now; run later on the session's thread)."""
        s, problem = check_arguments(name, arguments)
        if problem is not None or s is None:
            refused = Outcome(False, f"Refused: {problem}. Nothing was changed.", {"error": problem})
            return lambda: refused
        args = dict(arguments or {})
        return lambda: self._execute(s, args)

    def _execute(self, s: ToolSpec, args: dict[str, Any]) -> Outcome:
        session = self.session
        if s.kind == GET_STATE:
            return Outcome(True, "The current scene state.", self.state())
        if s.kind == SET_POSE:
            from pyagent.model import Pose

            try:
                with self._attributed():
                    session.set_pose(Pose.from_json(args))
            except (ValueError, TypeError, KeyError) as exc:
                return Outcome(False, f"Refused: bad pose: {exc}. Nothing was changed.", {"error": str(exc)})
            return Outcome(True, "The reviewer's pose is set.", {"pose": _clean(session.state()["pose"])})
        with self._attributed():
            if s.kind == SAY:
                r = session.say(args["text"].strip())
            elif s.kind == PROGRAM:
                r = session.do(args, source=SOURCE)
            else:
                assert s.kind == OP
                r = session.do({"steps": [{"op": s.name, **args}]}, source=SOURCE)
        data = _clean(r.to_json())
        data["revision"] = getattr(session, "revision", None)
        text = r.answer if r.ok else f"{r.answer} ({r.error})" if r.error and r.error != r.answer else r.answer
        return Outcome(bool(r.ok), text, data)

    def call(self, name: str, arguments: Any) -> Outcome:
        return self.run_sync(self.job(name, arguments))

    # ---- the resources ----------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"revision": getattr(self.session, "revision", 0), "state": _clean(self.session.state())}

    def summary(self) -> dict[str, Any]:
        b = self.session.building
        storeys = []
        for st in b.storeys:
            rooms = [{"id": e.id, "name": e.label(), "area_m2": _clean(round(float(e.quantities.get("area", 0.0)), 2))}
                     for e in b.spaces() if e.storey == st.id]
            storeys.append({"id": st.id, "name": st.name, "elevation_m": _clean(round(float(st.elevation), 3)),
                            "ground": st.id == b.ground_storey, "rooms": rooms})
        counts: dict[str, int] = {}
        for e in b.products():
            counts[e.ifc_class] = counts.get(e.ifc_class, 0) + 1
        return {"file": Path(str(b.path)).name, "schema": b.schema, "project": b.project_name,
                "true_north_deg": _clean(round(float(b.true_north_deg), 2)), "storeys": storeys,
                "elements": len(b.products()),
                "counts": dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))}

    def notes(self) -> dict[str, Any]:
        p = getattr(self.session, "persistence", None)
        topics = list(getattr(getattr(p, "topics", None), "topics", []) or [])
        return {"format": "BCF 2.1 topics (export with the 'save' tool: a .bcfzip beside the IFC revision)",
                "topics": [{"guid": t.guid, "index": t.index, "title": t.title, "description": t.description,
                            "author": t.author, "created": t.created, "status": t.status,
                            "elements": list(t.selected), "camera": _clean(t.camera.position)}
                           for t in topics]}
