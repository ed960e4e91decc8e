"""Model manifests: what a speech model folder must hold, where it comes from, how to check it.

A manifest is ``models/manifests/<name>.json``; the model's files live in ``models/<name>/``
(never committed). Each file has a role (``encoder``, ``tokens``, ...) that the recogniser
factory looks up, a size and sha256 where known (``null`` where nobody has checked a download
yet, with ``"verified": false`` on the manifest), and a URL: either the file itself or a release
archive (``.tar.bz2``) holding it under ``member``.

Fetching records the size and sha256 it actually got in ``models/<name>/.fetched.json``;
verification compares the folder with the manifest's hashes where known and with that record
otherwise, so a file that changes after download is caught either way.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyagent.paths import models_dir

# Families this package loads, with the file roles each needs. Manifests of other families (the
# language model's, for instance) are accepted with any roles: the CLI fetches and verifies them
# the same way and their own loaders interpret them.
FAMILIES = {
    # family: (roles that must be present, optional roles)
    "whisper": (("encoder", "decoder", "tokens"), ()),
    "moonshine": (("preprocessor", "encoder", "uncached_decoder", "cached_decoder", "tokens"), ()),
    "zipformer-transducer": (("encoder", "decoder", "joiner", "tokens"), ("bpe_vocab",)),
    "zipformer-transducer-online": (("encoder", "decoder", "joiner", "tokens"), ("bpe_vocab",)),
    "silero-vad": (("model",), ()),
}
RECOGNIZER_FAMILIES = ("whisper", "moonshine", "zipformer-transducer", "zipformer-transducer-online")
STREAMING_FAMILIES = ("zipformer-transducer-online",)
HOTWORD_FAMILIES = ("zipformer-transducer", "zipformer-transducer-online")
RECORD_NAME = ".fetched.json"
ARCHIVE_SUFFIXES = (".tar.bz2", ".tar.gz", ".tgz", ".tar.xz", ".tar")


class ManifestError(ValueError):
    """A manifest file that cannot be used; the message names the file and the problem."""


def fix_command(name: str) -> str:
    return f"python -m pyagent models fetch {name}"


@dataclass
class ModelFile:
    path: str  # relative to the model folder
    role: str
    url: str | None = None
    member: str | None = None  # path inside the archive at `url`
    size: int | None = None
    sha256: str | None = None
    optional: bool = False

    @property
    def from_archive(self) -> bool:
        return self.url is not None and self.url.lower().endswith(ARCHIVE_SUFFIXES)


@dataclass
class Manifest:
    name: str
    family: str
    files: list[ModelFile]
    source: str = ""
    licence: str = ""
    language: str = ""
    description: str = ""
    verified: bool = False
    archive_sha256: dict[str, str] = field(default_factory=dict)  # url -> sha256 when known
    options: dict[str, Any] = field(default_factory=dict)  # family-specific settings
    path: Path | None = None  # the manifest file itself

    @property
    def streaming(self) -> bool:
        return self.family in STREAMING_FAMILIES

    def file_for(self, role: str) -> ModelFile | None:
        for f in self.files:
            if f.role == role:
                return f
        return None

    def folder(self, root: Path | None = None) -> Path:
        return (root or models_dir()) / self.name

    @classmethod
    def from_json(cls, data: dict[str, Any], path: Path | None = None) -> Manifest:
        where = str(path) if path else "manifest"
        try:
            name, family = str(data["name"]), str(data["family"])
            raw_files = data["files"]
        except (KeyError, TypeError) as exc:
            raise ManifestError(f"{where}: missing field {exc}") from None
        if not family or not family.replace("-", "").replace("_", "").isalnum():
            raise ManifestError(f"{where}: bad family {family!r}")
        if not name or "/" in name or name.startswith("."):
            raise ManifestError(f"{where}: bad model name {name!r}")
        files: list[ModelFile] = []
        for raw in raw_files:
            try:
                f = ModelFile(path=str(raw["path"]), role=str(raw["role"]), url=raw.get("url"),
                              member=raw.get("member"), size=raw.get("size"), sha256=raw.get("sha256"),
                              optional=bool(raw.get("optional", False)))
            except (KeyError, TypeError) as exc:
                raise ManifestError(f"{where}: a file entry lacks {exc}") from None
            rel = Path(f.path)
            if rel.is_absolute() or ".." in rel.parts or f.path.startswith("."):
                raise ManifestError(f"{where}: file path {f.path!r} must stay inside the model folder")
            if f.sha256 is not None and (len(f.sha256) != 64 or any(c not in "0123456789abcdef" for c in f.sha256)):
                raise ManifestError(f"{where}: {f.path}: sha256 must be 64 lower-case hex digits or null")
            files.append(f)
        if not files:
            raise ManifestError(f"{where}: lists no files")
        roles = [f.role for f in files]
        if len(set(roles)) != len(roles):
            raise ManifestError(f"{where}: each file role may appear once")
        if family in FAMILIES:
            required, optional = FAMILIES[family]
            missing = [r for r in required if r not in roles]
            if missing:
                raise ManifestError(f"{where}: family {family} needs files with roles {', '.join(missing)}")
            unknown = set(roles) - set(required) - set(optional)
            if unknown:
                raise ManifestError(f"{where}: roles {', '.join(sorted(unknown))} mean nothing to family {family}")
        return cls(name=name, family=family, files=files, source=str(data.get("source", "")),
                   licence=str(data.get("licence", "")), language=str(data.get("language", "")),
                   description=str(data.get("description", "")), verified=bool(data.get("verified", False)),
                   archive_sha256=dict(data.get("archive_sha256") or {}),
                   options=dict(data.get("options") or {}), path=path)


def manifests_dir(root: Path | None = None) -> Path:
    return (root or models_dir()) / "manifests"


def load_manifest(name: str, root: Path | None = None) -> Manifest:
    path = manifests_dir(root) / f"{name}.json"
    if not path.is_file():
        known = ", ".join(m.name for m in list_manifests(root)) or "none"
        raise ManifestError(f"no manifest for model {name!r} in {manifests_dir(root)} (known: {known})")
    return _read(path)


def _read(path: Path) -> Manifest:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ManifestError(f"{path}: cannot read manifest: {exc}") from None
    if not isinstance(data, dict):
        raise ManifestError(f"{path}: a manifest is a JSON object")
    return Manifest.from_json(data, path)


def list_manifests(root: Path | None = None) -> list[Manifest]:
    folder = manifests_dir(root)
    if not folder.is_dir():
        return []
    return [_read(p) for p in sorted(folder.glob("*.json"))]


# ---------------------------------------------------------------------------------------------- hashing


def sha256_file(path: Path, block: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(block):
            h.update(chunk)
    return h.hexdigest()


def read_record(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / RECORD_NAME).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def write_record(folder: Path, record: dict[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / (RECORD_NAME + ".tmp")
    tmp.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(folder / RECORD_NAME)


def files_signature(manifest: Manifest, root: Path | None = None) -> list[list[Any]]:
    """Cheap identity of the installed files (path, size, mtime): a change invalidates the probe."""
    folder = manifest.folder(root)
    sig: list[list[Any]] = []
    for f in manifest.files:
        p = folder / f.path
        try:
            st = p.stat()
        except OSError:
            continue
        sig.append([f.path, st.st_size, st.st_mtime_ns])
    return sig


# ---------------------------------------------------------------------------------------------- checking


@dataclass
class FileCheck:
    path: str
    ok: bool
    state: str  # "ok", "missing", "size", "sha256", "unverified"
    detail: str = ""


@dataclass
class ModelCheck:
    manifest: Manifest
    files: list[FileCheck]

    @property
    def ok(self) -> bool:
        return all(f.ok for f in self.files)

    @property
    def installed(self) -> bool:
        return any(f.state != "missing" for f in self.files)

    def problem(self) -> str | None:
        """One line saying what is wrong and what fixes it; None when the model is usable."""
        bad = [f for f in self.files if not f.ok]
        if not bad:
            return None
        name = self.manifest.name
        if all(f.state == "missing" for f in bad) and not self.installed:
            return f"speech model {name!r} is not installed; run: {fix_command(name)}"
        first = bad[0]
        what = {"missing": "is missing", "size": "has the wrong size", "sha256": "has the wrong sha256"}
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        return (f"speech model {name!r} is damaged: {first.path} {what.get(first.state, first.state)}{more}; "
                f"run: {fix_command(name)} --force")


def check_model(manifest: Manifest, root: Path | None = None, *, hashes: bool = True) -> ModelCheck:
    """Compare the model folder with the manifest (and the fetch record where the manifest has no hash).

    With ``hashes=False`` only presence and sizes are checked (fast; used on every service start).
    """
    folder = manifest.folder(root)
    record = read_record(folder).get("files", {})
    out: list[FileCheck] = []
    for f in manifest.files:
        p = folder / f.path
        if not p.is_file():
            out.append(FileCheck(f.path, f.optional, "missing", "optional, not installed" if f.optional else ""))
            continue
        size = p.stat().st_size
        want_size = f.size if f.size is not None else (record.get(f.path) or {}).get("size")
        if want_size is not None and size != want_size:
            out.append(FileCheck(f.path, False, "size", f"{size} bytes, expected {want_size}"))
            continue
        if not hashes:
            out.append(FileCheck(f.path, True, "ok", "size checked"))
            continue
        got = sha256_file(p)
        if f.sha256 is not None:
            ok = got == f.sha256
            out.append(FileCheck(f.path, ok, "ok" if ok else "sha256", "" if ok else f"sha256 {got[:12]}…"))
            continue
        recorded = (record.get(f.path) or {}).get("sha256")
        if recorded is None:
            out.append(FileCheck(f.path, True, "unverified", "no reference sha256 (manifest null, no fetch record)"))
        elif recorded == got:
            out.append(FileCheck(f.path, True, "ok", "matches the sha256 recorded at fetch (manifest has none)"))
        else:
            out.append(FileCheck(f.path, False, "sha256", "differs from the sha256 recorded at fetch"))
    return ModelCheck(manifest, out)

