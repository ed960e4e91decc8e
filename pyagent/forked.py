"""Work done by a forked child process while the parent goes on with its own.

The tessellation of a large building is split between two processes (``pyagent.tessellate``): the parsed
IFC model is tens of megabytes of C++ objects that cannot be sent to another process, but a child made
with ``fork`` has it already (its pages are shared until written). The geometry kernel holds the
interpreter's lock while it works, so threads would not run it in parallel.

The child writes what it makes, pickled, to an unnamed temporary file (it never waits for the parent to
read) and leaves with ``os._exit``: no exit handlers of the parent (a ZeroMQ context, a journal) run in
it. Whatever goes wrong in the child (an exception, a crash of the kernel) only means that its part was
not made: ``Forked.results`` raises ``ForkFailed`` and the parent makes that part itself.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from collections.abc import Callable, Iterator
from typing import IO, Any, Final

#: Set to 1 to make everything in one process (``can_fork`` is then False).
PROCESSES_ENV: Final = "PYAGENT_LOAD_PROCESSES"

_END: Final = "pyagent.forked: end"

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


class ForkFailed(RuntimeError):
    """The child did not finish its work (an exception, a signal, or no fork on this system)."""


def can_fork() -> bool:
    """Whether work can be split with a forked child here: ``fork`` exists, the machine has two cores or
    more, and ``PROCESSES_ENV`` does not say 1."""
    return hasattr(os, "fork") and (os.cpu_count() or 1) >= 2 and os.environ.get(PROCESSES_ENV, "").strip() != "1"


class Forked:
    """``work(send)`` run in a forked child; each ``send(obj)`` there is an object of ``results()`` here,
    in order. Start it, do the parent's own work, then read the results (which waits for the child).
    Making it raises ``ForkFailed`` when no child can be made."""

    def __init__(self, work: Callable[[Send], None]) -> None:
        self._file: IO[bytes] = tempfile.TemporaryFile()
        try:
            pid = os.fork()
        except OSError as exc:  # no memory or no process left for a child
            self._file.close()
            raise ForkFailed(f"no child process: {exc}") from exc
        if pid == 0:  # the child: never returns
            code = 1
            most = 0  # the child's private memory, sampled at each send
            try:
                def send(obj: Any) -> None:
                    nonlocal most
                    most = max(most, _private_bytes())
                    pickle.dump(obj, self._file, protocol=pickle.HIGHEST_PROTOCOL)

                work(send)
                send((_END, max(most, _private_bytes())))
                self._file.flush()
                code = 0
            except BaseException:  # whatever it was, the parent makes this part itself
                code = 1
            finally:
                os._exit(code)
        self._pid = pid

    def results(self) -> Iterator[Any]:
        """What the child sent, once it has finished; ``ForkFailed`` when it did not finish."""
        global peak_together_bytes
        try:
            _pid, status = os.waitpid(self._pid, 0)
            if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
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
            self._file.close()

    def abandon(self) -> None:
        """Wait for the child without reading what it made (the parent failed on its own part)."""
        try:
            os.waitpid(self._pid, 0)
        except ChildProcessError:
            pass
        self._file.close()
