"""Soak test: thousands of mixed commands and malformed messages, with real crashes in between.

    .venv/bin/python tests/bench/soak.py [--ifc ifc/AC20-FZK-Haus.ifc] [--commands 3000] [--kills 3]
                                         [--link-messages 3000] [--seed 1] [--json OUT]

Script phase: ``python -m pyagent script --ifc COPY --journal DIR`` is fed the lines (changes, queries,
utterances, and about a fifth malformed lines); at ``--kills`` random points it is SIGKILLed with a line in
flight and restarted; after every restart the restored state is compared with an agent that never crashed
(fed the same acknowledged lines, in process). Each line also goes to a process without a journal, as
the baseline for the journal's cost; it is restarted whenever the journaled process is, so that the
ratio compares like with like (a fresh process spends ~0.1 s warming up its parser, which 100 kills would
otherwise count against the journal).

Link phase: a child process serves a journaled session over the ZeroMQ link (``LinkServer``); an engine
stand-in sends poses at frame rate, changes and malformed frames; the child is SIGKILLed halfway and
restarted, and a fresh engine's ``welcome`` state is compared with the reference.

Reports: commands handled, errors returned, changes lost (must be 0), memory growth of the agent process
(VmRSS after warm-up vs. at the end), and ms per command with the journal vs. without (ratio; the baseline
process gets the same lines interleaved with the journaled one). Last, the same lines in one process over
three sessions (no journal; journal without fsync; journal with fsync) separate the journal's own
computation from the disk's fsync latency.
Exit status 1 if any change was lost.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "persistence"))

from persist_helpers import MALFORMED, ScriptProcess, change_lines, copy_ifc  # noqa: E402

from pyagent.script import handle_line  # noqa: E402
from pyagent.session import Session  # noqa: E402

QUERIES = [{"say": "how many windows are on the ground floor?"}, {"say": "where am I"},
           {"say": "hide the walls"}, {"say": "undo"}, {"say": "make it red"}, {"say": "turn around"},
           {"do": {"steps": [{"op": "count", "target": {"class": ["IfcDoor"]}}]}},
           {"do": {"steps": [{"op": "list", "target": {"class": ["IfcSpace"]}}]}}, {"state": True}]


@dataclass
class PhaseReport:
    name: str
    handled: int = 0
    errors: int = 0
    kills: int = 0
    changes_lost: int = 0
    mismatches: list[str] = field(default_factory=list)
    rss_start_mb: float = 0.0
    rss_end_mb: float = 0.0
    ms_per_command: float = 0.0
    baseline_ms_per_command: float = 0.0
    p99_ms: float = 0.0
    baseline_p99_ms: float = 0.0

    @property
    def growth_mb(self) -> float:
        return self.rss_end_mb - self.rss_start_mb

    def line(self) -> str:
        text = (f"{self.name}: {self.handled} commands handled, {self.errors} errors returned, {self.kills} kills, "
                f"{self.changes_lost} changes lost, memory {self.growth_mb:+.1f} MB "
                f"({self.rss_start_mb:.0f} -> {self.rss_end_mb:.0f} MB)")
        if self.baseline_ms_per_command:
            text += (f", {self.ms_per_command:.2f} ms/command with the journal vs {self.baseline_ms_per_command:.2f} "
                     f"without: {self.ms_per_command / self.baseline_ms_per_command:.2f}x (p99 {self.p99_ms:.1f} vs "
                     f"{self.baseline_p99_ms:.1f} ms)")
        return text


def make_lines(building: Any, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    changes = [json.dumps(x) for x in change_lines(building, rng, n)]
    out = []
    for line in changes:
        r = rng.random()
        if r < 0.2:
            out.append(rng.choice(MALFORMED) or "{}")
        elif r < 0.3:
            out.append(json.dumps(rng.choice(QUERIES)))
        else:
            out.append(line)
    return out[:n]


def lost(restored: dict[str, Any], expected: dict[str, Any]) -> int:
    """How many acknowledged changes are missing from ``restored`` (differing entries of the state)."""
    n = 0
    for key in ("hidden", "deleted"):
        n += len(set(restored[key]) ^ set(expected[key]))
    for key in ("colors", "transforms"):
        a, b = restored[key], expected[key]
        n += sum(1 for g in set(a) | set(b) if a.get(g) != b.get(g))
    ap = {p["id"]: p for p in restored["props"]}
    bp = {p["id"]: p for p in expected["props"]}
    n += sum(1 for g in set(ap) | set(bp) if ap.get(g) != bp.get(g))
    n += int(restored["selected"] != expected["selected"]) + int(restored["pose"] != expected["pose"])
    return n


def fork_reference(ref: Session) -> Session:
    """An independent copy of the reference session's mutable state (scene, history, dialogue); the
    building, its geometry and the parser are shared, read-only."""
    front = ref.front_end()
    shared = [ref.loaded, ref.building, ref.graph, ref.spatial]
    if front is not None:
        shared += [front.lexicon, front.parser]
    return copy.deepcopy(ref, {id(x): x for x in shared})


def script_phase(ifc: Path, lines: list[str], kills: int, seed: int, work: Path) -> PhaseReport:
    rep = PhaseReport("script")
    rng = random.Random(seed)
    ref = Session.open(ifc)
    journal = work / "journal"
    # Kills in the first 60 %, so that the last process runs long enough to show memory growth.
    kill_points = sorted(rng.sample(range(50, max(51 + kills, int(len(lines) * 0.6))), kills)) if kills else []
    done = 0
    since_start = 0
    timings: list[float] = []
    base_t: list[float] = []
    proc = ScriptProcess(ifc, journal)
    base = ScriptProcess(ifc)  # the baseline: no journal, same lines, interleaved so that load drift hits both
    for i, line in enumerate(lines):
        if kill_points and i == kill_points[0]:
            kill_points.pop(0)
            acknowledged = ref.state()
            before_inflight = fork_reference(ref)  # the reference as of the last acknowledged line
            proc.send_raw(line)  # in flight
            proc.kill()
            base.ask(line)
            base.close()  # the baseline starts afresh too, so that both pay the same warm-up after a restart
            base = ScriptProcess(ifc)
            rep.kills += 1
            handle_line(ref, line)
            with_inflight = ref.state()
            proc = ScriptProcess(ifc, journal)
            restored = proc.state()
            if restored == with_inflight:
                pass
            elif restored == acknowledged:
                # The in-flight line was lost (it was never acknowledged): so is it for the reference. Going
                # back to the copy, not replaying every earlier line, also forgets earlier lost lines.
                ref = before_inflight
            else:
                rep.changes_lost += min(lost(restored, acknowledged), lost(restored, with_inflight))
                rep.mismatches.append(f"after kill {rep.kills}: restored state differs")
            since_start = 0
            continue
        t = time.perf_counter()
        got = proc.ask(line)
        timings.append(time.perf_counter() - t)
        t = time.perf_counter()
        base.ask(line)
        base_t.append(time.perf_counter() - t)
        want = handle_line(ref, line)
        rep.handled += 1
        done += 1
        since_start += 1
        if got.get("ok") is False:
            rep.errors += 1
        if got != want and len(rep.mismatches) < 10:
            rep.mismatches.append(f"line {i}: answers differ: {line[:80]}")
        if since_start == 100:  # warmed up
            rep.rss_start_mb = proc.rss_kb() / 1024
    rep.rss_end_mb = proc.rss_kb() / 1024
    final = proc.state()
    proc.close()
    rep.changes_lost += lost(final, ref.state())
    after = ScriptProcess(ifc, journal)
    rep.changes_lost += lost(after.state(), ref.state())
    after.close()
    base.close()
    rep.ms_per_command = 1000 * statistics.fmean(timings)
    rep.baseline_ms_per_command = 1000 * statistics.fmean(base_t)
    rep.p99_ms = 1000 * statistics.quantiles(timings, n=100)[98]
    rep.baseline_p99_ms = 1000 * statistics.quantiles(base_t, n=100)[98]
    return rep


@dataclass
class JournalCost:
    """The journal's cost per command in one process, the same lines interleaved over three sessions."""

    base_ms: float
    cpu_ms: float  # journaled, without fsync: what the journal costs in computation
    synced_ms: float  # journaled, with fsync before each acknowledgement (the product)

    def line(self) -> str:
        return (f"journal cost in process: {self.base_ms:.2f} ms/command without a journal, {self.cpu_ms:.2f} "
                f"journaled without fsync ({self.cpu_ms / self.base_ms:.2f}x), {self.synced_ms:.2f} with fsync "
                f"({self.synced_ms / self.base_ms:.2f}x; the difference is the disk's fsync latency)")


def journal_cost(ifc: Path, lines: list[str], work: Path) -> JournalCost:
    sessions = [Session.open(ifc), Session.open(ifc, journal_dir=work / "cost-cpu", pose_interval_s=0.0),
                Session.open(ifc, journal_dir=work / "cost-sync", pose_interval_s=0.0)]
    journal = sessions[1].persistence.journal
    assert journal is not None
    journal.sync = False
    spent = [0.0, 0.0, 0.0]
    for line in lines:
        for i, session in enumerate(sessions):
            t = time.perf_counter()
            handle_line(session, line)
            spent[i] += time.perf_counter() - t
    for session in sessions:
        session.close()
    base, cpu, synced = (1000 * x / len(lines) for x in spent)
    return JournalCost(base, cpu, synced)


SERVE = """
import sys
from pyagent.link.server import LinkServer
from pyagent.session import Session
s = Session.open(sys.argv[1], journal_dir=sys.argv[2])
server = LinkServer(s, "tcp://127.0.0.1:*")
print(server.endpoint, flush=True)
server.run()
"""


def _serve(ifc: Path, journal: Path) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-c", SERVE, str(ifc), str(journal)], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    endpoint = proc.stdout.readline().strip()
    if not endpoint:
        raise RuntimeError("the link server did not start")
    return proc, endpoint


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        return next(int(x.split()[1]) for x in f if x.startswith("VmRSS:")) / 1024


def link_phase(ifc: Path, n: int, seed: int, work: Path) -> PhaseReport:
    import zmq

    rep = PhaseReport("link")
    rng = random.Random(seed)
    ref = Session.open(ifc)
    programs = [x["do"] for x in change_lines(ref.building, rng, 3 * n)
                if "do" in x and x["do"]["steps"][0]["op"] not in ("turn", "teleport", "add_prop")]
    journal = work / "link-journal"
    ctx = zmq.Context()

    def engine(endpoint: str) -> Any:
        sock = ctx.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.connect(endpoint)
        sock.send_json({"type": "hello", "protocol": 2})
        while True:
            msg = json.loads(sock.recv_multipart()[0])
            if msg["type"] == "welcome":
                return sock, msg["state"]

    pending: set[int] = set()

    def settle(sock: Any, t: int) -> None:
        """Wait (up to 60 s) for the results still pending, then for a pong: the last pose and every
        message sent before it have been applied."""
        end = time.monotonic() + 60
        while pending and time.monotonic() < end:
            if sock.poll(200):
                msg = json.loads(sock.recv_multipart()[0])
                if msg["type"] == "result":
                    pending.discard(msg["id"])
                    rep.handled += 1
        sock.send_json({"type": "ping", "t": t})
        while json.loads(sock.recv_multipart()[0]).get("type") != "pong":
            pass

    proc, endpoint = _serve(ifc, journal)
    sock, _ = engine(endpoint)
    sent = 0
    i = 0
    last_pose = None
    started_rss = 0.0
    while sent < n:
        kind = rng.random()
        if kind < 0.6:
            last_pose = {"position": [rng.uniform(1, 9), rng.uniform(1, 9), 1.6], "yaw": rng.uniform(-180, 180),
                         "pitch": 0.0}
            sock.send_json({"type": "pose", "pose": last_pose})
        elif kind < 0.8:
            program = programs[i % len(programs)]
            sock.send_json({"type": "do", "id": i, "program": program})
            pending.add(i)
            ref.do(program)
            i += 1
        else:
            sock.send_multipart([rng.choice([b"{", b"[]", b'{"type": "nope"}', b'{"type": "do", "id": 1}',
                                             b"\xff", b'{"type": "select", "ids": 7}'])])
        sent += 1
        while sock.poll(0):
            msg = json.loads(sock.recv_multipart()[0])
            if msg["type"] == "result":
                pending.discard(msg["id"])
                rep.handled += 1
                rep.errors += int(not msg["ok"])
            elif msg["type"] == "error":
                rep.errors += 1
        if sent == n // 10:
            started_rss = _rss_mb(proc.pid)
        if sent == n // 2:  # crash halfway, once every change sent so far is acknowledged
            settle(sock, 1)
            rep.rss_start_mb, rep.rss_end_mb = started_rss, _rss_mb(proc.pid)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            rep.kills += 1
            sock.close()
            proc, endpoint = _serve(ifc, journal)
            sock, welcome = engine(endpoint)
            expected = {**ref.state(), "pose": last_pose or ref.state()["pose"]}
            rep.changes_lost += lost(welcome, expected)
    settle(sock, 2)
    sock.close()
    other, welcome = engine(endpoint)
    rep.changes_lost += lost(welcome, {**ref.state(), "pose": last_pose or ref.state()["pose"]}) + len(pending)
    rep.handled = sent  # the server answers in order: the final pong means every message was handled
    other.close()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    ctx.term()
    return rep


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ifc", default=str(REPO / "ifc" / "AC20-FZK-Haus.ifc"))
    p.add_argument("--commands", type=int, default=3000)
    p.add_argument("--kills", type=int, default=3)
    p.add_argument("--link-messages", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", help="write the figures to this file")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        ifc = copy_ifc(Path(args.ifc), work / "model")
        lines = make_lines(Session.open(ifc).building, args.commands, args.seed)
        reports = [script_phase(ifc, lines, args.kills, args.seed, work)]
        if args.link_messages:
            reports.append(link_phase(ifc, args.link_messages, args.seed, work))
        cost = journal_cost(ifc, lines, work)
    for rep in reports:
        print(rep.line())
        for m in rep.mismatches:
            print(f"  {m}")
    print(cost.line())
    if args.json:
        Path(args.json).write_text(json.dumps({"phases": [{**asdict(r), "growth_mb": r.growth_mb} for r in reports],
                                               "journal_cost": asdict(cost)}, indent=2))
    return 1 if any(r.changes_lost or r.mismatches for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
