"""Fixtures for the speech tests: synthesized speech (espeak-ng + sox) and tiny installed models."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from speech_fixtures import ESPEAK, SOX, Speech, build_tiny_models, synthesize


@pytest.fixture(scope="session")
def speak(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Speech]:
    """speak(text, rate=22050, pad=0.3) -> Speech: espeak-ng's voice, resampled by sox if asked,
    with `pad` seconds of digital silence before and after."""
    if ESPEAK is None or SOX is None:
        pytest.skip("espeak-ng and sox are needed to synthesize test speech (apt-get install -y espeak-ng sox)")
    folder = tmp_path_factory.mktemp("speech")

    def make(text: str, rate: int = 22050, pad: float = 0.3) -> Speech:
        return synthesize(text, folder, rate, pad)

    return make


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A models folder holding the tiny test models (read-only for tests: copy before changing)."""
    pytest.importorskip("onnx", reason="the onnx package builds the tiny test models (pip install onnx)")
    return build_tiny_models(tmp_path_factory.mktemp("models"))


@pytest.fixture
def models_copy(tiny_models: Path, tmp_path: Path) -> Path:
    """A private copy of the tiny models folder that a test may damage."""
    dst = tmp_path / "models"
    shutil.copytree(tiny_models, dst)
    return dst
