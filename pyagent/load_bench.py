"""First-load benchmark: for each shipped file and a few real files (the large Tekla one, and two with much
repeated geometry), a cold load (no cache) in a child process: time to first view (the fast kernel's pass),
time to full load, the child's peak memory and the glb's size (repeated geometry written once; and the
``unshared`` baseline, one mesh per element, written from the same meshes in the same process), against web-
ifc's open + StreamAllMeshes of the same file measured in the same run (node and web-ifc installed into
``.cache/web-ifc`` with ``--install-web-ifc``; the column is skipped with a note otherwise). Then the same
cold load as an engine sees it through ``serve`` (progressive: PROTOCOL.md, Streaming): from starting ``python
-m pyagent serve`` (interpreter start included) to the first view's glb in hand, and to the whole building in
hand (its second part, or the one model when nothing was left for a second pass)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from pyagent.paths import PROJECT_ROOT, cache_dir

WEB_IFC_VERSION = "0.0.78"
REAL_FILES = ("tekla_CO-ST-01.ifc", "tekla_TOYO_INK_Legkezelo.ifc", "revit2021_tested_sample_project.ifc")
TARGET_RATIO = 2.0  # full load <= 2x web-ifc
TARGET_FIRST_VIEW_S = 1.0  # for the shipped files
TARGET_BIG_S, TARGET_BIG_MB = 20.0, 300.0

_CHILD = """
import json, resource, sys, tempfile, time
from pathlib import Path
from pyagent import forked
from pyagent.glb import write_glb
from pyagent.loader import _glb_parts, load, save_cache
firsts = []
with tempfile.TemporaryDirectory(prefix="pyagent-loadbench-") as tmp:
    t = time.perf_counter()
    lb = load(sys.argv[1], cache=Path(tmp), use_cache=False, write_cache=False,
              first_view=lambda f: firsts.append(time.perf_counter() - t))
    total = time.perf_counter() - t
    t = time.perf_counter()
    save_cache(lb)  # as serve's loading process does once it has handed the building over
    cache_s = time.perf_counter() - t
    # the loader's own peak, or the loader's and the child's it forks to tessellate part of the building
    # together (pyagent.forked), whichever is more
    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, forked.peak_together_bytes) / 2**20
    glb = lb.glb_path.stat().st_size
    parts = _glb_parts(lb.building, lb.meshes)
    writes = {}
    for share in (True, False):
        t = time.perf_counter()
        stats = write_glb(parts, lb.meshes.materials, Path(tmp) / f"{share}.glb", share=share)
        writes[share] = (time.perf_counter() - t, stats.bytes)
print(json.dumps({"first_view_s": firsts[0] if firsts else total, "full_s": total, "glb_mb": glb / 2**20,
                  "peak_mb": peak, "elements": len(lb.building.products()),
                  "unshared_mb": writes[False][1] / 2**20, "write_glb_s": writes[True][0],
                  "write_unshared_s": writes[False][0], "cache_s": cache_s}))
"""


@dataclass
class LoadFigures:
    name: str
    elements: int
    first_view_s: float
    full_s: float
    peak_mb: float
    glb_mb: float
    web_ifc_s: float | None
    serve_first_s: float | None = None  # serve started -> the first view's glb received by an engine
    serve_full_s: float | None = None  # serve started -> the whole building received
    pending: int = 0  # elements the first view lacked (streamed as a second part)
    unshared_mb: float = 0.0  # the same glb without shared meshes (the baseline)
    write_glb_s: float = 0.0  # writing the glb again, shared and unshared, after the load
    write_unshared_s: float = 0.0
    cache_s: float = 0.0  # writing the cache for the next start, after the load (not in full_s)


def web_ifc_dir() -> Path:
    return cache_dir() / "web-ifc" / "node_modules" / "web-ifc"


def web_ifc_note() -> str | None:
    """Why web-ifc cannot be measured here, or None when it can."""
    if shutil.which("node") is None:
        return "node is not installed: web-ifc column skipped"
    if not (web_ifc_dir() / "web-ifc-api-node.js").is_file():
        return "web-ifc is not installed (python -m pyagent bench --install-web-ifc): column skipped"
    return None


def install_web_ifc() -> None:
    """``npm install`` the pinned web-ifc into ``.cache/web-ifc`` (a benchmark-only tool)."""
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is not installed: cannot install web-ifc")
    subprocess.run([npm, "install", "--no-audit", "--no-fund", "--no-save", "--prefix", str(cache_dir() / "web-ifc"),
                    f"web-ifc@{WEB_IFC_VERSION}"], check=True, timeout=600)


def files() -> list[Path]:
    from pyagent.language.evaluate import real_dir

    out = [PROJECT_ROOT / "ifc" / n for n in ("AC20-FZK-Haus.ifc", "duplex.ifc", "MiniProject.ifc")]
    real = real_dir()
    if real is not None:
        out += [real / n for n in REAL_FILES if (real / n).is_file()]
    return out


def measure_serve(path: Path, timeout_s: float = 900.0) -> tuple[float, float, int]:
    """Seconds from starting ``serve`` on ``path`` (cold: a fresh cache) until an engine stand-in holds the
    first view's glb, and until it holds the whole building; and how many elements came as a second part."""
    import zmq

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        endpoint = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    ctx = zmq.Context()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    with tempfile.TemporaryDirectory(prefix="pyagent-servebench-") as tmp:
        env = dict(os.environ, PYAGENT_CACHE=tmp, PYTHONPATH=str(PROJECT_ROOT))
        log = open(Path(tmp) / "serve.log", "w+", encoding="utf-8")  # noqa: SIM115 - closed below
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "pyagent", "serve", "--ifc", str(path), "--endpoint", endpoint,
                                 "--no-speech", "--no-journal", "-q"], cwd=PROJECT_ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=log)
        try:
            sock.connect(endpoint)
            sock.send_json({"type": "hello", "protocol": 2})  # as an engine does on connecting (zmq queues it)
            first_s = full_s = -1.0
            pending = 0
            while time.perf_counter() - t0 < timeout_s and full_s < 0:
                if proc.poll() is not None:
                    log.seek(0)
                    raise RuntimeError(f"serve {path.name} ended (exit {proc.returncode}): {log.read()[-2000:]}")
                if not sock.poll(500):
                    if first_s < 0:
                        sock.send_json({"type": "hello", "protocol": 2})  # not heard yet: say it again
                    continue
                frames = sock.recv_multipart()
                msg = json.loads(frames[0])
                if msg["type"] == "welcome" and first_s < 0:
                    pending = int(msg["model"].get("pending", 0))
                    sock.send_json({"type": "get_model", "hash": msg["model"]["hash"]})
                elif msg["type"] == "model" and first_s < 0:
                    first_s = time.perf_counter() - t0
                    if not pending:
                        full_s = first_s
                elif msg["type"] == "model_part":
                    full_s = time.perf_counter() - t0
            if full_s < 0:
                raise RuntimeError(f"serve {path.name}: no whole building within {timeout_s:g} s")
            return first_s, full_s, pending
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            sock.close()
            ctx.term()
            log.close()


#: Cold loads (and web-ifc runs) per file: the fastest of each side is reported (on a shared machine a single
#: run of a sub-second load varies by a fifth either way).
RUNS = 3


def measure(path: Path, timeout_s: float = 900.0, serve: bool = True, runs: int = RUNS) -> LoadFigures:
    loads = []
    for _ in range(max(1, runs)):
        got = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True, text=True, check=True,
                             timeout=timeout_s, cwd=PROJECT_ROOT)
        loads.append(json.loads(got.stdout.strip().splitlines()[-1]))
    d = min(loads, key=lambda x: float(x["full_s"]))
    d["peak_mb"] = max(float(x["peak_mb"]) for x in loads)  # memory: the most any run needed
    web: float | None = None
    node = shutil.which("node")
    if web_ifc_note() is None and node is not None:
        webs = []
        for _ in range(max(1, runs)):
            w = subprocess.run([node, str(Path(__file__).with_name("webifc_mesh.js")), str(web_ifc_dir()), str(path)],
                               capture_output=True, text=True, check=True, timeout=timeout_s)
            webs.append(float(json.loads(w.stdout.strip().splitlines()[-1])["open_mesh_s"]))
        web = min(webs)
    figs = LoadFigures(path.name, int(d["elements"]), float(d["first_view_s"]), float(d["full_s"]),
                       float(d["peak_mb"]), float(d["glb_mb"]), web, unshared_mb=float(d["unshared_mb"]),
                       write_glb_s=float(d["write_glb_s"]), write_unshared_s=float(d["write_unshared_s"]),
                       cache_s=float(d["cache_s"]))
    if serve:
        figs.serve_first_s, figs.serve_full_s, figs.pending = measure_serve(path, timeout_s)
    return figs


@dataclass
class SharingCheck:
    """Tessellating repeated shapes once against tessellating every product (``tessellate(share=...)``)."""

    name: str
    products: int
    tessellated: int  # products the kernel made with sharing (the others were placed copies)
    same_elements: bool
    max_box_diff_m: float  # largest difference of a box corner, metres
    shared_s: float
    each_s: float

    def line(self) -> str:
        ok = self.same_elements and self.max_box_diff_m <= 1e-6
        return (f"{'ok  ' if ok else 'FAIL'} {self.name}: {self.tessellated} of {self.products} products tessellated, "
                f"same elements {self.same_elements}, boxes within {self.max_box_diff_m:.1e} m; "
                f"{self.shared_s:.1f} s instead of {self.each_s:.1f} s")


def check_sharing(path: Path) -> SharingCheck:
    """Tessellate ``path`` with and without sharing repeated shapes and compare the element sets and boxes."""
    import numpy as np

    from pyagent.ifcfile import open_ifc
    from pyagent.meshfacts import MeshFacts
    from pyagent.shapekeys import group_by_shape
    from pyagent.tessellate import _products, tessellate

    model = open_ifc(path)
    copies = group_by_shape(model, _products(model))
    t = time.perf_counter()
    each, _ = tessellate(model, share=False)
    each_s = time.perf_counter() - t
    t = time.perf_counter()
    shared, _ = tessellate(model, share=True)
    shared_s = time.perf_counter() - t
    same = sorted(each.ids) == sorted(shared.ids)
    fe, fs = MeshFacts.of(each), MeshFacts.of(shared)
    ie, is_ = each.index(), shared.index()
    common = sorted(set(each.ids) & set(shared.ids))
    a = np.array([ie[g] for g in common], np.int64)
    b = np.array([is_[g] for g in common], np.int64)
    diff = 0.0
    if len(common):
        diff = float(max(np.abs(fe.bbox_min[a] + each.origin - fs.bbox_min[b] - shared.origin).max(),
                         np.abs(fe.bbox_max[a] + each.origin - fs.bbox_max[b] - shared.origin).max()))
    return SharingCheck(path.name, len(copies.first) + copies.placed, len(copies.first), same, diff, shared_s, each_s)


def format_table(figs: list[LoadFigures]) -> str:
    head = (f"{'file':<36} {'elements':>8} {'first view s':>12} {'full s':>8} {'cache s':>7} {'peak MB':>8} "
            f"{'glb MB':>7} {'unshared':>8} {'ratio':>6} {'web-ifc s':>9} {'full/web-ifc':>12} {'pending':>7} "
            f"{'serve 1st s':>11} {'serve full s':>12}")
    lines = [f"First load (cold, no cache; each in its own process; the fastest of {RUNS} runs, web-ifc's too; "
             "peak: the most of any run). glb MB: repeated geometry written once;",
             "unshared: the same meshes written one mesh per element, in the same process", head, "-" * len(head)]
    for f in figs:
        web = f"{f.web_ifc_s:9.2f}" if f.web_ifc_s is not None else f"{'-':>9}"
        ratio = f"{f.full_s / f.web_ifc_s:11.1f}x" if f.web_ifc_s else f"{'-':>12}"
        shrink = f"{f.glb_mb / f.unshared_mb:6.2f}" if f.unshared_mb else f"{'-':>6}"
        served = (f"{f.pending:>7} {f.serve_first_s:11.2f} {f.serve_full_s:12.2f}"
                  if f.serve_first_s is not None and f.serve_full_s is not None else f"{'-':>7} {'-':>11} {'-':>12}")
        lines.append(f"{f.name:<36} {f.elements:>8} {f.first_view_s:12.2f} {f.full_s:8.2f} {f.cache_s:7.2f} "
                     f"{f.peak_mb:8.0f} {f.glb_mb:7.2f} {f.unshared_mb:8.2f} {shrink} {web} {ratio} {served}")
    lines.append("first view / full: the loader alone, until the building and its glb are ready; cache: writing the "
                 "cache for the next start after that (serve's loading process does it once the link has the building)")
    lines.append("serve 1st / full: python -m pyagent serve started -> an engine holds the first view / the whole "
                 "building (pending: elements in its second part)")
    note = web_ifc_note()
    if note:
        lines.append(note)
    return "\n".join(lines)


def check_targets(figs: list[LoadFigures]) -> list[str]:
    out = []
    shipped = {"AC20-FZK-Haus.ifc", "duplex.ifc", "MiniProject.ifc"}
    for f in figs:
        if f.web_ifc_s:
            r = f.full_s / f.web_ifc_s
            out.append(f"{'ok  ' if r <= TARGET_RATIO else 'MISS'} {f.name}: full load {r:.1f}x web-ifc "
                       f"(target <= {TARGET_RATIO:g}x)")
        if f.name in shipped:
            out.append(f"{'ok  ' if f.first_view_s <= TARGET_FIRST_VIEW_S else 'MISS'} {f.name}: first view "
                       f"{f.first_view_s:.2f} s (target <= {TARGET_FIRST_VIEW_S:g} s)")
            if f.serve_first_s is not None:
                out.append(f"{'ok  ' if f.serve_first_s <= TARGET_FIRST_VIEW_S else 'MISS'} {f.name}: first view "
                           f"through serve {f.serve_first_s:.2f} s, whole building {f.serve_full_s:.2f} s "
                           f"(target <= {TARGET_FIRST_VIEW_S:g} s)")
        else:
            ok = f.full_s <= TARGET_BIG_S and f.peak_mb <= TARGET_BIG_MB
            out.append(f"{'ok  ' if ok else 'MISS'} {f.name}: full load {f.full_s:.1f} s, peak {f.peak_mb:.0f} MB "
                       f"(target <= {TARGET_BIG_S:g} s and <= {TARGET_BIG_MB:g} MB)")
    return out
