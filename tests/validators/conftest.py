"""Fixtures for the standard-validator tests: the persistence helpers and the shared reference files."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "persistence"))
