"""Replacement templates read once (pyagent/language/rx.py ``template``): the same text as ``re`` makes,
for every template the phrasing data uses and for the corners of the template syntax."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pyagent.language import phrasing, rx

CASES = Path(__file__).parent


@pytest.mark.parametrize(("pattern", "repl", "texts"), [
    (r"(?P<a>x)(y)?", r"[\g<a>|\2|\g<0>|\1]", ["xy", "x", "zz x zz"]),
    (r"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)", r"\12\11-\10\1", ["abcdefghijkl"]),
    (r"(a)", r"\n\t\\\&\101\0x", ["a", "bab"]),
    (r"(?P<word>\w+) (?P<rest>.*)", r"\g<rest> \g<word>", ["hide the door", "one"]),
    (r"ä(ö)", r"ü\1ß", ["äö"]),
])
def test_templates_expand_as_re_does(pattern: str, repl: str, texts: list[str]) -> None:
    p = re.compile(pattern)
    for text in texts:
        assert p.sub(rx.template(p, repl), text) == p.sub(repl, text)
        assert rx.sub(pattern, repl, text) == re.sub(pattern, repl, text)


@pytest.mark.parametrize("repl", [r"\g<nope>", r"\3", r"\q", r"\g<>"])
def test_bad_templates_are_refused_as_re_refuses_them(repl: str) -> None:
    p = re.compile(r"(a)(?P<b>b)")
    with pytest.raises((re.error, IndexError)):
        p.sub(repl, "ab")
    with pytest.raises(re.error):
        rx.template(p, repl)


def test_a_template_without_a_backslash_is_kept_as_it_is() -> None:
    p = re.compile("a")
    assert rx.template(p, "b c") == "b c"


def _said() -> list[str]:
    out: list[str] = []
    for path in sorted(CASES.rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                case = json.loads(line)
                out.append(case["say"].lower())
                out += [s["say"].lower() for s in case.get("setup", []) if "say" in s]
    return out


def test_the_phrasing_data_rewrites_every_case_as_re_would() -> None:
    """Every rewrite and politeness rule, over every fifth utterance of the case files (``re`` reading
    the data's templates again on each use is slow), with the templates given to ``re`` as they are:
    the same text."""
    said = _said()[::5]
    assert len(said) > 600
    data = phrasing._data()
    for key, ours in (("rewrites", phrasing.rewrite), ("politeness", phrasing.polite)):
        rules = [(re.compile(p), r) for p, r in data[key]]
        assert sum("\\" in r for _, r in rules) > 10
        for text in said:
            plain = text
            for p, r in rules:
                plain = p.sub(r, plain)
            assert ours(text) == re.sub(r"\s+", " ", plain).strip(), text


def test_the_parsers_literal_patterns_are_compiled_ahead_of_use() -> None:
    """``rx.precompile``: every ``re.<fn>("literal", ...)`` of the parser is in the cache afterwards."""
    import ast
    import inspect

    from pyagent.language import parser

    n = rx.precompile([parser])
    literals = {node.args[0].value for node in ast.walk(ast.parse(inspect.getsource(parser)))
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.args
                and not node.keywords and node.func.attr in ("sub", "search", "match", "fullmatch")
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)}
    assert n >= len(literals) > 100
    before = rx._compiled.cache_info()
    for literal in sorted(literals):
        rx.compiled(literal)
        rx.search(literal, "")  # as the parser uses them: flags passed on, the same entry
    after = rx._compiled.cache_info()
    assert after.misses == before.misses and after.hits - before.hits == 2 * len(literals)  # all there already
