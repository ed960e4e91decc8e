"""Command line: ``python -m pyagent load|script|query|notes|serve|mcp|xr|models|bench|gen|demo``."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from pyagent.ifcfile import IfcLoadError

#: Commands whose stdout is read by programs: nothing but their own lines may reach it.
PROTOCOL_COMMANDS = ("load", "script", "query", "serve")


def _open(path: str, quiet: bool = False):  # noqa: ANN202 - returns Session, imported lazily (fast --help)
    from pyagent.progress import TerminalBar
    from pyagent.session import Session

    with TerminalBar(Path(path).name, quiet=quiet) as bar:
        return Session.open(path, progress=bar)


def cmd_load(args: argparse.Namespace) -> int:
    session = _open(args.file, args.quiet)
    b = session.building
    lb = session.loaded
    print(f"{Path(args.file).name}: {b.schema}, project '{b.project_name}', "
          f"{'cached' if lb.cached else 'loaded'} in {lb.timings.get('total', 0):.2f} s")
    print(f"true north: {b.true_north_deg:.1f}° from +X")
    print("storeys (lowest first):")
    for s in b.storeys:
        mark = "  <- ground floor" if s.id == b.ground_storey else ""
        rooms = [e.label() for e in b.spaces() if e.storey == s.id]
        print(f"  {s.name:<16} {s.elevation:7.2f} m  {len(rooms)} rooms{mark}")
        if rooms:
            print("      " + ", ".join(rooms))
    counts = Counter(e.ifc_class for e in b.products())
    print("elements by class:")
    for cls, n in counts.most_common():
        print(f"  {cls:<28} {n}")
    for w in b.warnings:
        print(f"warning: {w}")
    print(f"glb: {session.glb_path}")
    return 0


def cmd_script(args: argparse.Namespace) -> int:
    from pyagent.journal import JournalError
    from pyagent.progress import TerminalBar
    from pyagent.script import run_script
    from pyagent.session import Session

    journal = True if args.journal == "default" else args.journal
    try:
        # Every acknowledged line is on disk: poses too (interval 0), not only changes.
        with TerminalBar(Path(args.ifc).name, quiet=args.quiet) as bar:  # stderr, only on a terminal
            session = Session.open(args.ifc, journal_dir=journal, fresh=args.fresh, save_dir=args.save_dir,
                                   pose_interval_s=0.0, progress=bar)
    except JournalError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if journal:
        print(session.restore_report.summary(), file=sys.stderr)
    try:
        run_script(session, sys.stdin.buffer, sys.stdout.buffer)
    finally:
        session.close()
    return 0


def cmd_query(args: argparse.Namespace) -> int:
    from pyagent.script import _clean

    try:
        program = json.loads(Path(args.program).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        print(f"error: cannot read program {args.program}: {exc}", file=sys.stderr)
        return 2
    session = _open(args.ifc, args.quiet)
    if args.pose:
        from pyagent.model import Pose

        session.set_pose(Pose.from_json(json.loads(args.pose)))
    r = session.do(program)
    print(json.dumps(_clean(r.to_json()), ensure_ascii=False, indent=2))
    return 0 if r.ok else 1


def cmd_notes(args: argparse.Namespace) -> int:
    """Export a session's review notes (from its journal folder) as a BCF 2.1 archive."""
    from pyagent.bcf import BcfError, TopicStore
    from pyagent.persistence import default_journal_dir
    from pyagent.session import Session

    session = Session.open(args.ifc, save_dir=args.save_dir)
    folder = Path(args.journal) if args.journal else default_journal_dir(session.building.file_hash)
    p = session.persistence
    p.topics = TopicStore(folder / "topics")
    for problem in p.topics.load():
        print(f"warning: {problem}", file=sys.stderr)
    if not p.topics.topics:
        print(f"error: no review notes in {folder}", file=sys.stderr)
        return 1
    try:
        out = p.export_bcf(Path(args.out) if args.out else None)
    except (BcfError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(out)
    return 0


def cmd_gen(args: argparse.Namespace) -> int:
    from pyagent.props import write_prop_assets

    for p in write_prop_assets():
        print(p)
    try:
        from pyagent.gen_engine import main as gen_engine
    except ImportError:
        return 0
    return int(gen_engine([]) or 0)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in PROTOCOL_COMMANDS:
        from pyagent.stdio import protect_stdout

        protect_stdout()  # native libraries' prints go to stderr, never into the output
    # Sub-commands owned by other modules take their own arguments.
    delegated = {"serve": ("pyagent.link.server", "serve_main"), "models": ("pyagent.models_cli", "main"),
                 "bench": ("pyagent.bench", "main"), "demo": ("pyagent.demo", "main"),
                 "godot": ("pyagent.godot", "main"), "mcp": ("pyagent.mcp.cli", "main"),
                 "xr": ("pyagent.xr", "main")}
    if argv and argv[0] in delegated:
        import importlib

        module, func = delegated[argv[0]]
        try:
            entry = getattr(importlib.import_module(module), func)
        except (ImportError, AttributeError) as exc:
            print(f"error: '{argv[0]}' is not available: {exc}", file=sys.stderr)
            return 2
        try:
            return int(entry(argv[1:]) or 0)
        except IfcLoadError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    parser = argparse.ArgumentParser(prog="python -m pyagent", description="BIM voice design-review agent")
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("load", help="load an IFC file and print a summary")
    p.add_argument("file")
    p.set_defaults(func=cmd_load)
    p = sub.add_parser("script", help="scripted session: JSON lines on stdin, one JSON line out per line")
    p.add_argument("--ifc", required=True)
    p.add_argument("--journal", nargs="?", const="default", default=None, metavar="DIR",
                   help="journal every change (default folder .cache/sessions/<file sha>/) and restore it on start")
    p.add_argument("--fresh", action="store_true", help="with --journal: keep the old journal aside, start anew")
    p.add_argument("--save-dir", default=None, help="where 'save' writes revisions (default: next to the IFC file)")
    p.set_defaults(func=cmd_script)
    p = sub.add_parser("query", help="run one action program (JSON file)")
    p.add_argument("--ifc", required=True)
    p.add_argument("--pose", help='JSON pose, e.g. {"position": [1, 2, 1.6], "yaw": 90}')
    p.add_argument("program")
    p.set_defaults(func=cmd_query)
    p = sub.add_parser("notes", help="export the review notes of a session as a BCF 2.1 archive")
    p.add_argument("--ifc", required=True)
    p.add_argument("--journal", metavar="DIR",
                   help="the session's journal folder (default .cache/sessions/<file sha>/)")
    p.add_argument("--out", metavar="PATH",
                   help="the .bcfzip to write (default <name>.notes<N>.bcfzip beside the revisions)")
    p.add_argument("--save-dir", default=None, help="where the archive goes when --out is not given")
    p.set_defaults(func=cmd_notes)
    p = sub.add_parser("gen", help="regenerate the prop assets and engine constants from the schema")
    p.set_defaults(func=cmd_gen)
    for name in delegated:
        sub.add_parser(name, help=f"see python -m pyagent {name} --help")
    for name in ("load", "script", "query"):
        sub.choices[name].add_argument("-q", "--quiet", action="store_true", help="no progress bar on stderr")
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except IfcLoadError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
