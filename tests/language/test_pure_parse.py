"""The parse is pure: a function of the text, the building's vocabulary, the dialogue and a read-only
view of the scene (``SceneView``); the language package never imports the session."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pyagent.language.dialogue import Dialogue
from pyagent.language.lexicon import Lexicon
from pyagent.language.parser import ParseContext, Parser
from pyagent.language.scene_view import StillScene
from pyagent.loader import load
from pyagent.session import Session

REPO = Path(__file__).resolve().parents[2]
DUPLEX = REPO / "ifc" / "duplex.ifc"
TEXTS = ("hide the bedrooms", "hide the bedroom", "hide the doors in this room", "hide the floor above",
         "make it lighter", "show me the doors", "note that the Door is BROKEN!", "hide the kitchen windows")


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser(Lexicon.build(load(str(DUPLEX)).building))


@pytest.mark.parametrize("module", ["pyagent.language.front", "pyagent.language.parser", "pyagent.persistence"])
def test_language_and_persistence_never_import_the_session(module: str) -> None:
    code = (f"import sys, {module}; bad = [m for m in ('pyagent.session', 'pyagent.language.front') "
            f"if m in sys.modules and m != '{module}']; print(json.dumps(bad))")
    out = subprocess.run([sys.executable, "-c", "import json; " + code], capture_output=True, text=True,
                         cwd=REPO, check=True).stdout
    assert json.loads(out) == []


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_import_of_the_session_even_inside_functions() -> None:
    # The evaluator is a harness that runs whole sessions; everything else sees a session through protocols.
    files = [p for p in (REPO / "pyagent" / "language").glob("*.py") if p.name != "evaluate.py"]
    files.append(REPO / "pyagent" / "persistence.py")
    offenders = {p.name: n for p in files for n in _imports(p) if n == "pyagent.session"}
    assert offenders == {}


def test_a_parse_changes_nothing_in_the_parser_and_does_not_depend_on_earlier_parses(parser: Parser) -> None:
    scene = StillScene(storey=parser.building.ground_storey)
    state = {k: (id(v), repr(v)[:200]) for k, v in vars(parser).items()}
    first = [json.dumps(parser.parse(t, scene, Dialogue()).program, sort_keys=True) for t in TEXTS]
    again = [json.dumps(parser.parse(t, scene, Dialogue()).program, sort_keys=True) for t in reversed(TEXTS)]
    assert first == list(reversed(again))
    assert {k: (id(v), repr(v)[:200]) for k, v in vars(parser).items()} == state


def test_the_scene_is_asked_through_the_view(parser: Parser) -> None:
    b = parser.building
    ground = b.storey(b.ground_storey)
    assert ground is not None
    upper = next(s for s in b.storeys if s.index == ground.index + 1)
    top = next(s for s in b.storeys if s.index == upper.index + 1)
    for mine, expected in ((ground, upper), (upper, top)):
        above = parser.parse("hide the floor above", StillScene(storey=mine.id), Dialogue()).program
        assert above is not None and above["steps"][0]["target"]["storey"] in (expected.id, expected.name)
    door = next(g for g, e in parser.building.elements.items() if e.ifc_class == "IfcDoor")
    doors = {"class": ["IfcDoor"]}
    assert ParseContext(StillScene(hidden=frozenset({door}), found=(door,)), Dialogue()).hidden_any(doors)
    assert not ParseContext(StillScene(hidden=frozenset({"other"}), found=(door,)), Dialogue()).hidden_any(doors)
    painted = StillScene(referent=(door,), colours={door: (0.2, 0.2, 0.6, 1.0)})
    lighter = parser.parse("make it lighter", painted, Dialogue()).program
    assert lighter is not None and lighter["steps"][0]["rgba"][2] > 0.6


def test_the_dialogue_is_the_sessions_and_the_view_is_read_only() -> None:
    s = Session.open(DUPLEX)
    try:
        assert s.say("hide the doors").ok
        assert s.dialogue.last_steps and s.dialogue.last_steps[0]["op"] == "hide"
        before = s.state()
        view = s.view()
        doors = view.peek({"class": ["IfcDoor"]})
        assert doors and view.any_hidden() and view.is_hidden(doors) and set(view.it()) == set(doors)
        assert view.user_storey() in {st.id for st in s.building.storeys}
        assert s.state() == before
    finally:
        s.close()
