"""The link server that also runs MCP jobs: one thread owns the session, engines and MCP share it.

``JobLinkServer`` is a ``LinkServer`` with a job queue. Another thread (the MCP HTTP server) submits a
job; an inproc ZeroMQ socket in the link's poller wakes the loop at once, the job runs on the link's
thread between engine messages, and ``publish_changes`` then sends its ``delta`` to every engine in
the same loop turn: a change made over MCP reaches the headset at frame rate, journaled like any other.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import logging
import queue
from collections.abc import Callable
from typing import Any, TypeVar

import zmq

from pyagent.link.server import LinkServer

log = logging.getLogger("pyagent.mcp")

T = TypeVar("T")
MAX_QUEUED_JOBS = 256
_ids = itertools.count(1)


class JobLinkServer(LinkServer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._jobs: queue.Queue[tuple[Callable[[], Any], concurrent.futures.Future[Any]]] = \
            queue.Queue(MAX_QUEUED_JOBS)
        address = f"inproc://pyagent-mcp-jobs-{id(self)}-{next(_ids)}"
        self._wake_rx: zmq.Socket[Any] = self._ctx.socket(zmq.PULL)
        self._wake_rx.setsockopt(zmq.LINGER, 0)
        self._wake_rx.bind(address)
        self._wake_address = address
        self._poller.register(self._wake_rx, zmq.POLLIN)
        self.jobs_run = 0
        self._closed = False

    def submit(self, job: Callable[[], T]) -> concurrent.futures.Future[T]:
        """Queue ``job`` for the link's thread (any thread may call this)."""
        fut: concurrent.futures.Future[T] = concurrent.futures.Future()
        if self._closed:
            fut.set_exception(RuntimeError("the agent is shutting down"))
            return fut
        try:
            self._jobs.put_nowait((job, fut))
        except queue.Full:
            fut.set_exception(RuntimeError("the agent is busy: too many requests are waiting"))
            return fut
        # A PUSH socket per call: ZeroMQ sockets must not be shared between threads.
        try:
            tx = self._ctx.socket(zmq.PUSH)
        except zmq.ZMQError:
            return fut  # closing: close() fails what is still queued
        try:
            tx.setsockopt(zmq.LINGER, 1000)
            tx.connect(self._wake_address)
            tx.send(b"", flags=zmq.NOBLOCK)
        except zmq.ZMQError:
            pass  # the loop still finds the job on its next turn (at most 100 ms later)
        finally:
            tx.close()
        return fut

    def poll_once(self, timeout_ms: int = 0) -> int:
        handled = super().poll_once(timeout_ms)
        while True:
            try:
                self._wake_rx.recv(flags=zmq.NOBLOCK)
            except zmq.Again:
                break
        return handled + self.run_jobs()

    def run_jobs(self) -> int:
        """Run the queued jobs on this thread, then broadcast what they changed."""
        ran = 0
        while True:
            try:
                job, fut = self._jobs.get_nowait()
            except queue.Empty:
                break
            if not fut.set_running_or_notify_cancel():
                continue  # the caller gave up waiting before it started
            ran += 1
            self.jobs_run += 1
            try:
                result = job()
            except Exception as exc:  # noqa: BLE001 - a failing job must not stop the link
                log.exception("an MCP job failed")
                self.publish_changes()
                fut.set_exception(exc)
                continue
            self.publish_changes()  # the engines have the delta before the MCP client has the answer
            fut.set_result(result)
        return ran

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._poller.unregister(self._wake_rx)
        self._wake_rx.close(linger=0)
        while True:
            try:
                _job, fut = self._jobs.get_nowait()
            except queue.Empty:
                break
            if fut.set_running_or_notify_cancel():
                fut.set_exception(RuntimeError("the agent is shutting down"))
        super().close()
