"""Fixtures for the bad-input tests: the persistence helpers (processes, request mixes) and a tiny IFC."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "persistence"))
