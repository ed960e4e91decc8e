"""Installing Godot from Debian never trusts unverified packages (issue 14.13): a failed signed
``apt-get update`` or a missing keyring is a clear error, not a retry with ``[trusted=yes]``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pyagent import godot


def _failing_apt(calls: list[str], work: Path) -> Any:
    def run(cmd: Sequence[str], **_kw: object) -> Any:
        calls.append((work / "sources.list").read_text())
        raise godot.GodotUnavailable("`apt-get -o ...` failed (100):\nE: The repository is not signed.")

    return run


def test_a_failed_signed_update_is_an_error_not_a_trusted_retry(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    keyring = tmp_path / "debian-archive-keyring.gpg"
    keyring.write_bytes(b"key")
    calls: list[str] = []
    monkeypatch.setattr(godot, "KEYRING", keyring)
    monkeypatch.setattr(godot, "_run", _failing_apt(calls, tmp_path))
    with pytest.raises(godot.GodotUnavailable, match="never installed"):
        godot._apt_update(tmp_path)
    assert calls == [f"deb [signed-by={keyring}] {godot.MIRROR} {godot.SUITE} main\n"]  # one try, signed
    assert "trusted" not in (tmp_path / "sources.list").read_text()


def test_without_the_keyring_nothing_is_fetched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(godot, "KEYRING", tmp_path / "missing.gpg")
    monkeypatch.setattr(godot, "_run", _failing_apt(calls, tmp_path))
    with pytest.raises(godot.GodotUnavailable, match="debian-archive-keyring"):
        godot._apt_update(tmp_path)
    assert calls == []
