"""Fetching model files: download (or take a local copy), unpack, verify, record.

Release archives (``.tar.bz2``) are downloaded once and only the members the manifest names are
copied out (never ``extractall``). Every file is written next to its final place and renamed in
only after its size and sha256 match the manifest where the manifest knows them. What was
actually received (size, sha256) is recorded in ``models/<name>/.fetched.json``.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import tarfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from pyagent.paths import models_dir
from pyagent.speech.manifest import (
    ARCHIVE_SUFFIXES,
    Manifest,
    ModelFile,
    check_model,
    fix_command,
    read_record,
    write_record,
)

BLOCK = 1 << 20
USER_AGENT = "pyagent-models/1"


class FetchError(RuntimeError):
    """Fetching failed; the message is one line that says why and what to do."""


@dataclass
class FetchedFile:
    path: str
    size: int
    sha256: str
    reference: str  # "manifest" when checked against the manifest's sha256, else "recorded"


@dataclass
class FetchReport:
    name: str
    files: list[FetchedFile] = field(default_factory=list)
    skipped_optional: list[str] = field(default_factory=list)
    already_installed: bool = False


Progress = Callable[[str], None]


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _copy_hashing(src: IO[bytes], dst: Path, total: int | None, label: str,
                  progress: Progress | None) -> tuple[int, str]:
    h = hashlib.sha256()
    size = 0
    last = time.monotonic()
    with dst.open("wb") as out:
        while chunk := src.read(BLOCK):
            out.write(chunk)
            h.update(chunk)
            size += len(chunk)
            if progress and time.monotonic() - last > 2.0:
                last = time.monotonic()
                pct = f" ({100 * size // total}%)" if total else ""
                progress(f"  {label}: {size >> 20} MiB{pct}")
    return size, h.hexdigest()


def _download(url: str, dst: Path, expected_sha: str | None, name: str, progress: Progress | None) -> None:
    tmp = dst.with_name(dst.name + ".part")
    try:
        req = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
        with urllib.request.urlopen(req, timeout=60) as resp:  # noqa: S310 (URLs come from our manifests)
            total = int(resp.headers.get("Content-Length") or 0) or None
            if progress:
                progress(f"downloading {url}" + (f" ({total >> 20} MiB)" if total else ""))
            size, got = _copy_hashing(resp, tmp, total, dst.name, progress)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        tmp.unlink(missing_ok=True)
        reason = getattr(exc, "reason", None) or exc
        raise FetchError(f"could not download {url}: {reason}; download it by hand and run: "
                         f"{fix_command(name)} --from PATH") from None
    if expected_sha and got != expected_sha:
        tmp.unlink(missing_ok=True)
        raise FetchError(f"{url}: sha256 {got} does not match the manifest's {expected_sha}; nothing installed")
    tmp.replace(dst)


def _install(src: IO[bytes], f: ModelFile, folder: Path, name: str, progress: Progress | None,
             total: int | None = None) -> FetchedFile:
    final = folder / f.path
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.with_name(final.name + ".part")
    size, got = _copy_hashing(src, tmp, total, f.path, progress)
    problem = None
    if f.size is not None and size != f.size:
        problem = f"{f.path}: got {size} bytes, the manifest says {f.size}"
    elif f.sha256 is not None and got != f.sha256:
        problem = f"{f.path}: sha256 {got} does not match the manifest's {f.sha256}"
    if problem:
        tmp.unlink(missing_ok=True)
        raise FetchError(f"{problem}; the download is not the file the manifest describes ({name})")
    tmp.replace(final)
    return FetchedFile(f.path, size, got, "manifest" if f.sha256 else "recorded")


def _open_archive(path: Path) -> tarfile.TarFile:
    try:
        return tarfile.open(path, "r:*")
    except (tarfile.TarError, OSError) as exc:
        raise FetchError(f"{path}: not a readable archive ({exc})") from None


def _member(tar: tarfile.TarFile, f: ModelFile) -> tarfile.TarInfo | None:
    wanted = [f.member] if f.member else []
    wanted.append(f.path)
    for w in wanted:
        try:
            info = tar.getmember(w)
        except KeyError:
            continue
        return info
    return None


def _local_source_for(f: ModelFile, source: Path) -> Path | None:
    """A file for ``f`` inside a local folder: by its path, its archive member path, or base name."""
    candidates = [source / f.path]
    if f.member:
        candidates += [source / f.member, source / Path(f.member).name]
    candidates.append(source / Path(f.path).name)
    return next((c for c in candidates if c.is_file()), None)


def fetch_model(manifest: Manifest, root: Path | None = None, *, source: Path | None = None,
                force: bool = False, progress: Progress | None = _stderr) -> FetchReport:
    """Install the model's files into ``models/<name>/``; raises ``FetchError`` with one clear line.

    ``source`` installs from what is already on disk: a release archive, a folder holding the
    files (or an unpacked archive), or, for a one-file model, the file itself.
    """
    root = root or models_dir()
    name = manifest.name
    folder = manifest.folder(root)
    report = FetchReport(name)
    if not force:
        check = check_model(manifest, root)
        if check.ok and all(c.state != "missing" for c, f in zip(check.files, manifest.files, strict=True)
                            if not f.optional):
            report.already_installed = True
            return report
    folder.mkdir(parents=True, exist_ok=True)
    downloads = root / ".downloads"
    by_url: dict[str, list[ModelFile]] = {}
    for f in manifest.files:
        by_url.setdefault(f.url or "", []).append(f)

    try:
        fetched, archives = _fetch_files(manifest, folder, downloads, by_url, source, report, progress)
    finally:
        for made in (downloads, folder):  # leave no empty folders behind after a failure
            if made.is_dir() and not any(made.iterdir()):
                shutil.rmtree(made, ignore_errors=True)
    record = read_record(folder)
    files_record = dict(record.get("files", {}))
    for ff in fetched:
        files_record[ff.path] = {"size": ff.size, "sha256": ff.sha256}
    write_record(folder, {"name": name, "fetched_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                          "files": files_record, "archives": archives})
    report.files = fetched
    return report


def _fetch_files(manifest: Manifest, folder: Path, downloads: Path, by_url: dict[str, list[ModelFile]],
                 source: Path | None, report: FetchReport,
                 progress: Progress | None) -> tuple[list[FetchedFile], dict[str, Any]]:
    name = manifest.name
    fetched: list[FetchedFile] = []
    archives: dict[str, Any] = {}
    for url, files in by_url.items():
        is_archive = url.lower().endswith(ARCHIVE_SUFFIXES)
        if source is not None:
            if source.is_dir():
                for f in files:
                    local = _local_source_for(f, source)
                    if local is None:
                        if f.optional:
                            report.skipped_optional.append(f.path)
                            continue
                        raise FetchError(f"{source} has no {f.path}; nothing more installed for {name}")
                    with local.open("rb") as fh:
                        fetched.append(_install(fh, f, folder, name, progress, local.stat().st_size))
                continue
            if not source.is_file():
                raise FetchError(f"{source}: no such file or folder")
            if not (is_archive or source.name.lower().endswith(ARCHIVE_SUFFIXES)):
                if len(manifest.files) != 1:
                    raise FetchError(f"{source} is one file but {name} has {len(manifest.files)}; "
                                     "pass the release archive or a folder")
                with source.open("rb") as fh:
                    fetched.append(_install(fh, files[0], folder, name, progress, source.stat().st_size))
                continue
            archive_path = source
        elif not url:
            build = manifest.options.get("build")
            how = f"build it ({build}) and run" if build else "get the files by hand and run"
            raise FetchError(f"the manifest of {name} gives no download URL for {files[0].path}; "
                             f"{how}: {fix_command(name)} --from PATH")
        elif is_archive:
            downloads.mkdir(parents=True, exist_ok=True)
            archive_path = downloads / url.rstrip("/").rsplit("/", 1)[-1]
            _download(url, archive_path, manifest.archive_sha256.get(url), name, progress)
        else:
            downloads.mkdir(parents=True, exist_ok=True)
            tmp = downloads / f"{name}-{Path(files[0].path).name}"
            _download(url, tmp, files[0].sha256, name, progress)
            with tmp.open("rb") as fh:
                fetched.append(_install(fh, files[0], folder, name, progress, tmp.stat().st_size))
            tmp.unlink(missing_ok=True)
            continue

        if progress:
            progress(f"unpacking {archive_path.name}")
        with _open_archive(archive_path) as tar:
            for f in files:
                info = _member(tar, f)
                stream = tar.extractfile(info) if info is not None and info.isfile() else None
                if stream is None:
                    if f.optional:
                        report.skipped_optional.append(f.path)
                        continue
                    raise FetchError(f"{archive_path.name} has no file {f.member or f.path}; "
                                     f"the manifest of {name} does not match this archive")
                assert info is not None  # a stream exists only for a member that was found
                with stream:
                    fetched.append(_install(stream, f, folder, name, progress, info.size))
        archives[url or str(archive_path)] = {"file": archive_path.name}
        if source is None:
            archive_path.unlink(missing_ok=True)

    return fetched, archives
