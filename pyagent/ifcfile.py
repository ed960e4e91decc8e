"""Opening IFC files safely: every failure becomes one clear ``IfcLoadError``."""

from __future__ import annotations

import hashlib
from pathlib import Path

import ifcopenshell

from pyagent.ifcrepair import LEGACY_SCHEMAS, header_schema, read_as_ifc2x3

SUPPORTED_SCHEMAS = ("IFC2X3", "IFC4", "IFC4X3")
MAX_FILE_BYTES = 512 * 1024 * 1024
#: Bytes read from a file's start to find its header's schema name (headers are a few hundred bytes).
HEADER_BYTES = 16 * 1024


class IfcLoadError(Exception):
    """The file cannot be used as a building model; the message says why, for a person."""


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _unsupported(p: Path, schema: str) -> str:
    return (f"{p}: the IFC file cannot be read: schema {schema} is not supported (IFC2X3, IFC4 and IFC4X3 "
            "are; IFC2X and IFC2X2 are read as IFC2X3)")


def open_ifc(path: str | Path, warnings: list[str] | None = None, check: bool = True) -> ifcopenshell.file:
    """Open an IFC-SPF file, refusing anything that is not a complete, supported IFC model. A file in a
    schema older than IFC2X3 (``ifcrepair.LEGACY_SCHEMAS``) is read as IFC2X3, which is said in
    ``warnings``. Without ``check`` the references among its placements and geometry are not checked here:
    the caller must call ``unsound`` before any geometry is made from it (the loader has a forked child
    do it while it reads the elements)."""
    p = Path(path)
    if not p.is_file():
        raise IfcLoadError(f"{p}: no such file")
    size = p.stat().st_size
    if size == 0:
        raise IfcLoadError(f"{p}: the file is empty")
    if size > MAX_FILE_BYTES:
        raise IfcLoadError(f"{p}: the file is {size / 1e6:.0f} MB, more than the {MAX_FILE_BYTES >> 20} MB limit")
    with open(p, "rb") as f:
        head = f.read(HEADER_BYTES)
        f.seek(max(0, size - 256))
        tail = f.read()
    if not head.lstrip().startswith(b"ISO-10303-21"):
        raise IfcLoadError(f"{p}: not an IFC file (it does not start with ISO-10303-21)")
    if b"END-ISO-10303-21" not in tail:
        raise IfcLoadError(f"{p}: the file is truncated (no END-ISO-10303-21 at its end)")
    named = header_schema(head)
    try:
        if named is not None and named[0] in LEGACY_SCHEMAS:
            legacy = read_as_ifc2x3(p.read_bytes(), *named)
            model = legacy.model
            if warnings is not None:
                warnings.append(legacy.warning)
        else:
            model = ifcopenshell.open(str(p))
    except ifcopenshell.SchemaError as exc:
        schema = named[0] if named else str(exc).removeprefix("Unsupported schema: ")
        raise IfcLoadError(_unsupported(p, schema)) from exc
    except (ifcopenshell.Error, RuntimeError, OSError, ValueError, SyntaxError) as exc:
        raise IfcLoadError(f"{p}: the IFC file cannot be read: {exc}") from exc
    if not model.schema.upper().startswith(SUPPORTED_SCHEMAS):
        raise IfcLoadError(_unsupported(p, model.schema))
    if not model.by_type("IfcProject"):
        raise IfcLoadError(f"{p}: the file has no IfcProject, so it is not a building model")
    problem = unsound(model) if check else None
    if problem is not None:
        raise IfcLoadError(f"{p}: {problem}")
    return model


def unsound(model: ifcopenshell.file) -> str | None:
    """Why the geometry kernel must not be given ``model`` (a loop or a very deep chain of references
    among its placements and geometry would crash it), for a person; None when it may."""
    from pyagent.ifccheck import reference_problem

    problem = reference_problem(model)
    return None if problem is None else f"the file cannot be used: {problem}"
