"""Where the project keeps its files: the repository root, the cache, models and prop assets."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE_DIR.parent


def cache_dir() -> Path:
    """``$PYAGENT_CACHE``, else ``.cache`` in the project checkout."""
    env = os.environ.get("PYAGENT_CACHE")
    return Path(env) if env else PROJECT_ROOT / ".cache"


def models_dir() -> Path:
    env = os.environ.get("PYAGENT_MODELS")
    return Path(env) if env else PROJECT_ROOT / "models"


def props_dir() -> Path:
    return PROJECT_ROOT / "addons" / "bimvoice" / "props"


def schema_path() -> Path:
    return PACKAGE_DIR / "actions" / "action.schema.json"
