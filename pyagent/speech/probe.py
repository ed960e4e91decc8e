"""Load one speech model in this (child) process and decode a little silence.

``python -m pyagent.speech.probe [--models-dir DIR] NAME`` exits 0 and prints "ok" when the
model loads and decodes; otherwise it exits non-zero with the reason on its last stderr line.
The service runs this in a child process before loading a new or changed model itself, because
sherpa-onnx ends the process (``_Exit``) on some malformed models instead of raising.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from pyagent.paths import models_dir
from pyagent.speech.engines import build_engine
from pyagent.speech.manifest import ManifestError, load_manifest


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pyagent.speech.probe")
    p.add_argument("--models-dir", type=Path, default=None)
    p.add_argument("name")
    args = p.parse_args(argv)
    root = args.models_dir or models_dir()
    try:
        manifest = load_manifest(args.name, root)
        silence = np.zeros(8000, dtype=np.float32)
        if manifest.family == "silero-vad":
            from pyagent.speech.vad import SileroVad

            f = manifest.file_for("model")
            assert f is not None
            vad = SileroVad(manifest.folder(root) / f.path)
            vad.accept(silence)
            vad.flush()
        else:
            engine = build_engine(manifest, root)
            utt = engine.open()
            utt.accept(silence)
            utt.finish()
    except (ManifestError, RuntimeError, ValueError, OSError) as exc:
        print(f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}",
              file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
