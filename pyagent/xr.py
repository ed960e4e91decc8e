"""An OpenXR runtime for running the headset app without a headset: Monado with a remote-driven
simulated headset and controllers, rendering on Mesa's software Vulkan driver (lavapipe).

``install`` unpacks Debian unstable's ``monado-service``, ``libopenxr1-monado``, ``monado-cli`` and
``mesa-vulkan-drivers`` -- together with ``godot`` and its GL stack, so that Godot, the runtime it
loads into its process and the Vulkan driver all come from one consistent set of libraries -- into
``.cache/xr/root`` the way :mod:`pyagent.godot` installs Godot: a private apt state, a signed
package index (never ``[trusted=yes]``), ``dpkg -x``, a stamp file (idempotent). Nothing touches the
system.

``monado()`` starts ``monado-service`` with Monado's *remote* builder (a headset and two Index-style
controllers whose poses and buttons are set over a TCP socket, see :class:`RemoteRig`) and its null
compositor (no display needed: frames are submitted, timed and released). The scene tests drive the
remote driver's socket ("mndrmt3" packets, see ``tests/godot/monado_remote.gd``). Clients get
``XR_RUNTIME_JSON`` pointing at a manifest with the absolute path of the unpacked runtime.

Command line::

    python -m pyagent xr install             # idempotent
    python -m pyagent xr where               # the root and the manifests
    python -m pyagent xr run -- --path .     # Monado + Xvfb + the app in XR mode (Vulkan)
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pyagent import godot as gd

CACHE = gd.REPO / ".cache" / "xr"
ROOT = CACHE / "root"
STAMP = CACHE / "stamp.json"
#: Godot and its GL stack (see pyagent.godot) plus the OpenXR runtime and the software Vulkan driver.
PACKAGES = (*gd.PACKAGES, "monado-service", "libopenxr1-monado", "monado-cli", "mesa-vulkan-drivers")
#: Library folders: Debian's BLAS/LAPACK live in alternatives folders that dpkg -x does not link.
LIB_DIRS = (*gd.LIB_DIRS, f"{gd.MULTIARCH}/lapack", f"{gd.MULTIARCH}/blas")
SERVICE = "usr/bin/monado-service"
RUNTIME_LIB = f"{gd.MULTIARCH}/libopenxr_monado.so"
LVP_LIB = f"{gd.MULTIARCH}/libvulkan_lvp.so"


class XrUnavailable(RuntimeError):
    """The runtime cannot be installed or started here."""


def _log(msg: str) -> None:
    print(f"[xr] {msg}", file=sys.stderr, flush=True)


def installed(root: Path = ROOT) -> bool:
    """Whether ``install`` completed (the stamp and the binaries are there)."""
    return gd.Stamp.read(STAMP) is not None and (root / SERVICE).is_file() and (root / RUNTIME_LIB).is_file()


def install(force: bool = False) -> gd.Stamp:
    """Install the runtime into ``.cache/xr/root`` (a no-op when the stamp says it is there)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = gd.Stamp.read(STAMP)
        if stamp is not None and installed() and not force:
            return stamp
        if shutil.which("apt-get") is None or shutil.which("dpkg") is None:
            raise XrUnavailable("apt-get and dpkg are needed to install the OpenXR runtime locally")
        started = time.monotonic()
        try:
            with tempfile.TemporaryDirectory(dir=CACHE, prefix="work-") as tmp:
                work = Path(tmp)
                _log(f"apt update ({gd.SUITE}) in a private state dir, signed index only")
                gd._apt_update(work, allow_unsigned=False)
                pkgs = gd._closure(work, PACKAGES)
                missing = [p for p in ("monado-service", "libopenxr1-monado", "mesa-vulkan-drivers")
                           if not any(q.startswith(p + "=") for q in pkgs)]
                if missing:
                    raise XrUnavailable(f"apt did not resolve {', '.join(missing)} from {gd.SUITE}")
                debs = work / "debs"
                debs.mkdir()
                _log(f"downloading {len(pkgs)} packages")
                gd._run(["apt-get", *gd._apt_options(work), "download", *pkgs], cwd=debs)
                staging = work / "root"
                staging.mkdir()
                files = sorted(debs.glob("*.deb"))
                _log(f"unpacking {len(files)} packages")
                for deb in files:
                    gd._run(["dpkg", "-x", str(deb), str(staging)])
                version = gd._probe_version(_prefix(staging, gd.BINARY))
                if version is None:
                    raise XrUnavailable("the unpacked Godot does not start (`--headless --version` failed)")
                if ROOT.exists():
                    shutil.rmtree(ROOT)
                staging.replace(ROOT)
        except gd.GodotUnavailable as exc:
            raise XrUnavailable(str(exc)) from exc
        _write_manifests()
        stamp = gd.Stamp(".".join(map(str, version)), pkgs, time.time())
        stamp.write(STAMP)
        _log(f"Monado, lavapipe and Godot {stamp.version} installed in {ROOT} "
             f"({time.monotonic() - started:.0f} s)")
        return stamp


def _write_manifests(root: Path = ROOT) -> None:
    """Copies of the runtime's and the Vulkan driver's manifests with absolute library paths."""
    runtime = {"file_format_version": "1.0.0",
               "runtime": {"name": "Monado (private)", "library_path": str(root / RUNTIME_LIB)}}
    (CACHE / "openxr_monado.json").write_text(json.dumps(runtime, indent=1))
    icd = json.loads((root / "usr/share/vulkan/icd.d/lvp_icd.json").read_text())
    icd["ICD"]["library_path"] = str(root / LVP_LIB)
    (CACHE / "lvp_icd.json").write_text(json.dumps(icd, indent=1))


def _prefix(root: Path, binary: str) -> list[str]:
    libs = ":".join(str(root / d) for d in LIB_DIRS if (root / d).is_dir())
    return [str(root / gd.LOADER), "--library-path", libs, str(root / binary)]


def godot_prefix() -> list[str]:
    """The argv prefix that starts the Godot unpacked next to the runtime (same libraries)."""
    if not installed():
        raise XrUnavailable("the OpenXR runtime is not installed: run `python -m pyagent xr install`")
    return _prefix(ROOT, gd.BINARY)


def client_env(session: MonadoSession | None = None, display: str | None = None,
               base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Environment for an OpenXR client (Godot) of ``session``: the runtime manifest, lavapipe as
    the only Vulkan driver, Mesa's GL drivers from the private root, and the session's IPC folder."""
    env = dict(os.environ if base is None else base)
    env.update({
        "XR_RUNTIME_JSON": str(CACHE / "openxr_monado.json"),
        "VK_DRIVER_FILES": str(CACHE / "lvp_icd.json"),
        "VK_ICD_FILENAMES": str(CACHE / "lvp_icd.json"),
        "LIBGL_DRIVERS_PATH": str(ROOT / gd.MULTIARCH / "dri"),
        "__EGL_VENDOR_LIBRARY_DIRS": str(ROOT / "usr/share/glvnd/egl_vendor.d"),
        "GCONV_PATH": str(ROOT / gd.MULTIARCH / "gconv"),
    })
    if session is not None:
        env["XDG_RUNTIME_DIR"] = str(session.runtime_dir)
    if display is not None:
        env["DISPLAY"] = display
    return env


# --------------------------------------------------------------------------------------------- service


@dataclass
class MonadoSession:
    """A running ``monado-service``."""

    proc: subprocess.Popen[bytes]
    runtime_dir: Path
    remote_port: int
    log: Path
    _stdin_keep: list[object] = field(default_factory=list)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def monado(workdir: Path | None = None, timeout: float = 30.0) -> Iterator[MonadoSession]:
    """Start ``monado-service`` (remote headset and controllers, null compositor) in a private IPC
    folder and with its remote port on a free loopback port; stop it afterwards."""
    if not installed():
        raise XrUnavailable("the OpenXR runtime is not installed: run `python -m pyagent xr install`")
    with contextlib.ExitStack() as stack:
        base = Path(workdir) if workdir is not None else Path(stack.enter_context(
            tempfile.TemporaryDirectory(prefix="bimvoice-xr-")))
        runtime_dir = base / "run"
        config = base / "config"
        (config / "monado").mkdir(parents=True, exist_ok=True)
        runtime_dir.mkdir(parents=True, exist_ok=True)
        runtime_dir.chmod(0o700)
        port = _free_port()
        # view_count is needed: without it Monado 25 ignores the port and listens on 4242.
        (config / "monado" / "config_v0.json").write_text(
            json.dumps({"remote": {"version": 0, "port": port, "view_count": 2}}))
        env = client_env()
        env.update({"XDG_RUNTIME_DIR": str(runtime_dir), "XDG_CONFIG_HOME": str(config),
                    "P_OVERRIDE_ACTIVE_CONFIG": "remote", "XRT_COMPOSITOR_NULL": "1",
                    "XRT_COMPOSITOR_LOG": "info"})
        log = base / "monado.log"
        out = stack.enter_context(log.open("wb"))
        # The service watches stdin (epoll) and fails on /dev/null: give it a pipe that stays open.
        proc = subprocess.Popen(_prefix(ROOT, SERVICE), stdin=subprocess.PIPE, stdout=out,
                                stderr=subprocess.STDOUT, env=env, start_new_session=True,
                                preexec_fn=gd._die_with_parent)
        session = MonadoSession(proc, runtime_dir, port, log)
        try:
            _wait_ready(session, timeout)
            yield session
        finally:
            stop(session)


def _wait_ready(session: MonadoSession, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    sock = session.runtime_dir / "monado_comp_ipc"
    while time.monotonic() < deadline:
        if session.proc.poll() is not None:
            raise XrUnavailable(f"monado-service exited ({session.proc.returncode}):\n{session.log_text()[-3000:]}")
        # Ready: both sockets listen. Looked up in /proc, not probed: a connection that closes while
        # the service initialises can leave it unable to accept the real client.
        if _listening_unix(sock) and _listening_tcp(session.remote_port):
            return
        time.sleep(0.2)
    raise XrUnavailable(f"monado-service did not get ready in {timeout:.0f} s:\n{session.log_text()[-3000:]}")


def _listening_unix(path: Path) -> bool:
    """Whether a Unix stream socket at ``path`` is listening (``/proc/net/unix``, flag ACCEPTCON)."""
    try:
        lines = Path("/proc/net/unix").read_text().splitlines()[1:]
    except OSError:
        return path.exists()
    return any(line.split()[-1] == str(path) and line.split()[3] == "00010000" for line in lines
               if len(line.split()) >= 8)


def _listening_tcp(port: int) -> bool:
    """Whether something listens on TCP ``port`` (``/proc/net/tcp``/``tcp6``, state 0A)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 3 and fields[1].endswith(f":{port:04X}") and fields[3] == "0A":
                return True
    return False


def stop(session: MonadoSession) -> None:
    """Stop the service (no-op when it already ended)."""
    if session.proc.poll() is None:
        session.proc.terminate()
        try:
            session.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            session.proc.kill()
            session.proc.wait()
    if session.proc.stdin is not None:
        session.proc.stdin.close()


# --------------------------------------------------------------------------------------------- CLI


def run_app(args: Sequence[str], timeout: float | None = None) -> int:
    """Monado + a private Xvfb + the app (Godot, Vulkan renderer) in XR mode; returns Godot's code."""
    install()
    with monado() as session, gd.virtual_display() as display:
        _log(f"Monado running (pid {session.pid}); remote driver on 127.0.0.1:{session.remote_port}")
        env = client_env(session, display)
        try:
            done = subprocess.run([*godot_prefix(), "--rendering-driver", "vulkan", *args], env=env,
                                  timeout=timeout, check=False)
        except KeyboardInterrupt:
            return 130
        return done.returncode


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pyagent xr", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_install = sub.add_parser("install", help="install Monado, lavapipe and Godot privately")
    p_install.add_argument("--force", action="store_true")
    sub.add_parser("where", help="print the private root and the manifests")
    p_run = sub.add_parser("run", help="start Monado and run Godot in XR mode with the arguments after --")
    p_run.add_argument("args", nargs=argparse.REMAINDER)
    ns = parser.parse_args(argv)
    try:
        if ns.cmd == "install":
            stamp = install(force=ns.force)
            print(f"Monado + Godot {stamp.version} in {ROOT}")
            return 0
        if ns.cmd == "where":
            print(f"root: {ROOT}\nXR_RUNTIME_JSON={CACHE / 'openxr_monado.json'}\n"
                  f"VK_DRIVER_FILES={CACHE / 'lvp_icd.json'}\ngodot: {' '.join(godot_prefix())}")
            return 0
        args = ns.args[1:] if ns.args[:1] == ["--"] else ns.args
        project = gd._project_of(args)
        if project is not None and (project / "project.godot").is_file():
            gd.import_project(project)
        signal.signal(signal.SIGTERM, gd._interrupt)
        return run_app(args)
    except (XrUnavailable, gd.GodotUnavailable) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
