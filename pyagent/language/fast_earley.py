"""Lark's Earley predictor and completer without the repeated work that dominates short parses.

The noun-phrase grammar (noun_phrase.lark) is parsed with Lark's Earley parser, whose predictor makes, for every
item in a column that expects a non-terminal, one new item per rule that the non-terminal can start with (its
whole prediction closure, over a hundred rules for a modifier), only for nearly all of them to be dropped as
already there; its completer scans the whole origin column for every completed item. On the phrases users say
that was about 4 ms per unseen shape of phrase, most of a cold request's parse time (DESIGN §7, latency).

``speed_up`` replaces that one method of a Lark Earley parser with the same algorithm doing each piece once:

- a column predicts a symbol once, and skips the rules of every symbol whose closure it already holds (the
  items those rules would make are in the column already, so the column, its order and the forest are the
  same);
- a completed item finds the items that wait for it in an earlier, finished column through an index by the
  symbol they expect, built once per column and kept in the column's order.

Everything else (scanner, forest, ambiguity resolution, the tree) is Lark's. The test in
tests/language/test_fast_earley.py parses every sample shape and random token sequences both ways and
compares the trees. Lark versions whose parser lacks the attributes used here are left as they are.
"""

from __future__ import annotations

import threading
import types
from collections import deque
from typing import Any

from lark import Lark
from lark.parsers.earley_common import Item

# The index of the parse running in this thread (a Lark instance may be shared between sessions' threads).
_RUNNING = threading.local()
_NEEDED = ("predictions", "TERMINALS", "NON_TERMINALS", "SymbolNode", "predict_and_complete")


def earley_parser(lark: Lark) -> Any | None:  # noqa: ANN401 - Lark's internal parser object
    """The Earley parser object inside ``lark`` when it has the shape this module knows, else None."""
    frontend = getattr(lark, "parser", None)
    inner = getattr(frontend, "parser", None)
    if inner is None or not all(hasattr(inner, name) for name in _NEEDED):
        return None
    if type(inner).__module__ != "lark.parsers.earley":
        return None
    return inner


def speed_up(lark: Lark) -> bool:
    """Give ``lark``'s Earley parser the predictor and completer of this module; False where it cannot."""
    inner = earley_parser(lark)
    if inner is None:
        return False
    rules_of: dict[str, list[tuple[str, Any]]] = {}
    closure_of: dict[str, frozenset[str]] = {}
    for symbol, rules in inner.predictions.items():
        rules_of[symbol.name] = [(rule.origin.name, rule) for rule in rules]
        closure_of[symbol.name] = frozenset(rule.origin.name for rule in rules)
    inner._np_closures = (rules_of, closure_of)
    inner.predict_and_complete = types.MethodType(_predict_and_complete, inner)
    return True


def _node(parser: Any, cache: dict[tuple[Any, int, int], Any], label: tuple[Any, int, int]) -> Any:  # noqa: ANN401
    node = cache.get(label)
    if node is None:
        node = cache[label] = parser.SymbolNode(*label)
    return node


def _predict_and_complete(self: Any, i: int, to_scan: Any, columns: list[Any], transitives: list[dict[Any, Any]]) -> None:  # noqa: ANN401, E501
    """Lark's ``Parser.predict_and_complete`` (E. Scott's predictor and completer) for column ``i``."""
    node_cache: dict[tuple[Any, int, int], Any] = {}
    held_completions: dict[Any, Any] = {}
    column = columns[i]
    terminals = self.TERMINALS
    rules_of, closure_of = self._np_closures
    predicted: set[str] = set()
    # Waiting items of each finished column by the symbol they expect; rebuilt when a new parse starts.
    index = getattr(_RUNNING, "index", None)
    if index is None or index[0] is not columns:
        index = _RUNNING.index = (columns, {})
    waiting: dict[int, dict[Any, list[Any]]] = index[1]
    items = deque(column)
    while items:
        item = items.pop()
        if item.is_complete:
            if item.node is None:
                item.node = _node(self, node_cache, (item.s, item.start, i))
                item.node.add_family(item.s, item.rule, item.start, None, None)
            if transitives[item.start]:
                raise NotImplementedError("Leo transitives are not used by this Lark version's Earley parser")
            if item.start == i:
                # An empty rule completes in its own column, which is still growing: scan it as Lark does.
                held_completions[item.rule.origin] = item.node
                originators: Any = [o for o in columns[i] if o.expect is not None and o.expect == item.s]
            else:
                table = waiting.get(item.start)
                if table is None:
                    table = {}
                    for waiter in columns[item.start]:
                        if waiter.expect is not None:
                            table.setdefault(waiter.expect, []).append(waiter)
                    waiting[item.start] = table
                originators = table.get(item.s, ())
            for originator in originators:
                new_item = originator.advance()
                new_item.node = _node(self, node_cache, (new_item.s, originator.start, i))
                new_item.node.add_family(new_item.s, new_item.rule, i, originator.node, item.node)
                if new_item.expect in terminals:
                    to_scan.add(new_item)
                elif new_item not in column:
                    column.add(new_item)
                    items.append(new_item)
        elif item.expect in self.NON_TERMINALS:
            new_items = []
            name = item.expect.name
            if name not in predicted:
                for origin, rule in rules_of[name]:
                    if origin not in predicted:
                        new_items.append(Item(rule, 0, i))
                predicted.update(closure_of[name])
            if item.expect in held_completions:
                new_item = item.advance()
                new_item.node = _node(self, node_cache, (new_item.s, item.start, i))
                new_item.node.add_family(new_item.s, new_item.rule, new_item.start, item.node,
                                         held_completions[item.expect])
                new_items.append(new_item)
            for new_item in new_items:
                if new_item.expect in terminals:
                    to_scan.add(new_item)
                elif new_item not in column:
                    column.add(new_item)
                    items.append(new_item)


def sample_shapes() -> list[tuple[str, ...]]:
    """The token shapes of the noun-phrase grammar's sample phrases (data/noun_phrase_samples.yaml, accepted and
    refused), read in the samples' building: the shapes the benchmark and the test compare the parsers on."""
    import re
    from pathlib import Path

    import yaml

    from pyagent.language.lexicon import Lexicon
    from pyagent.language.noun_phrase import NounPhraseReader
    from pyagent.loader import load

    root = Path(__file__).resolve().parents[2]
    data = yaml.safe_load((Path(__file__).parent / "data" / "noun_phrase_samples.yaml").read_text(encoding="utf-8"))
    reader = NounPhraseReader(Lexicon.build(load(str(root / data["building"])).building))
    return sorted({tuple(t.type for t in reader.tokens(" ".join(re.findall(r"[\w'.,-]+", s["say"].lower()))))
                   for s in data["samples"] + data["refused"]} - {()})


def main() -> None:
    """``python -m pyagent.language.fast_earley``: the noun-phrase grammar's parse time per shape of phrase,
    Lark's own predictor against this module's, in one process (the shapes of the grammar's sample phrases,
    read in their building, and of those phrases with one token changed or doubled)."""
    import random
    import time

    from lark.exceptions import LarkError

    from pyagent.language.noun_phrase import grammar
    from pyagent.language.noun_phrase_tokens import NPToken

    shapes = sample_shapes()
    rng = random.Random(0)
    types = sorted({t for s in shapes for t in s})
    for shape in list(shapes):
        at = rng.randrange(len(shape))
        shapes += [shape[:at] + (rng.choice(types),) + shape[at + 1:], shape[:at + 1] + shape[at:]]
    stock, fast = grammar(fast=False), grammar()

    def per_shape(lark: Lark) -> float:
        t0 = time.process_time()
        for shape in shapes:
            try:
                lark.parse([NPToken(t, t) for t in shape])  # type: ignore[arg-type]  # the lexer takes these
            except LarkError:  # a refused shape costs its parse too
                pass
        return (time.process_time() - t0) / len(shapes) * 1000

    rounds = [(per_shape(stock), per_shape(fast)) for _ in range(3)]
    slow_ms, fast_ms = min(r[0] for r in rounds), min(r[1] for r in rounds)
    print(f"{len(shapes)} shapes of noun phrase, CPU per parse (best of 3): Lark's predictor {slow_ms:.2f} ms, "
          f"fast_earley {fast_ms:.2f} ms, ratio {slow_ms / fast_ms:.1f}x")


if __name__ == "__main__":
    main()
