"""Fixtures for the local-LLM tests: a tiny random-weight model built once per session (and reused
across runs from the pytest cache while its inputs are unchanged), and loaded sessions."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from pyagent.paths import PROJECT_ROOT

BUILD_MODULES = ("torch", "transformers", "tokenizers", "onnx", "onnx_ir", "onnxruntime_genai")
IFC_DIR = PROJECT_ROOT / "ifc"


@pytest.fixture(scope="session")
def tiny_model_dir(request: pytest.FixtureRequest) -> Path:
    """``models/<name>``-style folder of a tiny Qwen2 with random weights, int4, onnxruntime-genai format."""
    missing = [m for m in BUILD_MODULES if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"building the tiny model needs {', '.join(missing)} (pip install -e '.[llmbuild]')")
    from pyagent.language.llm_build import build_tiny_model
    from pyagent.paths import cache_dir

    # The project cache (not pytest's, which CI may disable): rebuilt only when its inputs change.
    folder = cache_dir() / "test-models" / "llm-tiny"
    build_tiny_model(folder)
    return folder


@pytest.fixture(scope="session")
def tiny_front(tiny_model_dir: Path):
    """One loaded front end on the tiny model, shared by the tests (loading is the slow part)."""
    from pyagent.language.llm import LLMFrontEnd

    front = LLMFrontEnd(tiny_model_dir, max_new_tokens=320, threads=1)
    front.load()
    return front


@pytest.fixture(scope="session")
def fzk_session():
    from pyagent.session import Session

    return Session.open(IFC_DIR / "AC20-FZK-Haus.ifc")
