"""The language front end: the deterministic parser first, the constrained local LLM when the
parser does not understand; both produce programs that the executor validates and runs.

It works on a ``host.Host`` (the session): the parse reads the host's scene through the read-only
``SceneView`` and its ``Dialogue``; only the program it produces changes anything, through ``Host.do``.
"""

from __future__ import annotations

import json
import os
import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from pyagent.actions.executor import QUERY_OPS
from pyagent.language import relative_moves
from pyagent.language.aggregates import Aggregates
from pyagent.language.core_intents import CoreIntents
from pyagent.language.dialogue import Dialogue
from pyagent.language.host import Host
from pyagent.language.lexicon import Lexicon
from pyagent.language.parser import Parser
from pyagent.language.review_intents import ReviewIntents
from pyagent.paths import models_dir
from pyagent.result import Result


@lru_cache(maxsize=1)
def _examples() -> list[dict[str, str]]:
    return list(json.loads((Path(__file__).parent / "examples.json").read_text(encoding="utf-8"))["examples"])


def examples_for(session: Host, n: int = 2) -> list[str]:
    """The first ``n`` example requests that this building can answer where the user stands."""
    b = session.building
    mine = b.storey(session.view().user_storey())
    above = {s.id for s in b.storeys if mine is not None and s.elevation > mine.elevation + 0.5}
    out: list[str] = []
    for ex in _examples():
        cls, where = ex.get("class"), ex.get("where")
        if cls is None or any(e.ifc_class.startswith(cls) and (where != "above" or e.storey in above)
                              for e in b.elements.values()):
            out.append(ex["text"])
        if len(out) == n:
            break
    return out


_PROCESS_WARM = threading.Lock()
_process_warmed = False


def _warm_process(parser: Any) -> None:
    """Once per process: the front end's regular expressions compiled (``rx.precompile``) and the noun-phrase
    grammar's sample phrases (data/noun_phrase_samples.yaml) read, so that the parse of each shape of phrase
    they have is kept (``noun_phrase._tree_of``). Without it the first request of each kind paid for both
    (the dev set's parse p95 in a fresh process was about twice that of a warm one)."""
    global _process_warmed
    with _PROCESS_WARM:
        if _process_warmed:
            return
        from pyagent.language import (
            aggregates,
            core_intents,
            noun_phrase_selector,
            noun_phrase_tokens,
            phrasing,
            review_intents,
            rx,
            spoken_numbers,
        )
        from pyagent.language import parser as parser_module

        rx.precompile([parser_module, noun_phrase_selector, noun_phrase_tokens, core_intents, review_intents,
                       aggregates, spoken_numbers])
        phrasing.ready()
        for text in _grammar_samples():
            parser.noun_phrases.read(text)
        _process_warmed = True


@lru_cache(maxsize=1)
def _grammar_samples() -> tuple[str, ...]:
    import yaml

    data = yaml.safe_load((Path(__file__).parent / "data" / "noun_phrase_samples.yaml").read_text(encoding="utf-8"))
    return tuple(str(s["say"]) for s in data.get("samples", []) if s.get("say"))


@lru_cache(maxsize=1)
def _warm_up() -> tuple[str, ...]:
    import yaml

    return tuple(yaml.safe_load((Path(__file__).parent / "data" / "warm_up.yaml").read_text(encoding="utf-8")))


def _default_llm_dir() -> Path | None:
    env = os.environ.get("PYAGENT_LLM")
    if env:
        return Path(env)
    root = models_dir()
    if not root.is_dir():
        return None
    for d in sorted(root.iterdir()):
        if (d / "genai_config.json").is_file():
            return d
    return None


class FrontEnd:
    def __init__(self, session: Host, llm_dir: Path | None = None, use_llm: bool = True) -> None:
        self.session = session
        self.lexicon = Lexicon.build(session.building)
        self.parser = Parser(self.lexicon)
        self.review = ReviewIntents(self.parser)
        self.parser.hooks.append(self.review.clause)  # review requests, clause by clause
        self.parser.hooks += [Aggregates(self.parser).clause, relative_moves.clause]  # sets; moves of the user
        self.core = CoreIntents(self.parser)
        self.parser.hooks.append(self.core.clause)  # everyday requests from templates, before the general handlers
        # The parser keeps nothing between parses; the lock keeps warming and requests one at a time
        # (a warm-up parse would only slow a request down).
        self._parse_lock = threading.Lock()
        self.warm_s: float | None = None  # seconds warm_parser took (None: not yet)
        self._llm: Any = None
        self._llm_dir = llm_dir if llm_dir is not None else _default_llm_dir()
        self.use_llm = use_llm

    def llm(self) -> Any:
        if self._llm is None and self.use_llm:
            try:
                from pyagent.language.llm import LLMFrontEnd
            except ImportError:
                return None
            self._llm = LLMFrontEnd(self._llm_dir)
        return self._llm

    def __getstate__(self) -> dict[str, Any]:  # copies (the soak harness deep-copies sessions) get a lock of their own
        state = self.__dict__.copy()
        del state["_parse_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._parse_lock = threading.Lock()

    def warm_parser(self) -> float:
        """Parse the warm-up requests (``data/warm_up.yaml``) once, discarding the programs (nothing
        runs): what the parser makes on first use (the unit registry, date handling, the building's
        compiled phrases) is then ready before the user's first request. Once per front end; returns
        the seconds it took."""
        if self.warm_s is not None:
            return self.warm_s
        t0 = time.perf_counter()
        _warm_process(self.parser)
        for text in _warm_up():
            with self._parse_lock:
                self.parser.parse(text, self.session.view(), Dialogue())
        self.warm_s = time.perf_counter() - t0
        return self.warm_s

    def warm_in_background(self) -> threading.Thread:
        """Warm the parser (``warm_parser``), then load the language model when one is installed and
        cache the fixed part of its prompt, without blocking the caller."""
        thread = threading.Thread(target=self._warm, name="front-warm", daemon=True)
        thread.start()
        return thread

    def _warm(self) -> None:
        self.warm_parser()
        llm = self.llm()
        if llm is None or not getattr(llm, "available", False):
            return
        from pyagent.language.llm_prompt import context_from_session

        llm.warm(context_from_session(self.session))

    def handle(self, session: Host, text: str) -> Result:
        t0 = time.perf_counter()
        with self._parse_lock:
            parsed = self.parser.parse(text, session.view(), session.dialogue)
        t_parse = time.perf_counter() - t0
        if parsed.program is not None and parsed.confidence >= 0.5:
            result = session.do(parsed.program, source="parser")
            result.timings["parse"] = t_parse
            if result.ok:
                _remember(session.dialogue, parsed.program)
            return result
        llm = self.llm()
        if llm is not None and getattr(llm, "available", False):
            from pyagent.language.llm_prompt import context_from_session

            def run_query(program: dict[str, Any]) -> dict[str, Any]:
                """Let the model see query results before its final program; changes are not run here."""
                if any(s.get("op") not in QUERY_OPS for s in program.get("steps", [])):
                    return {"ok": False, "error": "only query steps can be looked at before the final program"}
                memory = list(session.executor.last_ids)
                try:
                    return session.do(program, source="llm-probe").to_json()
                finally:
                    session.executor.last_ids = memory  # a look before answering is not part of the dialogue

            proposal = llm.propose(text, context_from_session(session), run_query)
            if proposal.program is not None:
                result = session.do(proposal.program, source="llm")
                result.timings["parse"] = t_parse
                result.timings["llm"] = proposal.latency_s
                if result.ok:
                    _remember(session.dialogue, proposal.program)
                return result
        reason = parsed.reason or "I did not understand that"
        if parsed.recognised:
            return Result(False, None, f"Sorry, {reason}.", None, reason, "parser", {"parse": t_parse})
        hint = ""
        if llm is not None and not getattr(llm, "available", False):
            hint = f" ({getattr(llm, 'reason', 'no language model installed')})"
        tries = " or ".join(f'"{x}"' for x in examples_for(session))
        return Result(False, None, f"Sorry, I did not understand \"{text}\". Try e.g. {tries}", None,
                      f"{reason}{hint}", "parser", {"parse": t_parse})


def _remember(dialogue: Dialogue, program: dict[str, Any]) -> None:
    steps = [s for s in program["steps"] if s["op"] not in ("undo", "redo", "save", "note", "export_notes")]
    if steps:
        dialogue.last_steps = steps
