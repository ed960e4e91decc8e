"""Keep standard output for the protocol, at the file-descriptor level.

Native libraries (ifcopenshell's geometry kernel, for one) write diagnostics straight to file descriptor 1,
around Python's ``sys.stdout``. Where stdout carries a protocol (one JSON line per input in ``script``,
the summary of ``load``, the ``listening on`` line of ``serve``) those lines would corrupt it.
``protect_stdout`` moves the real stdout to a private descriptor that only Python writes to, and points
descriptor 1 at stderr, so that whatever native code prints goes to the log instead.
"""

from __future__ import annotations

import io
import os
import sys

_protected: io.TextIOWrapper | None = None


def protect_stdout() -> io.TextIOWrapper:
    """From now on ``sys.stdout`` writes to the original stdout and descriptor 1 is stderr. Idempotent;
    returns the protected text stream (its ``.buffer`` takes bytes)."""
    global _protected
    if _protected is not None:
        return _protected
    sys.stdout.flush()
    private = os.dup(1)
    os.set_inheritable(private, False)  # child processes get descriptor 1, which is stderr now
    os.dup2(2, 1)
    stream = io.TextIOWrapper(io.BufferedWriter(io.FileIO(private, "wb", closefd=True)), encoding="utf-8",
                              errors="backslashreplace", line_buffering=True, write_through=False)
    sys.stdout = stream
    _protected = stream
    return stream
