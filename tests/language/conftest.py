"""Language tests on the shared public sample buildings (``real/<file>``, ``../shared/ifc/real``) are skipped
where that folder does not lie beside the checkout (a clone made anywhere else), not failed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pyagent.language import evaluate as ev


@pytest.fixture(autouse=True)
def _real_buildings_or_skip(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if ev.real_dir() is None:
        found = ev.ifc_path

        def ifc_path(name: str, ifc_dir: Path = ev.IFC_DIR) -> Path:
            if name.startswith(ev.REAL_PREFIX):
                pytest.skip(f"{name}: the shared real buildings are not beside this checkout")
            return found(name, ifc_dir)

        monkeypatch.setattr(ev, "ifc_path", ifc_path)
    yield


@pytest.fixture(scope="module")
def sessions() -> ev.Sessions:
    """Sessions on the test buildings without the language model, shared by a module's tests (a module may
    make its own)."""
    return ev.Sessions(use_llm=False)
