"""``python -m pyagent models list | fetch NAME | verify [NAME ...]``: the local model folders.

Manifests live in ``models/manifests/<name>.json``; files go to ``models/<name>/``. Speech
models are also test-loaded by ``verify``; other families (the language model) get the file
checks only. The models
folder is ``$PYAGENT_MODELS`` or ``models/`` in the checkout (``--models-dir`` overrides both).
Also runnable as ``python -m pyagent.models_cli ...``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from pyagent.paths import models_dir
from pyagent.speech.fetch import FetchError, fetch_model
from pyagent.speech.manifest import (
    FAMILIES,
    Manifest,
    ManifestError,
    check_model,
    list_manifests,
    load_manifest,
)


def _configured(root: Path) -> set[str]:
    from pyagent.speech.service import SpeechConfig

    try:
        cfg = SpeechConfig.load(overrides={"models_root": root})
    except ValueError:
        return set()
    names = {cfg.recognizer}
    if cfg.vad:
        names.add(cfg.vad)
    return names


def _state(m: Manifest, root: Path) -> str:
    check = check_model(m, root, hashes=False)
    if not check.installed:
        return "not installed"
    return "installed" if check.ok else "damaged"


def cmd_list(root: Path) -> int:
    try:
        manifests = list_manifests(root)
    except ManifestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if not manifests:
        print(f"no manifests in {root / 'manifests'}")
        return 0
    configured = _configured(root)
    rows = [("", "name", "family", "lang", "state", "manifest")]
    for m in manifests:
        rows.append(("*" if m.name in configured else "", m.name, m.family, m.language or "-", _state(m, root),
                     "hashes verified" if m.verified else "hashes unknown"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    print("* = selected by the speech configuration (models/config.json, $PYAGENT_ASR_MODEL)")
    return 0


def cmd_fetch(root: Path, name: str, source: Path | None, force: bool) -> int:
    try:
        manifest = load_manifest(name, root)
        report = fetch_model(manifest, root, source=source, force=force)
    except (ManifestError, FetchError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if report.already_installed:
        print(f"{name} is already installed and verified in {manifest.folder(root)} (--force fetches again)")
        return 0
    for f in report.files:
        how = "sha256 matches the manifest" if f.reference == "manifest" else "sha256 recorded (manifest has none)"
        print(f"  {f.path}: {f.size} bytes, {how}: {f.sha256}")
    for path in report.skipped_optional:
        print(f"  {path}: optional, not in the download")
    print(f"installed {name} in {manifest.folder(root)}")
    return 0


def cmd_verify(root: Path, names: list[str], probe: bool) -> int:
    from pyagent.speech.service import probe_model

    try:
        manifests = [load_manifest(n, root) for n in names] if names else list_manifests(root)
    except ManifestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    failures = 0
    for m in manifests:
        check = check_model(m, root, hashes=True)
        if not check.installed:
            print(f"{m.name}: not installed ({'run: python -m pyagent models fetch ' + m.name})")
            failures += bool(names)
            continue
        for f in check.files:
            print(f"  {m.name}/{f.path}: {f.state}{' - ' + f.detail if f.detail else ''}")
        problem = check.problem()
        loadable = m.family in FAMILIES  # speech models; other families have their own loaders
        if problem is None and probe and loadable:
            problem = probe_model(m, root)
        if problem:
            print(f"{m.name}: FAILED: {problem}")
            failures += 1
        else:
            print(f"{m.name}: ok{' (loads in sherpa-onnx)' if probe and loadable else ''}")
    return 1 if failures else 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pyagent models", description="Manage speech model files.")
    p.add_argument("--models-dir", type=Path, default=None,
                   help="models folder (default $PYAGENT_MODELS or models/ in the checkout)")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the known models and whether they are installed")
    f = sub.add_parser("fetch", help="download (or copy from --from) a model and verify it")
    f.add_argument("name")
    f.add_argument("--from", dest="source", type=Path, default=None, metavar="PATH",
                   help="install from a downloaded release archive, a folder, or (one-file models) the file")
    f.add_argument("--force", action="store_true", help="fetch even if an intact copy is installed")
    v = sub.add_parser("verify", help="check sizes and sha256 of installed models and that they load")
    v.add_argument("names", nargs="*", metavar="NAME")
    v.add_argument("--no-probe", action="store_true", help="skip loading the model in sherpa-onnx")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    root = args.models_dir or models_dir()
    if args.command == "list":
        return cmd_list(root)
    if args.command == "fetch":
        return cmd_fetch(root, args.name, args.source, args.force)
    return cmd_verify(root, args.names, not args.no_probe)


if __name__ == "__main__":
    sys.exit(main())
