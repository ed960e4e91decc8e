"""The attacks of issue 14 (part A) on the validator, the script session, the loader and stdout: each one
once as found, and as a class of inputs where it is one."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import ifcopenshell
import pytest
from fuzz_session import IDS, fresh_session, observable
from fuzz_strategies import SCHEMA, conforming
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from persist_helpers import FZK, ROOT, copy_ifc

from pyagent.actions.schema import MAX_ERROR_CHARS, MAX_STEPS, schema_errors
from pyagent.jsonsafe import JsonInputError, loads
from pyagent.script import MAX_LINE, answer, run_script
from pyagent.session import Session

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The shared sample files lie next to the main checkout (../shared); worktrees sit one level deeper.
SIGNAL = next((p / "shared" / "ifc" / "real" / "ifc4x3_linear-placement-of-signal.ifc" for p in ROOT.parents
               if (p / "shared" / "ifc" / "real" / "ifc4x3_linear-placement-of-signal.ifc").is_file()),
              ROOT / "missing")
DOOR_MOVE = {"steps": [{"op": "move", "target": {"class": ["IfcDoor"]}, "delta": [0.0, 0.0, 0.0]}]}


def _numbers(value: Any) -> list[tuple[Any, ...]]:
    """Paths to every number inside ``value``."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        v, path = stack.pop()
        if isinstance(v, float | int) and not isinstance(v, bool):
            out.append(path)
        elif isinstance(v, dict):
            stack.extend((x, (*path, k)) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((x, (*path, i)) for i, x in enumerate(v))
    return out


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    return [*value[:head], _replace(value[head], rest, new), *value[head + 1:]]


# ---- 5: non-finite numbers are a schema-level error everywhere ------------------------------------------


@FUZZ
@given(conforming(SCHEMA, IDS), st.sampled_from([math.nan, math.inf, -math.inf, 10**400, -(10**30)]),
       st.randoms(use_true_random=False))
def test_any_non_finite_or_huge_number_makes_a_program_invalid(program: Any, bad: Any, rnd: Any) -> None:
    places = _numbers(program)
    if not places:
        return
    broken = _replace(program, rnd.choice(places), bad)
    errors = schema_errors(broken)
    assert errors, broken
    assert all(len(e) <= MAX_ERROR_CHARS for e in errors)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_nan_move_is_refused_as_invalid_and_changes_nothing(bad: float, tmp_path: Path) -> None:
    """Issue 14.5: NaN passed validation ("Moved nan m: 5 doors."); with a journal the refusal said
    "could not be recorded"."""
    program = _replace(DOOR_MOVE, ("steps", 0, "delta", 0), bad)
    s = fresh_session()
    before = observable(s)
    r = s.do(program)
    assert not r.ok and "finite" in (r.error or "") and observable(s) == before
    journaled = Session.open(copy_ifc(FZK, tmp_path / "m"), journal_dir=tmp_path / "j")
    r = journaled.do(program)
    assert not r.ok and "finite" in (r.error or "") and "recorded" not in (r.error or "")
    journaled.close()


# ---- 2: every request is bounded before work starts --------------------------------------------------


def test_a_large_invalid_program_is_refused_with_a_short_error() -> None:
    """Issue 14.2: 300 invalid steps took seconds and the error repeated the whole input."""
    step = {"op": "hide", "target": {"ids": list(IDS[:5])}, "bogus": 1}
    errors = schema_errors({"steps": [step] * 300})
    assert errors == [f"steps: a program has at most {MAX_STEPS} steps (got 300)"]
    wide = {"op": "hide", "target": {"ids": [IDS[0]] * 2400}, "bogus": 1}  # ids over the schema's 500
    errors = schema_errors({"steps": [wide] * 8})
    assert errors and sum(len(e) for e in errors) < 5 * MAX_ERROR_CHARS
    huge = {"op": "hide", "target": {"ids": [IDS[0]] * 200_000}}
    assert schema_errors({"steps": [huge]}) == ["program: too large (more than 20000 values)"]
    assert "too long" in schema_errors({"steps": [{"op": "note", "text": "x" * 100_000}]})[0]


@FUZZ
@given(st.integers(MAX_STEPS + 1, 5000), st.sampled_from(["hide", "fly", "note"]))
def test_any_program_over_the_bounds_gets_one_short_error(n: int, op: str) -> None:
    errors = schema_errors({"steps": [{"op": op, "junk": "x" * 50}] * n})
    assert len(errors) == 1 and len(errors[0]) < 100


def test_a_one_megabyte_script_line_is_answered_briefly() -> None:
    s = fresh_session()
    before = observable(s)
    for steps in ([{"op": "hide", "target": {"ids": [IDS[0]] * 4500}, "junk": 1}] * 8,
                  [{"op": "hide", "target": {"ids": list(IDS[:10])}, "junk": 1}] * 3000):
        line = json.dumps({"do": {"steps": steps}})
        assert 800_000 < len(line) < MAX_LINE
        out = answer(s, line.encode())
        assert out is not None and out["ok"] is False and len(json.dumps(out)) < 1500
    assert observable(s) == before
    out = answer(s, None)  # what the reader yields for a line over MAX_LINE
    assert out is not None and "too long" in out["error"]


# ---- 3: nothing on stdin and no failure inside ends the script session ---------------------------------

HOSTILE_LINES = [
    b'{"say": "\\ud800"}',
    b'{"select": ["\\udfff"]}',
    b'{"say": ' + b"1" * 5000 + b"}",
    b'{"pose": {"position": [' + b"9" * 400 + b', 0, 1.6], "yaw": 0, "pitch": 0}}',
    b'{"pose": {"position": [1e999, 0, 1.6], "yaw": 0, "pitch": 0}}',
    b"\xff",
    b'{"say": "caf\xe9"}',  # latin-1, not UTF-8
    b'{"do": {"steps": [{"op": "move", "target": {"class": ["IfcDoor"]}, "delta": [NaN, 0, 0]}]}}',
    b'{"do": {"steps": [{"op": "save"}]}}',
    b'{"say": "' + b"a" * 5000 + b'"}',
]


@FUZZ
@given(st.binary(max_size=300))
def test_any_bytes_get_one_json_answer(raw: bytes) -> None:
    s = fresh_session()
    before = observable(s)
    for line in raw.split(b"\n"):
        out = answer(s, line)
        if out is None:
            assert not line.strip()
            continue
        json.dumps(out, allow_nan=False).encode("utf-8")  # writable as UTF-8 JSON
        if out.get("ok") is False:
            assert observable(s) == before


@FUZZ
@given(st.lists(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=4),
       st.sampled_from(["say", "select", "do"]))
def test_lone_surrogates_are_refused_anywhere(chars: list[str], key: str) -> None:
    bad = "x".join(chars)  # never a valid high-low pair
    value: Any = {"say": f"hide {bad}", "select": [bad], "do": {"steps": [{"op": "note", "text": bad}]}}[key]
    line = json.dumps({key: value})  # ASCII with \\udXXX escapes
    with pytest.raises(JsonInputError):
        loads(line)
    out = answer(fresh_session(), line.encode())
    assert out is not None and out["ok"] is False


def test_the_script_process_survives_every_hostile_line(tmp_path: Path) -> None:
    """Issue 14.3: each of these ended `python -m pyagent script` with a traceback."""
    model = copy_ifc(FZK, tmp_path / "model")
    full = tmp_path / "not-a-folder"
    full.write_text("")  # saving into it fails like a full disk does: the session must go on
    data = b'{"do": {"steps": [{"op": "hide", "target": {"class": ["IfcDoor"]}}]}}\n'
    data += b"\n".join(HOSTILE_LINES) + b"\n" + b'{"state": true}\n'
    env = dict(os.environ, PYTHONPATH=str(ROOT), LANG="C.UTF-8", LC_ALL="C.UTF-8")
    proc = subprocess.run([sys.executable, "-m", "pyagent", "script", "--ifc", str(model), "--save-dir",
                           str(full)], input=data, capture_output=True, cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.decode("utf-8").splitlines()
    assert len(lines) == len(HOSTILE_LINES) + 2, lines
    answers = [json.loads(x) for x in lines]
    assert answers[0]["ok"] is True
    for hostile, out in zip(HOSTILE_LINES, answers[1:-1], strict=True):
        assert out["ok"] is False and out["error"], hostile[:60]
        assert "Traceback" not in out["error"] and len(out["error"]) < 400, out
    assert len(answers[-1]["hidden"]) == 5  # the first change is still there
    assert b"Traceback" not in proc.stderr


def test_save_on_a_full_disk_is_one_error_and_the_session_goes_on(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """ifcopenshell's writer raises RuntimeError ("An unknown error occurred") when the disk is full."""
    s = Session.open(copy_ifc(FZK, tmp_path / "model"), save_dir=tmp_path / "out")

    def full_disk(self: Any, path: str, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("An unknown error occurred")

    monkeypatch.setattr(ifcopenshell.file, "write", full_disk)
    lines = [b'{"do": {"steps": [{"op": "hide", "target": {"class": ["IfcDoor"]}}]}}', b'{"say": "save"}',
             b'{"state": true}']
    out: list[bytes] = []

    class Sink:
        def write(self, b: bytes) -> None:
            out.append(b)

        def flush(self) -> None:
            pass

    assert run_script(s, iter(lines), Sink()) == 3  # type: ignore[arg-type]
    answers = [json.loads(b) for b in out]
    assert answers[1]["ok"] is False and "disk" in answers[1]["error"] and "internal" not in answers[1]["error"]
    assert len(answers[2]["hidden"]) == 5


# ---- 8: native output never reaches the protocol's stdout ---------------------------------------------


@pytest.mark.skipif(not SIGNAL.is_file(), reason="needs ../shared/ifc/real/")
def test_native_prints_do_not_reach_stdout(tmp_path: Path) -> None:
    """Issue 14.8: the geometry kernel printed `local z: ...; delta: ...` lines into `load`'s output."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYAGENT_CACHE=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-m", "pyagent", "load", str(SIGNAL)], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "local z" not in proc.stdout
    assert proc.stdout.startswith(SIGNAL.name) and proc.stdout.rstrip().splitlines()[-1].startswith("glb: ")
    assert "local z" in proc.stderr  # not lost: the kernel's messages go to the log
    # The script contract: one JSON line per input, even while tessellating.
    proc = subprocess.run([sys.executable, "-m", "pyagent", "script", "--ifc", str(SIGNAL)],
                          input='{"state": true}\n', capture_output=True, text=True, cwd=ROOT,
                          env=dict(env, PYAGENT_CACHE=str(tmp_path / "cache2")), timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert [json.loads(x)["hidden"] for x in proc.stdout.splitlines()] == [[]]


NATIVE = """
import ctypes, sys
from pyagent.stdio import protect_stdout
protect_stdout()
libc = ctypes.CDLL(None)
libc.puts(b"native noise")  # C stdio on descriptor 1, as a C++ library's std::cout would
libc.fflush(None)
print("protocol line")
"""


def test_native_writes_to_descriptor_one_go_to_stderr() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", NATIVE], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "protocol line\n"
    assert "native noise" in proc.stderr
