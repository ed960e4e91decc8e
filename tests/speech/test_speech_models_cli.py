"""Model manifests and ``python -m pyagent models list | fetch | verify``."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import subprocess
import sys
import tarfile
import threading
from pathlib import Path

import pytest

from pyagent import models_cli
from pyagent.paths import PROJECT_ROOT
from pyagent.speech.fetch import FetchError, fetch_model
from pyagent.speech.manifest import (
    FAMILIES,
    RECORD_NAME,
    Manifest,
    ManifestError,
    check_model,
    list_manifests,
    load_manifest,
)

REPO_MODELS = PROJECT_ROOT / "models"


# ------------------------------------------------------------------------------------- repository manifests


def test_repository_manifests_are_valid():
    manifests = list_manifests(REPO_MODELS)
    names = {m.name for m in manifests}
    assert {"whisper-tiny.en", "moonshine-tiny-en-int8", "streaming-zipformer-en-20M", "silero-vad"} <= names
    recognizer_families = {m.family for m in manifests} - {"silero-vad"}
    assert len(recognizer_families) >= 2 and "zipformer-transducer-online" in recognizer_families
    for m in manifests:
        assert m.path is not None and m.path.stem == m.name
        assert m.source and m.licence and m.language
        if m.family not in FAMILIES:
            continue  # another package's model (the language model): checked by its own tests
        for f in m.files:
            assert f.url and f.url.startswith("https://github.com/k2-fsa/sherpa-onnx/releases/download/")
            if f.from_archive:
                assert f.member and f.member.endswith("/" + f.path)
            # Nobody could download these here: unknown hashes must say so.
            if f.sha256 is None or f.size is None:
                assert m.verified is False


def test_manifest_validation_messages(tmp_path):
    base = {"name": "x", "family": "whisper", "files": [
        {"path": "e.onnx", "role": "encoder"}, {"path": "d.onnx", "role": "decoder"},
        {"path": "t.txt", "role": "tokens"}]}
    Manifest.from_json(base)
    # Families this package does not load are accepted with any roles (the CLI manages them too).
    other = Manifest.from_json({"name": "llm", "family": "llm-ortgenai",
                                "files": [{"path": "m.onnx", "role": "model"}]})
    assert other.file_for("model") is not None
    with pytest.raises(ManifestError, match="bad family"):
        Manifest.from_json({**base, "family": "no such"})
    with pytest.raises(ManifestError, match="role may appear once"):
        Manifest.from_json({**base, "files": [*base["files"], {"path": "t2.txt", "role": "tokens"}]})
    with pytest.raises(ManifestError, match="needs files with roles tokens"):
        Manifest.from_json({**base, "files": base["files"][:2]})
    with pytest.raises(ManifestError, match="inside the model folder"):
        Manifest.from_json({**base, "files": [*base["files"], {"path": "../evil", "role": "tokens"}]})
    with pytest.raises(ManifestError, match="sha256 must be"):
        Manifest.from_json({**base, "files": [{**base["files"][0], "sha256": "abc"}, *base["files"][1:]]})
    with pytest.raises(ManifestError, match="mean nothing"):
        Manifest.from_json({**base, "files": [*base["files"], {"path": "j.onnx", "role": "joiner"}]})
    with pytest.raises(ManifestError, match="no manifest for model 'x'"):
        load_manifest("x", tmp_path)
    assert set(FAMILIES) >= {"whisper", "moonshine", "zipformer-transducer", "zipformer-transducer-online"}


# ------------------------------------------------------------------------------------- fetch and verify


@pytest.fixture
def http_root(tmp_path):
    """A loopback HTTP server over tmp_path/www; yields (folder, base URL)."""
    www = tmp_path / "www"
    www.mkdir()
    handler = functools.partial(QuietHandler, directory=str(www))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield www, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (signature of the base class)
        pass


def _release(tmp_path: Path, tiny_models: Path, sha_known: bool, base_url: str | None = None) -> tuple[Path, Path]:
    """A fake sherpa-onnx style release: tiny-whisper's files in a .tar.bz2 under a top folder,
    and a models folder whose manifest points at it (file:// URL unless base_url is given)."""
    src = tiny_models / "tiny-whisper"
    archive = tmp_path / "sherpa-onnx-tiny-whisper.tar.bz2"
    with tarfile.open(archive, "w:bz2") as tar:
        for name in ("encoder.onnx", "decoder.onnx", "tokens.txt"):
            tar.add(src / name, arcname=f"sherpa-onnx-tiny-whisper/{name}")
        tar.add(src / "tokens.txt", arcname="sherpa-onnx-tiny-whisper/test_wavs/README")
    root = tmp_path / "models"
    (root / "manifests").mkdir(parents=True)
    files = []
    for role, name in (("encoder", "encoder.onnx"), ("decoder", "decoder.onnx"), ("tokens", "tokens.txt")):
        data = (src / name).read_bytes()
        url = f"{base_url}/{archive.name}" if base_url else archive.as_uri()
        files.append({"path": name, "role": role, "url": url,
                      "member": f"sherpa-onnx-tiny-whisper/{name}",
                      "size": len(data) if sha_known else None,
                      "sha256": hashlib.sha256(data).hexdigest() if sha_known else None})
    manifest = {"name": "tw", "family": "whisper", "verified": sha_known, "files": files}
    (root / "manifests" / "tw.json").write_text(json.dumps(manifest))
    return root, archive


def test_fetch_from_url_records_hashes_and_verifies(tmp_path, tiny_models, http_root, capsys):
    www, base = http_root
    root, archive = _release(tmp_path, tiny_models, sha_known=False, base_url=base)
    archive.rename(www / archive.name)
    assert models_cli.main(["--models-dir", str(root), "fetch", "tw"]) == 0
    out = capsys.readouterr().out
    assert "sha256 recorded (manifest has none)" in out and "installed tw" in out
    record = json.loads((root / "tw" / RECORD_NAME).read_text())
    want = hashlib.sha256((tiny_models / "tiny-whisper" / "encoder.onnx").read_bytes()).hexdigest()
    assert record["files"]["encoder.onnx"]["sha256"] == want
    assert not (root / ".downloads").exists()  # the archive is not kept
    assert not (root / "tw" / "test_wavs").exists()  # only the listed members are unpacked

    assert models_cli.main(["--models-dir", str(root), "verify", "tw"]) == 0
    out = capsys.readouterr().out
    assert "matches the sha256 recorded at fetch" in out and "tw: ok (loads in sherpa-onnx)" in out

    # A file that changes after the fetch is caught against the recorded hash.
    enc = root / "tw" / "encoder.onnx"
    data = bytearray(enc.read_bytes())
    data[-1] ^= 0xFF
    enc.write_bytes(bytes(data))
    assert models_cli.main(["--models-dir", str(root), "verify", "tw"]) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and "python -m pyagent models fetch tw --force" in out

    # fetch again repairs it (without --force it would see the damage and fetch anyway)
    assert models_cli.main(["--models-dir", str(root), "fetch", "tw"]) == 0
    assert models_cli.main(["--models-dir", str(root), "verify", "--no-probe", "tw"]) == 0
    capsys.readouterr()
    assert models_cli.main(["--models-dir", str(root), "fetch", "tw"]) == 0
    assert "already installed" in capsys.readouterr().out


def test_fetch_from_file_url(tmp_path, tiny_models):
    root, _ = _release(tmp_path, tiny_models, sha_known=True)
    report = fetch_model(load_manifest("tw", root), root, progress=None)
    assert [f.reference for f in report.files] == ["manifest"] * 3


def test_fetch_from_local_archive_and_folder(tmp_path, tiny_models):
    root, archive = _release(tmp_path, tiny_models, sha_known=True)
    manifest = load_manifest("tw", root)
    report = fetch_model(manifest, root, source=archive, progress=None)
    assert [f.reference for f in report.files] == ["manifest"] * 3
    assert check_model(manifest, root).ok
    # an unpacked release folder works too
    unpacked = tmp_path / "unpacked"
    with tarfile.open(archive) as tar:
        tar.extractall(unpacked, filter="data")
    report = fetch_model(manifest, root, source=unpacked / "sherpa-onnx-tiny-whisper", force=True, progress=None)
    assert len(report.files) == 3


def test_fetch_refuses_a_file_that_does_not_match_the_manifest(tmp_path, tiny_models):
    root, archive = _release(tmp_path, tiny_models, sha_known=True)
    path = root / "manifests" / "tw.json"
    manifest = json.loads(path.read_text())
    manifest["files"][1]["sha256"] = "0" * 64
    path.write_text(json.dumps(manifest))
    with pytest.raises(FetchError, match="does not match the manifest") as err:
        fetch_model(load_manifest("tw", root), root, source=archive, progress=None)
    assert "\n" not in str(err.value)
    assert not (root / "tw" / "decoder.onnx").exists()
    assert not list((root / "tw").glob("*.part"))


def test_fetch_errors_are_one_line(tmp_path, tiny_models, capsys):
    root, archive = _release(tmp_path, tiny_models, sha_known=False)
    path = root / "manifests" / "tw.json"
    manifest = json.loads(path.read_text())
    for f in manifest["files"]:
        f["url"] = "http://127.0.0.1:9/sherpa-onnx-tiny-whisper.tar.bz2"  # nothing listens on port 9
    path.write_text(json.dumps(manifest))
    assert models_cli.main(["--models-dir", str(root), "fetch", "tw"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "could not download" in err[0] and "--from PATH" in err[0]
    assert not (root / "tw").exists() and not (root / ".downloads").exists()

    manifest["files"][0]["member"] = "elsewhere/encoder.onnx"
    manifest["files"][0]["path"] = "enc.onnx"
    path.write_text(json.dumps(manifest))
    assert models_cli.main(["--models-dir", str(root), "fetch", "tw", "--from", str(archive)]) == 1
    assert "has no file elsewhere/encoder.onnx" in capsys.readouterr().err
    assert models_cli.main(["--models-dir", str(root), "fetch", "nope"]) == 1
    assert "no manifest for model 'nope'" in capsys.readouterr().err


def test_list_and_module_entry_point(tiny_models):
    proc = subprocess.run([sys.executable, "-m", "pyagent.models_cli", "--models-dir", str(tiny_models), "list"],
                          capture_output=True, text=True, cwd=PROJECT_ROOT, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    row = next(ln for ln in lines if " tiny-whisper " in f" {ln} ")
    assert "whisper" in row and "installed" in row and "hashes verified" in row
    proc = subprocess.run([sys.executable, "-m", "pyagent.models_cli", "--models-dir", str(tiny_models),
                           "verify", "--no-probe"], capture_output=True, text=True, cwd=PROJECT_ROOT, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count(": ok") >= 7


def test_verify_reports_missing_named_model(tmp_path, capsys):
    (tmp_path / "manifests").mkdir()
    manifest = json.loads((REPO_MODELS / "manifests" / "silero-vad.json").read_text())
    (tmp_path / "manifests" / "silero-vad.json").write_text(json.dumps(manifest))
    assert models_cli.main(["--models-dir", str(tmp_path), "verify", "silero-vad"]) == 1
    assert "python -m pyagent models fetch silero-vad" in capsys.readouterr().out
    assert models_cli.main(["--models-dir", str(tmp_path), "verify"]) == 0  # nothing installed, nothing broken
