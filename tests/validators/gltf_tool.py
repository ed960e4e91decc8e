"""The Khronos glTF validator (npm ``gltf-validator``): installed by the project into ``.cache/node`` and
run with node. ``python tests/validators/gltf_tool.py --install`` installs it (``make setup`` does)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "gltf-validator"
VERSION = "2.0.0-dev.3.10"
PREFIX = ROOT / ".cache" / "node"
MODULE = PREFIX / "node_modules" / PACKAGE
RUNNER = Path(__file__).with_name("gltf_validate.js")


def node() -> str | None:
    return shutil.which("node")


def installed() -> bool:
    try:
        return json.loads((MODULE / "package.json").read_text())["version"] == VERSION
    except (OSError, ValueError, KeyError):
        return False


def install() -> None:
    """``npm install`` the pinned validator into ``.cache/node`` (the project's own folder)."""
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is not installed: cannot install the glTF validator")
    PREFIX.mkdir(parents=True, exist_ok=True)
    subprocess.run([npm, "install", "--no-audit", "--no-fund", "--no-save", "--prefix", str(PREFIX),
                    f"{PACKAGE}@{VERSION}"], check=True, capture_output=True, timeout=600)
    if not installed():
        raise RuntimeError(f"{PACKAGE}@{VERSION} did not install into {PREFIX}")


def validate(files: list[Path]) -> list[dict[str, Any]]:
    """The validator's verdict on each file: errors, warnings and the first error messages."""
    exe = node()
    if exe is None:
        raise RuntimeError("node is not installed")
    p = subprocess.run([exe, str(RUNNER), str(MODULE), *map(str, files)], capture_output=True, text=True,
                       timeout=600, check=False)
    if p.returncode != 0:
        raise RuntimeError(f"the glTF validator failed: {p.stderr.strip()[-2000:]}")
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


if __name__ == "__main__":
    if "--install" in sys.argv[1:]:
        if node() is None:
            print("note: node is not installed: the glTF validator tests will be skipped")
        elif not installed():
            install()
    for report in validate([Path(a) for a in sys.argv[1:] if not a.startswith("--")]):
        print(json.dumps(report))
