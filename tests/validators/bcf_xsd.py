"""Validate every XML member of a BCF 2.1 archive against the official XSDs (``../shared/schemas/bcf-2.1``
beside the repository, as on the machines and in CI)."""

from __future__ import annotations

import zipfile
from functools import lru_cache
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parents[2]


def shared_dir() -> Path | None:
    """``shared/`` beside the clone (CI), or beside a parent folder (a worktree under the clone's folder)."""
    for folder in ROOT.parents:
        if (folder / "shared").is_dir():
            return folder / "shared"
    return None


SHARED = shared_dir()
XSD_DIR = (SHARED or ROOT.parent / "shared") / "schemas" / "bcf-2.1"
SCHEMA_FOR = {"bcf.version": "version.xsd", "project.bcfp": "project.xsd", ".bcf": "markup.xsd",
              ".bcfv": "visinfo.xsd"}


@lru_cache(maxsize=8)
def _schema(name: str) -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(XSD_DIR / name)))


def xsd_errors(archive: Path) -> list[str]:
    """One line per schema violation in the archive (empty when every member is valid)."""
    errors: list[str] = []
    with zipfile.ZipFile(archive) as z:
        for name in z.namelist():
            key = next((k for k in SCHEMA_FOR if name == k or (k.startswith(".") and name.endswith(k))), None)
            if key is None:
                continue
            schema = _schema(SCHEMA_FOR[key])
            try:
                doc = etree.fromstring(z.read(name))
            except etree.XMLSyntaxError as exc:
                errors.append(f"{name}: not well-formed: {exc}")
                continue
            if not schema.validate(doc):
                errors.extend(f"{name}:{e.line}: {e.message}" for e in schema.error_log)
    return errors
