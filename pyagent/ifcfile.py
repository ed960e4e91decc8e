"""Opening IFC files safely: every failure becomes one clear ``IfcLoadError``."""

from __future__ import annotations

import hashlib
from pathlib import Path

import ifcopenshell

SUPPORTED_SCHEMAS = ("IFC2X3", "IFC4", "IFC4X3")
MAX_FILE_BYTES = 512 * 1024 * 1024


class IfcLoadError(Exception):
    """The file cannot be used as a building model; the message says why, for a person."""


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def open_ifc(path: str | Path) -> ifcopenshell.file:
    """Open an IFC-SPF file, refusing anything that is not a complete, supported IFC model."""
    p = Path(path)
    if not p.is_file():
        raise IfcLoadError(f"{p}: no such file")
    size = p.stat().st_size
    if size == 0:
        raise IfcLoadError(f"{p}: the file is empty")
    if size > MAX_FILE_BYTES:
        raise IfcLoadError(f"{p}: the file is {size / 1e6:.0f} MB, more than the {MAX_FILE_BYTES >> 20} MB limit")
    with open(p, "rb") as f:
        head = f.read(64)
        f.seek(max(0, size - 256))
        tail = f.read()
    if not head.lstrip().startswith(b"ISO-10303-21"):
        raise IfcLoadError(f"{p}: not an IFC file (it does not start with ISO-10303-21)")
    if b"END-ISO-10303-21" not in tail:
        raise IfcLoadError(f"{p}: the file is truncated (no END-ISO-10303-21 at its end)")
    try:
        model = ifcopenshell.open(str(p))
    except (ifcopenshell.Error, RuntimeError, OSError, ValueError, SyntaxError) as exc:
        raise IfcLoadError(f"{p}: the IFC file cannot be read: {exc}") from exc
    schema = model.schema.upper()
    if not schema.startswith(SUPPORTED_SCHEMAS):
        raise IfcLoadError(f"{p}: schema {model.schema} is not supported (use IFC2X3 or IFC4)")
    if not model.by_type("IfcProject"):
        raise IfcLoadError(f"{p}: the file has no IfcProject, so it is not a building model")
    from pyagent.ifccheck import reference_problem  # a loop or a very deep chain would crash the kernel

    problem = reference_problem(model)
    if problem is not None:
        raise IfcLoadError(f"{p}: the file cannot be used: {problem}")
    return model
