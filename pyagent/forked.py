"""Work done by a forked child process while the parent goes on with its own.

The tessellation of a large building is split between two processes (``pyagent.tessellate``): the parsed
IFC model is tens of megabytes of C++ objects that cannot be sent to another process, but a child made
with ``fork`` has it already (its pages are shared until written). The geometry kernel holds the
interpreter's lock while it works, so threads would not run it in parallel.

The child writes what it makes, pickled, to an unnamed temporary file (it never waits for the parent to
read) and leaves with ``os._exit``: no exit handlers of the parent (a ZeroMQ context, a journal) run in
it. Whatever goes wrong in the child (an exception, a crash of the kernel) only means that its part was
not made: ``Forked.results`` raises ``ForkFailed`` and the parent makes that part itself.

The child may also ``tell`` the parent one thing while it goes on working (what both need before they
split the work, such as which shapes repeat): it is written to a file of its own and a byte on a pipe says
it is there, so the child never waits for the parent; ``Forked.told`` waits for it.

A child can also get stuck: only the thread that forked lives on in it, and a lock another thread of the
parent held at that moment (a module being imported, a library's mutex) is held for ever there. Waiting for
it, the parent watches the child's processor time (``/proc/<pid>/stat``): a child that has used none for
``STALL_S`` seconds is killed and counts as failed, so its part is made here as after a crash.
"""

from __future__ import annotations

import fcntl
import mmap
import os
import pickle
import select
import signal
import struct
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import IO, Any, Final

#: Set to 1 to make everything in one process (``can_fork`` is then False).
PROCESSES_ENV: Final = "PYAGENT_LOAD_PROCESSES"

_END: Final = "pyagent.forked: end"

#: A child that has had no processor time for this many seconds while this process waits for it is stuck
#: (see the module's doc) and is killed. Work in the child never waits on anything but its own disk writes.
STALL_S: float = 5.0

#: How often the child's processor time is read while waiting for it, in seconds.
_WATCH_S: Final = 0.25

Send = Callable[[Any], None]

#: The most memory this process and a child of it held together, in bytes: this process's resident memory
#: when the child finished plus the most the child had to itself (its private pages, read from
#: ``/proc/self/smaps_rollup`` each time it sends something; the pages it still shares with this process are
#: in the first). The parent only grows while the child works, so that bounds their peak together. The
#: load benchmark reports the larger of it and the loader's own peak.
peak_together_bytes = 0


def _proc_kb(path: str, keys: tuple[str, ...]) -> int:
    """The sum of the ``keys`` lines (in kB) of a /proc file of this process, in bytes; 0 where unreadable."""
    try:
        with open(path, encoding="ascii") as fh:
            return sum(int(line.split()[1]) * 1024 for line in fh if line.startswith(keys))
    except (OSError, ValueError, IndexError):
        return 0


def _private_bytes() -> int:
    return _proc_kb("/proc/self/smaps_rollup", ("Private_Clean:", "Private_Dirty:"))


def _cpu_ticks(pid: int) -> int | None:
    """The processor time a process has used (user and system, in clock ticks); None where it cannot be read
    (no ``/proc``, or the process is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    fields = data[data.rfind(b")") + 2:].split()  # after the command's name, which may hold spaces
    try:
        return int(fields[11]) + int(fields[12])  # utime and stime, the stat's 14th and 15th fields
    except (IndexError, ValueError):
        return None


def _pidfd(pid: int) -> int:
    """A descriptor that becomes readable when process ``pid`` ends; -1 where the system has none."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return -1


class ForkFailed(RuntimeError):
    """The child did not finish its work (an exception, a signal, or no fork on this system)."""


def can_fork() -> bool:
    """Whether work can be split with a forked child here: ``fork`` exists, the machine has two cores or
    more, and ``PROCESSES_ENV`` does not say 1."""
    return hasattr(os, "fork") and (os.cpu_count() or 1) >= 2 and os.environ.get(PROCESSES_ENV, "").strip() != "1"


class Sender:
    """What a forked child's work is handed: call it to send an object of ``Forked.results``; ``tell`` sends
    the one object of ``Forked.told``, which the parent may read before the child ends."""

    def __init__(self, results: IO[bytes], told: IO[bytes], signal_fd: int) -> None:
        self._results, self._told, self._signal = results, told, signal_fd
        self.most = 0  # the child's private memory, sampled at each send

    def __call__(self, obj: Any) -> None:
        self.most = max(self.most, _private_bytes())
        pickle.dump(obj, self._results, protocol=pickle.HIGHEST_PROTOCOL)

    def tell(self, obj: Any) -> None:
        pickle.dump(obj, self._told, protocol=pickle.HIGHEST_PROTOCOL)
        self._told.flush()
        os.write(self._signal, b"!")


class Forked:
    """``work(send)`` run in a forked child; each ``send(obj)`` there is an object of ``results()`` here,
    in order, and ``send.tell(obj)`` is ``told()`` here. Start it, do the parent's own work, then read the
    results (which waits for the child). Making it raises ``ForkFailed`` when no child can be made."""

    def __init__(self, work: Callable[[Sender], None]) -> None:
        self._file: IO[bytes] = tempfile.TemporaryFile()
        self._told_file: IO[bytes] = tempfile.TemporaryFile()
        self._signal, signal_w = os.pipe()
        try:
            pid = os.fork()
        except OSError as exc:  # no memory or no process left for a child
            self._close()
            os.close(signal_w)
            raise ForkFailed(f"no child process: {exc}") from exc
        if pid == 0:  # the child: never returns
            code = 1
            try:
                os.close(self._signal)
                send = Sender(self._file, self._told_file, signal_w)
                work(send)
                send((_END, max(send.most, _private_bytes())))
                self._file.flush()
                code = 0
            except BaseException:  # whatever it was, the parent makes this part itself
                code = 1
            finally:
                os._exit(code)
        os.close(signal_w)
        self._pid = pid
        self._status: int | None = None  # the child's wait status once it has been reaped
        self._ended = _pidfd(pid)

    def _close(self) -> None:
        self._file.close()
        self._told_file.close()
        for fd in (self._signal, self._ended):
            if fd >= 0:
                os.close(fd)
        self._signal = self._ended = -1

    def _reaped(self, block: bool) -> bool:
        """Whether the child has ended (its status kept); waits for it with ``block``."""
        if self._status is None:
            try:
                pid, status = os.waitpid(self._pid, 0 if block else os.WNOHANG)
            except ChildProcessError:  # reaped by someone else: nothing more to learn of it
                pid, status = self._pid, -1
            if pid == 0:
                return False
            self._status = status
        return True

    def _kill(self) -> None:
        """End the child now (whatever it was doing) and reap it."""
        if self._status is None:
            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reaped(True)

    def _wait(self, readable: int) -> None:
        """Wait until ``readable`` can be read (-1: until the child has ended); a child stuck meanwhile
        (``STALL_S``) is killed and ``ForkFailed`` raised."""
        fds = [fd for fd in (readable, self._ended if readable < 0 else -1) if fd >= 0]
        # without a descriptor for the child's end, ask for it often: this wait is on the load's path
        step = _WATCH_S if fds else 0.005
        ticks, since = _cpu_ticks(self._pid), time.monotonic()
        while True:
            if fds:
                if select.select(fds, [], [], step)[0]:
                    return
            elif self._reaped(False):
                return
            else:
                time.sleep(step)
            now_ticks, now = _cpu_ticks(self._pid), time.monotonic()
            if now_ticks is None or now_ticks != ticks:
                ticks, since = now_ticks, now
            elif now - since >= STALL_S:
                self._kill()
                raise ForkFailed(f"the child process was stuck (no processor time in {STALL_S:g} s) and was killed")

    def told(self) -> Any:
        """What the child told with ``send.tell``, waiting for it; ``ForkFailed`` when the child ended (or
        failed) without telling."""
        if self._signal < 0:
            raise ForkFailed("the child's word was read already")
        self._wait(self._signal)
        got = os.read(self._signal, 1)
        os.close(self._signal)
        self._signal = -1
        if not got:
            raise ForkFailed("the child process ended before it told its word")
        self._told_file.seek(0)
        try:
            return pickle.load(self._told_file)
        except (EOFError, pickle.UnpicklingError) as exc:
            raise ForkFailed("the child's word is cut short") from exc

    def results(self) -> Iterator[Any]:
        """What the child sent, once it has finished; ``ForkFailed`` when it did not finish."""
        global peak_together_bytes
        try:
            self._wait(-1)
            self._reaped(True)
            status = -1 if self._status is None else self._status
            if status < 0 or not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
                raise ForkFailed(f"the child process ended with status {status}")
            self._file.seek(0)
            while True:
                try:
                    obj = pickle.load(self._file)
                except (EOFError, pickle.UnpicklingError) as exc:
                    raise ForkFailed("the child process's results end early") from exc
                if isinstance(obj, tuple) and len(obj) == 2 and obj[0] == _END:
                    together = _proc_kb("/proc/self/status", ("VmRSS:",)) + int(obj[1])
                    peak_together_bytes = max(peak_together_bytes, together)
                    return
                yield obj
        finally:
            self._close()

    def abandon(self) -> None:
        """End the child without reading what it made (the parent failed on its own part, or cannot use
        the child's): it is killed where it has not ended yet."""
        self._kill()
        self._close()


class Shares:
    """A list of items shared out between this process and a forked child as each gets free: the child takes
    from the front, this process from the back, never the same item. Made before the fork; two cursors (and
    the child's count of items done) in memory both processes map, changed under a ``lockf`` lock on a file
    both hold, which the system lets go when a process ends however it ends."""

    _CURSORS: Final = struct.Struct("qq")  # front, back
    _DONE: Final = struct.Struct("q")  # how many the child has done, after the cursors

    def __init__(self) -> None:
        # anonymous and shared: what either process writes the other sees
        self._mem = mmap.mmap(-1, self._CURSORS.size + self._DONE.size)
        self._lock_file: IO[bytes] = tempfile.TemporaryFile()
        self._CURSORS.pack_into(self._mem, 0, 0, -1)  # back -1: the items are not known yet
        self.done(0)

    def _locked(self, from_front: bool, count: Callable[[int, int], int]) -> range:
        """Take ``count(left, child's)`` of the items left (at least one where any are), from the front or the
        back."""
        fcntl.lockf(self._lock_file, fcntl.LOCK_EX)
        try:
            front, back = self._CURSORS.unpack_from(self._mem, 0)
            (done,) = self._DONE.unpack_from(self._mem, self._CURSORS.size)
            left = back - front
            if back < 0 or left <= 0:
                return range(0)
            n = min(left, max(1, count(left, front - done)))
            got = range(front, front + n) if from_front else range(back - n, back)
            self._CURSORS.pack_into(self._mem, 0, *((front + n, back) if from_front else (front, back - n)))
            return got
        finally:
            fcntl.lockf(self._lock_file, fcntl.LOCK_UN)

    def begin(self, n: int) -> None:
        """Say how many items there are (the child, once it knows them; nothing is taken before)."""
        self._CURSORS.pack_into(self._mem, 0, 0, n)
        self.done(0)

    def front(self, share: Callable[[int, int], int]) -> range:
        """The child takes ``share(left, child's)`` of the items left (``back``), from the front."""
        return self._locked(True, share)

    def back(self, share: Callable[[int, int], int]) -> range:
        """This process takes ``share(left, child's)`` of the items left, from the back: ``left`` is how many
        nobody has taken, ``child's`` how many the child has taken and not done yet."""
        return self._locked(False, share)

    def done(self, count: int) -> None:
        """The child says how many of the items it took it has done (one writer: no lock)."""
        self._DONE.pack_into(self._mem, self._CURSORS.size, count)

    def taken_by_child(self) -> range:
        """The items the child took (all from the front), for this process to make when the child failed."""
        front, _back = self._CURSORS.unpack_from(self._mem, 0)
        return range(0, front)

    def close(self) -> None:
        self._mem.close()
        self._lock_file.close()
