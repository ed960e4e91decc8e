"""The language benchmark: utterances with poses and expected outcomes on the three shipped IFC files.

Each case (``tests/language/benchmark.jsonl``, one JSON object per line) says who stands where, what was
said before, what is said now, and the action program that does what the person means (``gold``). The
expected outcome is what that gold program does in a fresh session with the same pose and setup; the
front end passes a case when ``session.say`` gives the same outcome:

- ``value``: both succeed and the machine values are equal (numbers within 1 % or 0.02 m, counts exactly,
  lists of GlobalIds as sets, strings case-insensitively; ids and names compare by the elements' labels);
- ``state``: both succeed and the scene states are equal: sets of ids; colours as people name them
  (alpha within 0.15 and every channel within 0.15, or both vivid with hues within 25 degrees, so any
  "red" is red but light grey is not white); transforms within 0.02 m / 1 degree; props by asset and
  floor position within 0.5 m; the pose within 0.3 m and 10 degrees of yaw, or, for cases marked
  ``"pose_check": "room"`` (take me to the kitchen), in the same room on the same storey;
- ``both``: value and state;
- ``fail``: the right outcome is a refusal or a question back: ``ok`` is false and nothing changed.

Setup lines are script-contract lines (``pose``, ``select``, ``do``, ``say``). A ``say`` line in a setup
carries its own gold program under ``"gold"``: the front end hears the words, the gold run executes the
program, so a follow-up ("make it red", "and upstairs?") is judged on the whole dialogue.

    python -m pyagent.language.evaluate [--file NAME] [--verbose] [--llm] [--cases PATH] [--no-blind]

prints accuracy by category x difficulty, by file and overall, and the latency of ``session.say``; run
on the dev benchmark, it then scores every blind set in ``tests/language/blind/`` (one line each, by
building; their first-run scores are kept in that folder's ``LEDGER.md``).
It always exits 0: it is a report. ``tests/language/test_benchmark.py`` holds the assertions.
"""

from __future__ import annotations

import argparse
import colorsys
import json
import math
import re
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyagent.model import Building, Pose
from pyagent.paths import PROJECT_ROOT

DEFAULT_CASES = PROJECT_ROOT / "tests" / "language" / "benchmark.jsonl"
BLIND_DIR = PROJECT_ROOT / "tests" / "language" / "blind"
IFC_DIR = PROJECT_ROOT / "ifc"
FILES = ("AC20-FZK-Haus.ifc", "duplex.ifc", "MiniProject.ifc")
# Public sample buildings kept beside the checkout (``../shared/ifc/real/``, not in the repository):
# cases name them ``real/<file>``; their sets are skipped where the folder is absent.
REAL_PREFIX = "real/"
# Public buildings with rooms kept in the repository (``tests/language/buildings/``, listed in its README):
# cases name them ``buildings/<file>``.
BUILDINGS_PREFIX = "buildings/"
BUILDINGS_DIR = PROJECT_ROOT / "tests" / "language" / "buildings"


def real_dir() -> Path | None:
    """The shared folder of real sample buildings, if one lies beside this checkout (or a parent)."""
    for parent in PROJECT_ROOT.parents:
        candidate = parent / "shared" / "ifc" / "real"
        if candidate.is_dir():
            return candidate
    return None


def ifc_path(name: str, ifc_dir: Path = IFC_DIR) -> Path:
    """Where the case's building is: a shipped file in ``ifc/``, ``real/<file>`` in the shared folder or
    ``buildings/<file>`` in ``tests/language/buildings/``."""
    if name.startswith(BUILDINGS_PREFIX):
        return BUILDINGS_DIR / name[len(BUILDINGS_PREFIX):]
    if name.startswith(REAL_PREFIX):
        base = real_dir()
        if base is None:
            raise FileNotFoundError(f"{name}: the shared folder of real buildings (../shared/ifc/real) is absent")
        return base / name[len(REAL_PREFIX):]
    return ifc_dir / name
CATEGORIES = ("change", "general", "spatial")
DIFFICULTIES = ("easy", "hard")
CHECKS = ("value", "state", "both", "fail")
POSE_CHECKS = ("exact", "room")
FIELDS = {"id", "ifc", "pose", "setup", "say", "category", "difficulty", "gold", "check", "note", "pose_check"}

REL_TOL = 0.01
ABS_TOL_M = 0.02
COLOR_TOL = 0.15
HUE_TOL_DEG = 25.0
MOVE_TOL_M = 0.02
ROTATE_TOL_DEG = 1.0
POSE_TOL_M = 0.3
YAW_TOL_DEG = 10.0
PROP_TOL_M = 0.5

_GID = re.compile(r"^[0-9A-Za-z_$]{22}$")


# ---- cases --------------------------------------------------------------------------------------
@dataclass
class Case:
    id: str
    ifc: str
    pose: dict[str, Any]
    say: str
    category: str
    difficulty: str
    gold: dict[str, Any]
    check: str
    setup: list[dict[str, Any]] = field(default_factory=list)
    note: str = ""
    pose_check: str = "exact"  # "room": a camera move is right when it ends in the same room and storey

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Case:
        extra = set(data) - FIELDS
        if extra:
            raise ValueError(f"unknown case fields {sorted(extra)}")
        missing = {"id", "ifc", "pose", "say", "category", "difficulty", "gold", "check"} - set(data)
        if missing:
            raise ValueError(f"missing case fields {sorted(missing)}")
        case = cls(id=str(data["id"]), ifc=data["ifc"], pose=data["pose"], say=data["say"],
                   category=data["category"], difficulty=data["difficulty"], gold=data["gold"],
                   check=data["check"], setup=list(data.get("setup") or []), note=data.get("note", ""),
                   pose_check=data.get("pose_check", "exact"))
        problems = case.problems()
        if problems:
            raise ValueError("; ".join(problems))
        return case

    def problems(self) -> list[str]:
        out = []
        real = any(self.ifc.startswith(prefix) and "/" not in self.ifc[len(prefix):] and self.ifc.endswith(".ifc")
                   for prefix in (REAL_PREFIX, BUILDINGS_PREFIX))
        if self.ifc not in FILES and not real:
            out.append(f"ifc must be one of {FILES}, real/<file>.ifc or buildings/<file>.ifc")
        if self.category not in CATEGORIES:
            out.append(f"category must be one of {CATEGORIES}")
        if self.difficulty not in DIFFICULTIES:
            out.append(f"difficulty must be one of {DIFFICULTIES}")
        if self.check not in CHECKS:
            out.append(f"check must be one of {CHECKS}")
        if self.pose_check not in POSE_CHECKS:
            out.append(f"pose_check must be one of {POSE_CHECKS}")
        if not isinstance(self.say, str) or not self.say.strip():
            out.append("say must be a non-empty string")
        if not isinstance(self.gold, dict):
            out.append("gold must be an action program")
        try:
            Pose.from_json(self.pose)
        except (KeyError, TypeError, ValueError) as exc:
            out.append(f"bad pose: {exc}")
        for line in self.setup:
            if not isinstance(line, dict):
                out.append("setup lines must be objects")
            elif "say" in line:
                if set(line) != {"say", "gold"}:
                    out.append("a setup say line needs exactly 'say' and its 'gold' program")
            elif len(line) != 1 or next(iter(line)) not in ("pose", "select", "do"):
                out.append("setup lines are {pose|select|do: ...} or {say, gold}")
        return out


def load_cases(path: Path = DEFAULT_CASES, ifc: str | None = None) -> list[Case]:
    cases = []
    seen: set[str] = set()
    with open(path, encoding="utf-8") as fh:
        for n, raw in enumerate(fh, 1):
            line = raw.strip()
            if not line or line.startswith("//"):
                continue
            try:
                case = Case.from_json(json.loads(line))
            except (json.JSONDecodeError, ValueError) as exc:
                raise ValueError(f"{path}:{n}: {exc}") from exc
            if case.id in seen:
                raise ValueError(f"{path}:{n}: duplicate case id {case.id}")
            seen.add(case.id)
            if ifc is None or case.ifc == ifc or Path(case.ifc).stem == Path(ifc).stem:
                cases.append(case)
    return cases


# ---- sessions -----------------------------------------------------------------------------------
class Sessions:
    """One loaded building per file; every case gets a fresh Session on it (fresh scene, history, memory)."""

    def __init__(self, ifc_dir: Path = IFC_DIR, use_llm: bool = False) -> None:
        self.ifc_dir = ifc_dir
        self.use_llm = use_llm
        self._loaded: dict[str, tuple[Any, Any, Any]] = {}
        self.load_s: dict[str, float] = {}

    def fresh(self, ifc: str) -> Any:
        from pyagent.session import Session

        if ifc not in self._loaded:
            t = time.perf_counter()
            s = Session.open(ifc_path(ifc, self.ifc_dir))
            self._loaded[ifc] = (s.loaded, s.graph, s.spatial)
            self.load_s[ifc] = time.perf_counter() - t
        return Session(*self._loaded[ifc])

    def front_ready(self, session: Any) -> None:
        """Build the front end before timing anything, with or without the LLM fallback."""
        front = session.front_end()
        if front is not None and hasattr(front, "use_llm"):
            front.use_llm = self.use_llm
        if front is not None and hasattr(front, "warm_parser"):
            front.warm_parser()  # as `serve` does when it opens a building


# ---- outcomes -----------------------------------------------------------------------------------
@dataclass
class Outcome:
    ok: bool
    value: Any
    state: dict[str, Any]
    before: dict[str, Any]
    program: dict[str, Any] | None = None
    answer: str = ""
    error: str | None = None
    say_s: float = 0.0
    parse_s: float | None = None
    setup_errors: list[str] = field(default_factory=list)
    crashed: str | None = None  # the front end raised instead of answering


def _setup(session: Any, case: Case, gold: bool) -> list[str]:
    from pyagent.script import handle_line

    errors = []
    for line in case.setup:
        if "say" in line:
            msg = {"do": line["gold"]} if gold else {"say": line["say"]}
        else:
            msg = line
        out = handle_line(session, json.dumps(msg))
        if not out.get("ok", False):
            errors.append(f"{json.dumps(msg, ensure_ascii=False)[:120]} -> {out.get('error') or out.get('answer')}")
    return errors


def run_case(sessions: Sessions, case: Case, gold: bool) -> Outcome:
    """Run a case in a fresh session: the gold program (gold=True) or the utterance through session.say."""
    from pyagent.script import _clean

    session = sessions.fresh(case.ifc)
    if not gold:
        sessions.front_ready(session)
    session.set_pose(Pose.from_json(case.pose))
    try:
        setup_errors = _setup(session, case, gold)
    except Exception as exc:  # a crashing front end is a failed case, not a failed benchmark
        state = _clean(session.state())
        return Outcome(False, None, state, state, crashed=f"in setup: {type(exc).__name__}: {exc}")
    before = _clean(session.state())
    t = time.perf_counter()
    try:
        result = session.do(case.gold) if gold else session.say(case.say)
    except Exception as exc:
        return Outcome(False, None, _clean(session.state()), before, say_s=time.perf_counter() - t,
                       crashed=f"{type(exc).__name__}: {exc}")
    elapsed = time.perf_counter() - t
    out = _clean(result.to_json())
    return Outcome(bool(out["ok"]), out["value"], _clean(session.state()), before, out["program"],
                   out["answer"] or "", out["error"], elapsed, result.timings.get("parse"), setup_errors)


# ---- comparison ---------------------------------------------------------------------------------
def _is_gid(v: Any, b: Building) -> bool:
    return isinstance(v, str) and bool(_GID.match(v)) and v in b.elements


def _names(values: Sequence[Any], b: Building) -> list[str]:
    return sorted((b.elements[v].label() if _is_gid(v, b) else str(v)).strip().casefold() for v in values)


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= max(ABS_TOL_M, REL_TOL * abs(a))


def values_equal(gold: Any, got: Any, b: Building) -> bool:
    """Machine values as the contract defines them; GlobalIds and element names compare by label."""
    if gold is None or got is None:
        return gold is None and got is None
    if isinstance(gold, bool) or isinstance(got, bool):
        return isinstance(gold, bool) and isinstance(got, bool) and gold == got
    if isinstance(gold, int) and isinstance(got, int):
        return gold == got
    if _num(gold) and _num(got):
        return _close(float(gold), float(got))
    if isinstance(gold, str) and isinstance(got, str):
        if gold == got:
            return True
        return _names([gold], b) == _names([got], b)
    if isinstance(gold, list) and isinstance(got, list):
        if all(_num(v) for v in gold) and all(_num(v) for v in got):
            return len(gold) == len(got) and all(
                _close(float(x), float(y)) for x, y in zip(sorted(gold), sorted(got), strict=True))
        if all(isinstance(v, str) for v in gold) and all(isinstance(v, str) for v in got):
            if all(_is_gid(v, b) for v in gold) and all(_is_gid(v, b) for v in got):
                return set(gold) == set(got)
            return _names(gold, b) == _names(got, b)
        return False
    if isinstance(gold, dict) and isinstance(got, dict):  # e.g. the sun's {azimuth_deg, elevation_deg, compass}
        return set(gold) == set(got) and all(values_equal(gold[k], got[k], b) for k in gold)
    # A single element/name against a one-element list, or a number against one number.
    if isinstance(gold, list) and len(gold) == 1:
        return values_equal(gold[0], got, b)
    if isinstance(got, list) and len(got) == 1:
        return values_equal(gold, got[0], b)
    return False


def _vec_close(a: Sequence[float], b: Sequence[float], tol: float) -> bool:
    return len(a) == len(b) and all(abs(float(x) - float(y)) <= tol for x, y in zip(a, b, strict=True))


def colors_match(a: Sequence[float], b: Sequence[float]) -> bool:
    """Same colour as people name colours: alpha within 0.15, and either every channel within 0.15 or
    both clearly coloured (saturation >= 0.35, value >= 0.25) with hues within 25 degrees."""
    if abs(float(a[3]) - float(b[3])) > COLOR_TOL:
        return False
    if _vec_close(a[:3], b[:3], COLOR_TOL):
        return True
    ha, sa, va = colorsys.rgb_to_hsv(*(float(c) for c in a[:3]))
    hb, sb, vb = colorsys.rgb_to_hsv(*(float(c) for c in b[:3]))
    vivid = sa >= 0.35 and sb >= 0.35 and va >= 0.25 and vb >= 0.25
    return vivid and _yaw_diff(360.0 * ha, 360.0 * hb) <= HUE_TOL_DEG


def _yaw_diff(a: float, b: float) -> float:
    return abs((float(a) - float(b) + 180.0) % 360.0 - 180.0)


def state_diff(gold: dict[str, Any], got: dict[str, Any], place: Any = None) -> list[str]:
    """Why two scene states differ (empty when they match within the tolerances). With ``place`` (a
    function pose -> (storey, room)), poses match when they are in the same room on the same storey."""
    out = []
    for key in ("hidden", "deleted", "selected"):
        a, c = set(gold.get(key, [])), set(got.get(key, []))
        if a != c:
            out.append(f"{key}: {len(a - c)} missing, {len(c - a)} extra")
    gc, oc = gold.get("colors", {}), got.get("colors", {})
    if set(gc) != set(oc):
        out.append(f"colors: {len(set(gc) - set(oc))} missing, {len(set(oc) - set(gc))} extra")
    else:
        wrong = [k for k in gc if not colors_match(gc[k], oc[k])]
        if wrong:
            k = wrong[0]
            out.append(f"colors: {[round(c, 2) for c in oc[k]]} instead of {[round(c, 2) for c in gc[k]]}")
    gt, ot = gold.get("transforms", {}), got.get("transforms", {})
    if set(gt) != set(ot):
        out.append(f"transforms: {len(set(gt) - set(ot))} missing, {len(set(ot) - set(gt))} extra")
    else:
        for k in gt:
            if not _vec_close(gt[k]["translation"], ot[k]["translation"], MOVE_TOL_M):
                out.append(f"transforms: moved {ot[k]['translation']} instead of {gt[k]['translation']}")
                break
            if any(_yaw_diff(x, y) > ROTATE_TOL_DEG for x, y in
                   zip(gt[k]["rotation_deg"], ot[k]["rotation_deg"], strict=True)):
                out.append(f"transforms: rotated {ot[k]['rotation_deg']} instead of {gt[k]['rotation_deg']}")
                break
    gp, op = list(gold.get("props", [])), list(got.get("props", []))
    if len(gp) != len(op):
        out.append(f"props: {len(op)} instead of {len(gp)}")
    else:
        free = list(op)
        for p in gp:
            match = next((q for q in free if q["asset"] == p["asset"]
                          and math.dist(q["position"], p["position"]) <= PROP_TOL_M), None)
            if match is None:
                out.append(f"props: no {p['asset']} near {[round(c, 2) for c in p['position']]}")
                break
            free.remove(match)
    out += _review_diff(gold, got)
    pa, pb = gold.get("pose"), got.get("pose")
    if pa and pb and place is not None:
        where_a, where_b = place(pa), place(pb)
        if where_a != where_b:
            out.append(f"pose: ended in {where_b} instead of {where_a}")
    elif pa and pb:
        if math.dist(pa["position"], pb["position"]) > POSE_TOL_M:
            out.append(f"pose: at {[round(c, 2) for c in pb['position']]} instead of "
                       f"{[round(c, 2) for c in pa['position']]}")
        elif _yaw_diff(pa["yaw"], pb["yaw"]) > YAW_TOL_DEG:
            out.append(f"pose: facing {pb['yaw']:.0f} instead of {pa['yaw']:.0f} degrees")
    return out


def _planes_key(planes: list[dict[str, Any]]) -> list[tuple[float, ...]]:
    return sorted(tuple(round(float(v), 6) for v in (*p["direction"], *p["location"])) for p in planes)


def _planes_close(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    ka, kb = _planes_key(a), _planes_key(b)
    return len(ka) == len(kb) and all(x[:3] == y[:3] and _vec_close(x[3:], y[3:], MOVE_TOL_M)
                                      for x, y in zip(ka, kb, strict=True))


def _review_diff(gold: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """Differences in the review keys: section, remembered views, sun study, scale-model view."""
    out = []
    if not _planes_close(gold.get("sections", []), got.get("sections", [])):
        out.append(f"sections: {len(got.get('sections', []))} planes {_planes_key(got.get('sections', []))} "
                   f"instead of {len(gold.get('sections', []))} {_planes_key(gold.get('sections', []))}")
    gv, ov = gold.get("viewpoints", {}), got.get("viewpoints", {})
    if set(gv) != set(ov):
        out.append(f"viewpoints: {sorted(ov)} instead of {sorted(gv)}")
    else:
        for name in gv:
            if math.dist(gv[name]["pose"]["position"], ov[name]["pose"]["position"]) > POSE_TOL_M \
                    or not _planes_close(gv[name]["sections"], ov[name]["sections"]):
                out.append(f"viewpoints: '{name}' holds another view")
                break
    gs, os_ = gold.get("sun"), got.get("sun")
    if (gs is None) != (os_ is None) or (gs and os_ and (gs["date"], gs["time"]) != (os_["date"], os_["time"])):
        out.append(f"sun: {os_ and (os_['date'], os_['time'])} instead of {gs and (gs['date'], gs['time'])}")
    ga, oa = gold.get("view_scale"), got.get("view_scale")
    if (ga is None) != (oa is None) or (ga and oa and not (
            _close(ga["scale"], oa["scale"]) and _vec_close(ga["anchor"], oa["anchor"], POSE_TOL_M))):
        out.append(f"view_scale: {oa} instead of {ga}")
    return out


def place_of(session: Any) -> Any:
    """pose json -> (storey name, room label) in this session's building, for room-level pose checks."""

    def place(pose: dict[str, Any]) -> tuple[str | None, str | None]:
        p = Pose.from_json(pose).position.copy()
        storey = session.spatial.storey_of_point(float(p[2]))
        p[2] = (storey.elevation if storey else p[2] - 1.6) + 0.5
        room = session.graph.room_at(p)
        return (storey.name if storey else None,
                session.building.elements[room].label() + f" ({room})" if room else None)

    return place


def compare(case: Case, gold: Outcome, got: Outcome, session: Any) -> tuple[bool, str]:
    """(passed, why not) for one case; ``session`` is any session on the case's building."""
    b: Building = session.building
    if got.crashed:
        return False, f"crashed: {got.crashed}"
    if gold.crashed:
        return False, f"gold program crashed: {gold.crashed}"
    if case.check == "fail":
        if got.ok:
            return False, "should have refused or asked back, but succeeded"
        changed = state_diff(got.before, got.state)
        if changed:
            return False, "refused but changed the scene: " + "; ".join(changed)
        return True, ""
    if not gold.ok:
        return False, f"gold program failed: {gold.error}"
    if not got.ok:
        return False, f"not ok: {got.error or got.answer}"
    reasons = []
    if case.check in ("value", "both") and not values_equal(gold.value, got.value, b):
        reasons.append(f"value {_short(got.value)} instead of {_short(gold.value)}")
    if case.check in ("state", "both"):
        reasons += state_diff(gold.state, got.state, place_of(session) if case.pose_check == "room" else None)
    return not reasons, "; ".join(reasons)


def _short(v: Any, limit: int = 160) -> str:
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "..."


# ---- the report ---------------------------------------------------------------------------------
@dataclass
class CaseResult:
    case: Case
    passed: bool
    reason: str
    gold: Outcome
    got: Outcome


@dataclass
class Report:
    results: list[CaseResult]
    load_s: dict[str, float]
    wall_s: float

    @property
    def accuracy(self) -> float:
        return sum(r.passed for r in self.results) / len(self.results) if self.results else 0.0

    def group(self, key: Any) -> dict[Any, tuple[int, int]]:
        out: dict[Any, list[int]] = {}
        for r in self.results:
            cell = out.setdefault(key(r.case), [0, 0])
            cell[0] += r.passed
            cell[1] += 1
        return {k: (v[0], v[1]) for k, v in out.items()}

    def latencies(self) -> list[float]:
        return [r.got.say_s for r in self.results]

    def parse_latencies(self) -> list[float]:
        return [r.got.parse_s for r in self.results if r.got.parse_s is not None]


def evaluate(cases: Iterable[Case], sessions: Sessions | None = None) -> Report:
    sessions = sessions or Sessions()
    t = time.perf_counter()
    results = []
    for case in cases:
        gold = run_case(sessions, case, gold=True)
        got = run_case(sessions, case, gold=False)
        passed, reason = compare(case, gold, got, sessions.fresh(case.ifc))
        results.append(CaseResult(case, passed, reason, gold, got))
    return Report(results, dict(sessions.load_s), time.perf_counter() - t)


def _pct(hit: int, n: int) -> str:
    return f"{100.0 * hit / n:5.1f} % ({hit}/{n})" if n else "    -"


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def format_report(report: Report, verbose: bool = False) -> str:
    lines = []
    if verbose:
        for r in report.results:
            if r.passed:
                continue
            c = r.case
            lines.append(f"FAIL {c.id} [{c.ifc} {c.category}/{c.difficulty}/{c.check}] \"{c.say}\"")
            lines.append(f"  why:  {r.reason}")
            lines.append(f"  got:  ok={r.got.ok} value={_short(r.got.value)} program={_short(r.got.program, 400)}")
            if r.got.error or r.got.crashed:
                lines.append(f"        error: {r.got.crashed or r.got.error}")
            lines.append(f"  gold: ok={r.gold.ok} value={_short(r.gold.value)} program={_short(c.gold, 400)}")
            for e in r.got.setup_errors:
                lines.append(f"  setup failed: {e}")
        lines.append("")
    by_cell = report.group(lambda c: (c.category, c.difficulty))
    by_cat = report.group(lambda c: c.category)
    by_diff = report.group(lambda c: c.difficulty)
    header = f"{'':10}" + "".join(f"{d:>22}" for d in DIFFICULTIES) + f"{'all':>22}"
    lines.append("Accuracy by category x difficulty")
    lines.append(header)
    for cat in CATEGORIES:
        row = f"{cat:10}" + "".join(f"{_pct(*by_cell.get((cat, d), (0, 0))):>22}" for d in DIFFICULTIES)
        lines.append(row + f"{_pct(*by_cat.get(cat, (0, 0))):>22}")
    lines.append(f"{'all':10}" + "".join(f"{_pct(*by_diff.get(d, (0, 0))):>22}" for d in DIFFICULTIES)
                 + f"{_pct(sum(r.passed for r in report.results), len(report.results)):>22}")
    lines.append("")
    lines.append("Accuracy by file")
    for f, (hit, n) in sorted(report.group(lambda c: c.ifc).items()):
        lines.append(f"  {f:22}{_pct(hit, n):>22}")
    lines.append("Accuracy by check")
    for f, (hit, n) in sorted(report.group(lambda c: c.check).items()):
        lines.append(f"  {f:22}{_pct(hit, n):>22}")
    no_program = sum(1 for r in report.results if r.got.program is None and not r.got.crashed)
    crashed = sum(1 for r in report.results if r.got.crashed)
    lines.append(f"no program produced: {no_program}; front end crashed: {crashed}")
    lines.append("")
    lat = report.latencies()
    parse = report.parse_latencies()
    lines.append(f"session.say latency: p50 {1000 * _quantile(lat, 0.5):.1f} ms, "
                 f"p95 {1000 * _quantile(lat, 0.95):.1f} ms, max {1000 * max(lat, default=math.nan):.1f} ms "
                 f"({len(lat)} utterances)")
    if parse:
        lines.append(f"parse only:          p50 {1000 * _quantile(parse, 0.5):.1f} ms, "
                     f"p95 {1000 * _quantile(parse, 0.95):.1f} ms ({len(parse)} utterances)")
    if report.results:
        med_gold = statistics.median(r.gold.say_s for r in report.results)
        lines.append(f"gold program execution (baseline, same run): p50 {1000 * med_gold:.1f} ms")
    loads = ", ".join(f"{k} {v:.2f} s" for k, v in report.load_s.items())
    lines.append(f"building loads: {loads}; benchmark wall time {report.wall_s:.1f} s")
    lines.append(f"OVERALL: {_pct(sum(r.passed for r in report.results), len(report.results)).strip()}")
    return "\n".join(lines)


def format_blind(sessions: Sessions, folder: Path = BLIND_DIR) -> str:
    """One line per blind set (``folder/*.jsonl``): its score now, by file. Sets on the shared real
    buildings are skipped where that folder is absent. First-run scores are in the folder's LEDGER.md."""
    lines = ["Blind sets (first-run scores: tests/language/blind/LEDGER.md)"]
    for path in sorted(folder.glob("*.jsonl")):
        cases = load_cases(path)
        usable = [c for c in cases if not c.ifc.startswith(REAL_PREFIX) or real_dir() is not None]
        if not usable:
            lines.append(f"  {path.name:24} skipped: the shared real buildings are not beside this checkout")
            continue
        report = evaluate(usable, sessions)
        hit = sum(r.passed for r in report.results)
        per_file = ", ".join(f"{Path(f).stem} {100.0 * h / n:.0f} %"
                             for f, (h, n) in sorted(report.group(lambda c: c.ifc).items()))
        lines.append(f"  {path.name:24}{_pct(hit, len(usable)):>22}   {per_file}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pyagent.language.evaluate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", help="only the cases on this IFC file (e.g. duplex.ifc or duplex)")
    ap.add_argument("--cases", type=Path, default=DEFAULT_CASES, help="benchmark JSONL (default: %(default)s)")
    ap.add_argument("--verbose", "-v", action="store_true", help="print every failure: program produced vs gold")
    ap.add_argument("--llm", action="store_true", help="let the front end fall back to the local LLM "
                                                       "(default: the parser path only)")
    ap.add_argument("--id", action="append", help="only these case ids (repeatable)")
    ap.add_argument("--no-blind", action="store_true", help="skip the blind sets' summary (run by default "
                                                            "after the benchmark)")
    args = ap.parse_args(argv)
    cases = load_cases(args.cases, args.file)
    if args.id:
        cases = [c for c in cases if c.id in set(args.id)]
    if not cases:
        print("no cases selected")
        return 0
    sessions = Sessions(use_llm=args.llm)
    report = evaluate(cases, sessions)
    print(format_report(report, args.verbose))
    if args.cases == DEFAULT_CASES and not (args.file or args.id or args.no_blind):
        print()
        print(format_blind(sessions))
    return 0


if __name__ == "__main__":
    sys.exit(main())
