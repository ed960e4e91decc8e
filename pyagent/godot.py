"""Find, install and start the Godot 4 engine, without touching the system.

An installed ``godot`` (4.3 or newer) on ``PATH`` is used when there is one (``$GODOT`` names another
binary). Otherwise Godot is installed from Debian unstable into ``.cache/godot/root/``: apt runs with
its own state, cache and sources list, the dependency closure of ``godot`` plus a Mesa OpenGL stack
is downloaded and unpacked with ``dpkg -x``, and the binary is started through that folder's own
dynamic loader, so the host's libraries are never mixed in.

Command line::

    python -m pyagent.godot install                  # idempotent; a stamp file records the version
    python -m pyagent.godot run -- --headless --version
    python -m pyagent.godot run --display -- --rendering-driver opengl3 --path . -s shot.gd
    python -m pyagent.godot where                    # print the argv prefix that starts Godot
    python -m pyagent.godot import [--path DIR]      # build the project's class cache when stale

``run`` installs first when needed and, for a ``--path`` project, imports it first when its sources
are newer than its class cache (a fresh clone has none: scripts that use ``class_name`` would not
parse); its exit code is Godot's. With ``--fail-on-script-error`` a run whose scripts fail to parse
or hit a script error is stopped at once with that error instead of running on without the script.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / ".cache" / "godot"
ROOT = CACHE / "root"
STAMP = CACHE / "stamp.json"
MIN_VERSION = (4, 3)
SUITE = "sid"
MIRROR = "http://deb.debian.org/debian"
KEYRING = Path("/usr/share/keyrings/debian-archive-keyring.gpg")
#: Godot itself plus a software OpenGL/EGL stack so screenshots render under Xvfb.
PACKAGES = ("godot", "libgl1", "libglx-mesa0", "libgl1-mesa-dri", "libegl1", "libegl-mesa0")
MULTIARCH = "usr/lib/x86_64-linux-gnu"
LIB_DIRS = (MULTIARCH, f"{MULTIARCH}/pulseaudio", "usr/lib")
LOADER = f"{MULTIARCH}/ld-linux-x86-64.so.2"
BINARY = "usr/bin/godot"


class GodotUnavailable(RuntimeError):
    """Godot is neither on PATH nor installed (or it could not be installed)."""


@dataclass(frozen=True)
class Stamp:
    """What ``install`` put into ``.cache/godot/root``."""

    version: str
    packages: list[str]
    installed_at: float

    @staticmethod
    def read(path: Path = STAMP) -> Stamp | None:
        try:
            data = json.loads(path.read_text())
            return Stamp(str(data["version"]), list(data["packages"]), float(data["installed_at"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def write(self, path: Path = STAMP) -> None:
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.__dict__, indent=1))
        tmp.replace(path)


def parse_version(text: str) -> tuple[int, int, int] | None:
    """``"4.6.3.stable.debian..."`` -> ``(4, 6, 3)``; None when the text is not a Godot version."""
    for line in text.splitlines():
        m = re.match(r"\s*(\d+)\.(\d+)(?:\.(\d+))?\.", line.strip() + ".")
        if m:
            return int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    return None


def _local_prefix(root: Path = ROOT) -> list[str]:
    libs = ":".join(str(root / d) for d in LIB_DIRS if (root / d).is_dir())
    return [str(root / LOADER), "--library-path", libs, str(root / BINARY)]


def _probe_version(prefix: Sequence[str],
                   env: Mapping[str, str] | None = None) -> tuple[int, int, int] | None:
    try:
        out = subprocess.run(
            [*prefix, "--headless", "--version"], capture_output=True, text=True, timeout=60,
            env=dict(env) if env is not None else None,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return parse_version(out.stdout) if out.returncode == 0 else None


def _system_godot() -> list[str] | None:
    candidates = [os.environ["GODOT"]] if os.environ.get("GODOT") else []
    candidates += [c for c in (shutil.which("godot"), shutil.which("godot4")) if c]
    for cand in candidates:
        version = _probe_version([cand])
        if version is not None and version[:2] >= MIN_VERSION:
            return [cand]
    return None


def _local_installed(root: Path = ROOT) -> bool:
    return Stamp.read() is not None and (root / BINARY).is_file() and (root / LOADER).exists()


def find_godot(install: bool = False) -> list[str]:
    """The argv prefix that starts Godot >= 4.3: PATH (or ``$GODOT``) first, then our local install.

    With ``install=True`` a missing local install is made first. Raises ``GodotUnavailable``.
    """
    system = _system_godot()
    if system:
        return system
    if not _local_installed() and install:
        install_godot()
    if _local_installed():
        return _local_prefix()
    raise GodotUnavailable(
        "Godot >= 4.3 is not on PATH and not installed locally: run `python -m pyagent.godot install`"
    )


def godot_env(display: str | None = None, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Environment for a Godot started from ``find_godot()``: our Mesa drivers, and ``DISPLAY``."""
    env = dict(os.environ if base is None else base)
    if _local_installed() and not _system_godot():
        env["LIBGL_DRIVERS_PATH"] = str(ROOT / MULTIARCH / "dri")
        env["__EGL_VENDOR_LIBRARY_DIRS"] = str(ROOT / "usr/share/glvnd/egl_vendor.d")
        env["GCONV_PATH"] = str(ROOT / MULTIARCH / "gconv")
    if display is not None:
        env["DISPLAY"] = display
    return env


# --------------------------------------------------------------------------------------------- install


def _log(msg: str) -> None:
    print(f"[godot] {msg}", file=sys.stderr, flush=True)


def _apt_options(work: Path) -> list[str]:
    return [
        "-o", f"Dir::State={work / 'state'}",
        "-o", f"Dir::State::status={work / 'state' / 'status'}",
        "-o", f"Dir::Cache={work / 'cache'}",
        "-o", f"Dir::Etc::SourceList={work / 'sources.list'}",
        "-o", "Dir::Etc::SourceParts=/dev/null",
        "-o", "Dir::Etc::Preferences=/dev/null",
        "-o", "Dir::Etc::PreferencesParts=/dev/null",
        "-o", "APT::Install-Recommends=false",
        "-o", "APT::Architecture=amd64",
        # As root apt drops to the _apt user, who cannot write into our private dirs.
        *(["-o", "APT::Sandbox::User=root"] if os.geteuid() == 0 else []),
    ]


def _run(cmd: Sequence[str], **kw: object) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(list(cmd), capture_output=True, text=True, **kw)  # type: ignore[call-overload]
    if out.returncode != 0:
        raise GodotUnavailable(f"`{' '.join(cmd[:2])} ...` failed ({out.returncode}):\n{out.stderr[-2000:]}")
    return out


def _apt_update(work: Path, *, allow_unsigned: bool = False) -> None:
    """``apt-get update`` of Debian's archive, verified with the host's Debian keyring. Never falls back to
    unverified packages: without the keyring, or when the signatures do not verify, it fails and says why
    (``allow_unsigned`` is accepted for callers and has no effect)."""
    for dirname in ("state/lists/partial", "cache/archives/partial"):
        (work / dirname).mkdir(parents=True, exist_ok=True)
    (work / "state" / "status").write_text("")
    if not KEYRING.is_file():
        raise GodotUnavailable(f"{KEYRING} is missing, so Debian's packages cannot be verified (they are never "
                               "installed unverified): `apt-get install debian-archive-keyring`, or put "
                               "Godot >= 4.3 on PATH")
    (work / "sources.list").write_text(f"deb [signed-by={KEYRING}] {MIRROR} {SUITE} main\n")
    try:
        _run(["apt-get", *_apt_options(work), "update"])
    except GodotUnavailable as exc:
        # Debian rotates its archive keys; an older host keyring may not know the current sid key.
        raise GodotUnavailable(
            f"apt could not fetch or verify Debian {SUITE} with {KEYRING}: {str(exc).splitlines()[-1]}\n"
            "Unverified packages are never installed. Update the keyring (`apt-get install "
            "debian-archive-keyring` from a current Debian release), check the network, or put Godot >= 4.3 "
            "on PATH.") from exc


def _closure(work: Path, packages: Sequence[str] = PACKAGES) -> list[str]:
    """``name=version`` for every package apt would install into an empty system."""
    out = _run(["apt-get", *_apt_options(work), "-s", "install", *packages])
    pkgs = re.findall(r"^Inst (\S+) \((\S+)", out.stdout, flags=re.M)
    if not any(name == "godot" for name, _ in pkgs):
        raise GodotUnavailable(f"apt did not resolve package godot from {SUITE}:\n{out.stdout[-2000:]}")
    return [f"{name}={version}" for name, version in pkgs]


def _install_xvfb() -> None:
    if shutil.which("Xvfb"):
        return
    if os.geteuid() != 0:
        _log("Xvfb is not installed and we are not root: `--display` will not work (apt-get install xvfb)")
        return
    _log("installing xvfb with the host's apt")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update"], capture_output=True, env=env, check=False)
    done = subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", "xvfb", "xauth"],
                          capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        _log(f"could not install xvfb: {done.stderr[-500:]}")


def install_godot(force: bool = False) -> Stamp:
    """Install Godot into ``.cache/godot/root`` (a no-op when the stamp says it is there)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be installing right now
        stamp = Stamp.read()
        if stamp is not None and _local_installed() and not force:
            _install_xvfb()
            return stamp
        if shutil.which("apt-get") is None or shutil.which("dpkg") is None:
            raise GodotUnavailable("apt-get and dpkg are needed to install Godot locally")
        started = time.monotonic()
        with tempfile.TemporaryDirectory(dir=CACHE, prefix="work-") as tmp:
            work = Path(tmp)
            _log(f"apt update ({SUITE}) in a private state dir")
            _apt_update(work)
            pkgs = _closure(work)
            debs = work / "debs"
            debs.mkdir()
            _log(f"downloading {len(pkgs)} packages")
            _run(["apt-get", *_apt_options(work), "download", *pkgs], cwd=debs)
            staging = work / "root"
            staging.mkdir()
            files = sorted(debs.glob("*.deb"))
            _log(f"unpacking {len(files)} packages")
            for deb in files:
                _run(["dpkg", "-x", str(deb), str(staging)])
            version = _probe_version(_local_prefix(staging))
            if version is None:
                raise GodotUnavailable("the unpacked Godot does not start (`--headless --version` failed)")
            if ROOT.exists():
                shutil.rmtree(ROOT)
            staging.replace(ROOT)
        STAMP.unlink(missing_ok=True)
        stamp = Stamp(".".join(map(str, version)), pkgs, time.time())
        stamp.write()
        _log(f"Godot {stamp.version} installed in {ROOT} ({time.monotonic() - started:.0f} s)")
        _install_xvfb()
        return stamp


# --------------------------------------------------------------------------------------------- running


def _die_with_parent() -> None:
    """In the child before exec: get SIGTERM when the parent dies, so no Xvfb outlives a killed run."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


@contextlib.contextmanager
def virtual_display(size: str = "1280x720x24") -> Iterator[str]:
    """Start Xvfb on a free display number; yields ``":N"`` and stops the server afterwards."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        raise GodotUnavailable("Xvfb is not installed (apt-get install xvfb)")
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        [xvfb, "-displayfd", str(write_fd), "-screen", "0", size, "-nolisten", "tcp", "-noreset"],
        pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=_die_with_parent,
    )
    os.close(write_fd)
    try:
        buf = b""
        deadline = time.monotonic() + 30
        while not buf.endswith(b"\n"):
            ready, _, _ = select.select([read_fd], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(read_fd, 64) if ready else b""
            if not chunk:
                dead = proc.poll() is not None and proc.stderr is not None
                err = proc.stderr.read().decode(errors="replace") if dead and proc.stderr else ""
                raise GodotUnavailable(f"Xvfb did not start: {err[-500:]}")
            buf += chunk
        yield f":{int(buf.strip())}"
    finally:
        os.close(read_fd)
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc.stderr:
            proc.stderr.close()


def start_godot(args: Sequence[str], display: str | None = None, install: bool = True,
                **popen: object) -> subprocess.Popen[str]:
    """``Popen`` a Godot with ``args`` (text mode); ``display`` is an X display such as ``":5"``."""
    env = godot_env(display, popen.pop("env", None))  # type: ignore[arg-type]
    popen.setdefault("text", True)
    return subprocess.Popen([*find_godot(install=install), *args], env=env, **popen)  # type: ignore[call-overload]


def run_godot(args: Sequence[str], *, display: bool = False, cwd: str | Path | None = None,
              timeout: float | None = None, capture: bool = False, install: bool = True,
              env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run Godot to completion. ``display=True`` starts a private Xvfb for it (and stops it)."""
    prefix = find_godot(install=install)
    kw: dict[str, object] = {"cwd": cwd, "timeout": timeout, "text": True}
    if capture:
        kw["capture_output"] = True
    with virtual_display() if display else contextlib.nullcontext(None) as disp:
        return subprocess.run([*prefix, *args], env=godot_env(disp, env), check=False, **kw)  # type: ignore[call-overload]


# --------------------------------------------------------------------------------------------- import

#: The file the editor writes when it has scanned the project's global class names.
CLASS_CACHE = Path(".godot") / "global_script_class_cache.cfg"
_SOURCE_SUFFIXES = (".gd", ".tscn", ".tres", ".cfg", ".gdshader")


def _sources_newer_than(project: Path, stamp: Path) -> bool:
    """Whether a Godot source of ``project`` (hidden folders and ``node_modules`` skipped) is newer
    than ``stamp``."""
    if not stamp.exists():
        return True
    seen = stamp.stat().st_mtime
    if (project / "project.godot").stat().st_mtime > seen:
        return True
    for folder, dirs, files in os.walk(project):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "node_modules" and d != "__pycache__"]
        for name in files:
            if name.endswith(_SOURCE_SUFFIXES) and os.stat(os.path.join(folder, name)).st_mtime > seen:
                return True
    return False


def import_project(project: str | Path = REPO, *, timeout: float = 600) -> bool:
    """Let the editor scan ``project`` once (global class names, resource imports) when its sources
    changed since the last scan. Returns True when it ran. Safe to call from several processes."""
    project = Path(project).resolve()
    if not (project / "project.godot").is_file():
        raise GodotUnavailable(f"{project} is not a Godot project (no project.godot)")
    stamp = project / CLASS_CACHE
    lock_path = project / ".godot" / "import.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _sources_newer_than(project, stamp):
            return False
        _log(f"importing the Godot project in {project} (class cache, resources)")
        out = run_godot(["--headless", "--xr-mode", "off", "--path", str(project), "--import"],
                        capture=True, timeout=timeout)
        if out.returncode != 0 or not stamp.exists():
            tail = "\n".join((out.stdout + out.stderr).strip().splitlines()[-20:])
            raise GodotUnavailable(f"`godot --import` failed (exit {out.returncode}):\n{tail}")
        stamp.touch()
        return True


def _project_of(args: Sequence[str]) -> Path | None:
    """The ``--path`` project of a Godot command line (None for ``--import``/editor runs or none)."""
    if "--import" in args or "-e" in args or "--editor" in args:
        return None
    for i, a in enumerate(args):
        if a == "--path" and i + 1 < len(args):
            return Path(args[i + 1])
        if a.startswith("--path="):
            return Path(a.split("=", 1)[1])
    return None


#: What Godot prints when a script cannot be used; the run is then useless (and may never quit).
SCRIPT_FAILURE = re.compile(r"(Parse Error|SCRIPT ERROR|Failed to load script|Could not find type \")")


def run_godot_checked(args: Sequence[str], *, display: bool = False, timeout: float = 300,
                      env: Mapping[str, str] | None = None) -> tuple[int, str]:
    """Run Godot, stopping it as soon as it reports a script failure, or after ``timeout`` seconds.

    Returns ``(exit code, output)``; the code is 1 with the failing line as the output's last line when
    Godot was stopped for a script failure, and 124 on a timeout. Output is stdout and stderr together.
    """
    prefix = find_godot(install=True)
    lines: list[str] = []
    with virtual_display() if display else contextlib.nullcontext(None) as disp:
        proc = subprocess.Popen([*prefix, *args], env=godot_env(disp, env), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_die_with_parent)
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        code: int | None = None
        failure: list[str] = []
        pending = b""
        try:
            while True:
                ready, _, _ = select.select([fd], [], [], max(0.0, min(1.0, deadline - time.monotonic())))
                chunk = os.read(fd, 65536) if ready else b""
                if ready and not chunk:
                    break  # Godot closed its output: it has ended
                pending += chunk
                *complete, pending = pending.split(b"\n")
                for raw in complete:
                    line = raw.decode(errors="replace").rstrip("\r")
                    lines.append(line)
                    if code is None and SCRIPT_FAILURE.search(line):
                        # Keep the next few lines (where the error is) for a moment, then stop.
                        code, failure, deadline = 1, [line.strip()], min(deadline, time.monotonic() + 3.0)
                    elif code == 1 and len(failure) < 3:
                        failure.append(line.strip())
                if code == 1 and len(failure) >= 3:
                    break
                if not ready and time.monotonic() >= deadline:
                    if code is None:
                        code = 124
                        lines.append(f"stopped: Godot did not finish within {timeout:.0f} s")
                    break
            if code == 1:
                lines.append("stopped: Godot reported a script failure: " + " ".join(failure))
        finally:
            if proc.poll() is None and code is not None:
                proc.kill()
            rc = proc.wait()
            proc.stdout.close()
    return (rc if code is None else code), "\n".join(lines)


def _interrupt(signum: int, _frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pyagent.godot", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_install = sub.add_parser("install", help="install Godot locally unless it is already there")
    p_install.add_argument("--force", action="store_true", help="reinstall even when the stamp says done")
    p_run = sub.add_parser("run", help="run Godot with the arguments after --")
    p_run.add_argument("--display", action="store_true", help="start a private Xvfb display for it")
    p_run.add_argument("args", nargs=argparse.REMAINDER)
    sub.add_parser("where", help="print the command that starts Godot")
    p_import = sub.add_parser("import", help="build the project's class cache when its sources changed")
    p_import.add_argument("--path", default=str(REPO), help="the Godot project folder (default: this one)")
    ns = parser.parse_args(argv)
    try:
        if ns.cmd == "install":
            system = None if ns.force else _system_godot()
            if system:
                print(f"using Godot on PATH: {system[0]}")
                return 0
            stamp = install_godot(force=ns.force)
            print(f"Godot {stamp.version} in {ROOT}")
            return 0
        if ns.cmd == "where":
            print(" ".join(find_godot()))
            return 0
        if ns.cmd == "import":
            ran = import_project(ns.path)
            print("Godot project imported" if ran else "Godot project already imported")
            return 0
        args = ns.args[1:] if ns.args[:1] == ["--"] else ns.args
        project = _project_of(args)
        if project is not None and (project / "project.godot").is_file():
            import_project(project)
        # Let Ctrl-C / SIGTERM reach Godot, and still stop our Xvfb afterwards.
        signal.signal(signal.SIGTERM, _interrupt)
        try:
            return run_godot(args, display=ns.display).returncode
        except KeyboardInterrupt:
            return 130
    except GodotUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
