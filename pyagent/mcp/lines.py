"""Bounded line reading for the stdio transports (the SDK reads lines of any length)."""

from __future__ import annotations

import logging
from typing import BinaryIO

log = logging.getLogger("pyagent.mcp")

MAX_STDIO_LINE = 256 << 10


class BoundedLines:
    """A binary stream read as UTF-8 lines of at most ``limit`` bytes; a longer line is skipped whole
    (read and dropped in pieces, never held in memory) and replaced by a line that is not JSON-RPC, which
    the SDK reports as a parse error without stopping."""

    def __init__(self, stream: BinaryIO, limit: int = MAX_STDIO_LINE) -> None:
        self.stream = stream
        self.limit = limit
        self.skipped = 0

    def readline(self) -> str:
        line = self.stream.readline(self.limit + 1)
        if len(line) <= self.limit or line.endswith(b"\n"):
            return line.decode("utf-8", errors="replace")
        while line and not line.endswith(b"\n"):
            line = self.stream.readline(self.limit)
        self.skipped += 1
        log.warning("skipped an MCP message over %d bytes", self.limit)
        return '{"error": "message too large"}\n'
