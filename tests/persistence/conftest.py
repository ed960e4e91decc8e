"""Fixtures for the persistence tests: writable copies of the shipped files and sessions over them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from persist_helpers import DUPLEX, FZK, copy_ifc  # noqa: E402


@pytest.fixture
def fzk_copy(tmp_path: Path) -> Path:
    return copy_ifc(FZK, tmp_path / "model")


@pytest.fixture
def duplex_copy(tmp_path: Path) -> Path:
    return copy_ifc(DUPLEX, tmp_path / "model")
