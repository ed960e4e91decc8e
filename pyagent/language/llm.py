"""The local language-model front end: utterance -> action program, with schema-constrained decoding.

``LocalLLM`` runs a model folder in onnxruntime-genai format (``genai_config.json``, ``model.onnx``,
tokenizer files) on the CPU with greedy decoding, a bounded number of new tokens, and optionally the
runtime's llguidance JSON-schema constraint. ``LLMFrontEnd`` builds the prompt, runs a bounded agent
loop (at most ``max_calls`` model calls: a query-only program may be executed by the caller and its
result fed back before the final program), and treats the output as data: ``json.loads`` and schema
validation, never execution.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyagent.actions.executor import QUERY_OPS
from pyagent.language.llm_prompt import build_messages, compact
from pyagent.language.llm_schema import GuidanceLimits, guidance_schema_text, program_errors
from pyagent.paths import models_dir

DEFAULT_MODEL = "llm-qwen2.5-0.5b"
FETCH_HINT = f"run `python -m pyagent models fetch {DEFAULT_MODEL}`"
CONFIG_FILE = "genai_config.json"


def default_model_dir() -> Path:
    return models_dir() / DEFAULT_MODEL


@dataclass
class Generation:
    """One model call."""

    text: str
    prompt_tokens: int
    new_tokens: int
    finished: bool  # ended by the model (end of turn / grammar complete), not by the token budget
    prefill_s: float  # prompt processing up to the first new token
    total_s: float
    reused_tokens: int = 0  # prompt tokens whose key/value cache was kept from the previous call

    @property
    def tokens_per_s(self) -> float:
        decode = self.total_s - self.prefill_s
        return (self.new_tokens - 1) / decode if self.new_tokens > 1 and decode > 0 else 0.0


class LLMError(RuntimeError):
    """The model could not be loaded or run."""


def _common_prefix(a: list[int], b: list[int]) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


class LocalLLM:
    """A model folder loaded with onnxruntime-genai (CPU).

    One generator is kept between calls with the same schema: the next prompt's common prefix with the
    previous prompt (the system text, or a whole earlier turn) keeps its key/value cache
    (``rewind_to``), so only the new tokens are processed. The guidance state is reset by the rewind.
    ``window`` caps prompt + new tokens (and so the key/value cache allocated per generator).
    """

    def __init__(self, model_dir: Path, *, threads: int | None = None, window: int = 4096) -> None:
        import onnxruntime_genai as og  # imported here: the package is heavy and optional at import time

        self.model_dir = Path(model_dir)
        if not (self.model_dir / CONFIG_FILE).is_file():
            raise LLMError(f"{self.model_dir}: no {CONFIG_FILE}; not an onnxruntime-genai model folder")
        self._og = og
        try:
            config = og.Config(str(self.model_dir))
            config.clear_providers()
            if threads:
                config.overlay(json.dumps({"model": {"decoder": {"session_options": {
                    "intra_op_num_threads": int(threads), "inter_op_num_threads": 1}}}}))
            self.model = og.Model(config)
            self.tokenizer = og.Tokenizer(self.model)
        except RuntimeError as exc:  # onnxruntime-genai reports every load failure as RuntimeError
            raise LLMError(f"{self.model_dir}: cannot load the model: {exc}") from exc
        self.chat_prompt([{"role": "user", "content": "x"}])  # fail at load, not at the first request
        genai = json.loads((self.model_dir / CONFIG_FILE).read_text(encoding="utf-8"))
        self.context_length = int(genai.get("model", {}).get("context_length", 2048))
        self.window = min(self.context_length, window)
        self.eos_ids = {int(t) for t in self.tokenizer.eos_token_ids}
        self._lock = threading.Lock()
        self._generator: Any = None
        self._generator_schema: str | None = None
        self._cached_ids: list[int] = []

    def chat_prompt(self, messages: list[dict[str, str]], *, add_generation_prompt: bool = True) -> str:
        """The model's own chat template applied to ``messages`` (ending with the assistant's turn)."""
        try:
            return self.tokenizer.apply_chat_template(json.dumps(messages), add_generation_prompt=add_generation_prompt)
        except RuntimeError as exc:  # e.g. "Empty chat template."
            raise LLMError(f"{self.model_dir}: cannot apply the chat template ({exc}); the folder needs "
                           "chat_template.jinja or a chat_template in tokenizer_config.json") from exc

    def count_tokens(self, text: str) -> int:
        return len(self.tokenizer.encode(text))

    def _new_generator(self, schema_text: str | None, min_length: int = 0) -> Any:
        og = self._og
        params = og.GeneratorParams(self.model)
        params.set_search_options(max_length=self.window, do_sample=False, num_beams=1, repetition_penalty=1.0,
                                  min_length=min_length)
        if schema_text is not None:
            params.set_guidance("json_schema", schema_text)
        return og.Generator(self.model, params)

    def _cached(self, ids: list[int], schema_text: str | None, keep_all: bool = False) -> tuple[Any, int]:
        """The kept generator rewound to its common prefix with ``ids`` (or a new one), and that length.

        At least one token is left to append unless ``keep_all``. The kept cache is given up here: it
        is only valid again once the caller records what it holds.
        """
        gen, cached = self._generator, self._cached_ids
        self._generator, self._cached_ids = None, []
        if gen is not None and self._generator_schema == schema_text:
            keep = _common_prefix(cached, ids)
            if not keep_all:
                keep = min(keep, len(ids) - 1)
            if keep > 0:
                gen.rewind_to(keep)
                return gen, keep
        return self._new_generator(schema_text), 0

    def prefill(self, prompt: str, *, schema_text: str | None = None) -> int:
        """Process ``prompt`` into the kept cache without generating (a warm-up); returns its token count.

        A later ``generate`` whose prompt starts with these tokens only processes the rest.
        """
        ids = [int(t) for t in self.tokenizer.encode(prompt)]
        if not ids or len(ids) >= self.window:
            raise LLMError(f"cannot prefill {len(ids)} tokens in a window of {self.window}")
        with self._lock:
            try:
                generator, kept = self._cached(ids, schema_text, keep_all=True)
                if kept < len(ids):
                    generator.append_tokens(ids[kept:])
            except RuntimeError as exc:
                raise LLMError(f"prefill failed: {exc}") from exc
            self._generator, self._generator_schema, self._cached_ids = generator, schema_text, ids
        return len(ids)

    def generate(self, prompt: str, *, max_new_tokens: int, schema_text: str | None = None,
                 reuse: bool = True, min_new_tokens: int = 0) -> Generation:
        """Greedy decoding of at most ``max_new_tokens``; constrained to ``schema_text`` when given.

        With ``reuse`` the kept cache is used and then holds this prompt; without it a new generator
        runs and the kept cache is left alone. ``min_new_tokens`` holds back the end of turn
        (benchmarks: equal-length baselines) and implies ``reuse=False``.
        """
        reuse = reuse and not min_new_tokens
        ids = [int(t) for t in self.tokenizer.encode(prompt)]
        if not ids:
            raise LLMError("empty prompt")
        if len(ids) + max_new_tokens > self.window:
            raise LLMError(f"the prompt has {len(ids)} tokens; with {max_new_tokens} new tokens it exceeds "
                           f"the window of {self.window}")
        with self._lock:
            t0 = time.perf_counter()
            try:
                if reuse:
                    generator, kept = self._cached(ids, schema_text)
                else:
                    generator = self._new_generator(schema_text, len(ids) + min_new_tokens if min_new_tokens else 0)
                    kept = 0
                generator.append_tokens(ids[kept:])
                out: list[int] = []
                prefill = 0.0
                while not generator.is_done() and len(out) < max_new_tokens:
                    generator.generate_next_token()
                    out.append(int(generator.get_next_tokens()[0]))
                    if len(out) == 1:
                        prefill = time.perf_counter() - t0
            except RuntimeError as exc:
                raise LLMError(f"generation failed: {exc}") from exc
            total = time.perf_counter() - t0
            if reuse:
                self._generator, self._generator_schema, self._cached_ids = generator, schema_text, ids
        finished = bool(out) and out[-1] in self.eos_ids
        return Generation(self.tokenizer.decode(out), len(ids), len(out), finished, prefill, total, kept)


@dataclass
class LLMProposal:
    """What the language model proposes for one utterance."""

    program: dict[str, Any] | None
    raw_text: str
    steps_used: int  # model calls made (at most the front end's max_calls)
    error: str | None
    latency_s: float
    calls: list[Generation] = field(default_factory=list)


QueryRunner = Callable[[dict[str, Any]], dict[str, Any]]


class LLMFrontEnd:
    """Local-LLM language front end: prompt, constrained decoding, bounded query loop, validation."""

    def __init__(self, model_dir: Path | None = None, *, max_calls: int = 3, max_new_tokens: int = 256,
                 limits: GuidanceLimits | None = None, threads: int | None = None,
                 max_prompt_chars: int = 6000) -> None:
        if not 1 <= max_calls <= 3:
            raise ValueError("max_calls must be 1, 2 or 3")
        self.model_dir = Path(model_dir) if model_dir is not None else default_model_dir()
        self.max_calls = max_calls
        self.max_new_tokens = max_new_tokens
        self.max_prompt_chars = max_prompt_chars
        self.threads = threads
        self._limits = limits
        self._schema_text: str | None = None
        self._llm: LocalLLM | None = None
        self._load_error: str | None = None
        self._queries = frozenset(QUERY_OPS)
        self._load_lock = threading.Lock()

    # --- availability ------------------------------------------------------------------------

    @property
    def available(self) -> bool:
        return self.reason == ""

    @property
    def reason(self) -> str:
        """Why the front end cannot run ('' when it can)."""
        if self._load_error:
            return self._load_error
        if not (self.model_dir / CONFIG_FILE).is_file():
            return f"no language model installed at {self.model_dir}: {FETCH_HINT}"
        return ""

    def load(self) -> LocalLLM:
        """Load the model now (otherwise the first ``propose`` does); raises ``LLMError``."""
        with self._load_lock:
            if self._llm is None:
                if not self.available:
                    raise LLMError(self.reason)
                try:
                    self._llm = LocalLLM(self.model_dir, threads=self.threads)
                except ImportError as exc:
                    self._load_error = f"onnxruntime-genai is not installed ({exc}): pip install onnxruntime-genai"
                    raise LLMError(self._load_error) from exc
                except LLMError as exc:
                    self._load_error = f"{exc}; reinstall it: {FETCH_HINT}"
                    raise LLMError(self._load_error) from exc
        return self._llm

    @property
    def schema_text(self) -> str:
        if self._schema_text is None:
            self._schema_text = guidance_schema_text(self._limits)
        return self._schema_text

    # --- proposing -----------------------------------------------------------------------------

    def warm(self, context: dict[str, Any]) -> float:
        """Load the model and process the prompt's fixed part for this building; returns seconds taken.

        Call it when a building is opened (e.g. in a background thread): the first request then only
        pays for its own words and the user's situation.
        """
        t0 = time.perf_counter()
        llm = self.load()
        messages = build_messages("", context, max_chars=self.max_prompt_chars)[:1]
        llm.prefill(llm.chat_prompt(messages, add_generation_prompt=False), schema_text=self.schema_text)
        return time.perf_counter() - t0

    def is_query_only(self, program: dict[str, Any]) -> bool:
        return all(step.get("op") in self._queries for step in program.get("steps", []))

    def propose(self, utterance: str, context: dict[str, Any],
                execute_query: QueryRunner | None = None) -> LLMProposal:
        """A validated program for ``utterance``, or an error saying why there is none.

        When the model's program only queries the scene, ``execute_query`` is given and calls remain,
        the program is run through ``execute_query`` and its result fed back; the loop ends when the
        model writes a program with a change, repeats itself, or ``max_calls`` is reached.
        """
        t0 = time.perf_counter()
        calls: list[Generation] = []

        def done(program: dict[str, Any] | None, raw: str, error: str | None) -> LLMProposal:
            return LLMProposal(program, raw, len(calls), error, time.perf_counter() - t0, calls)

        if not utterance.strip():
            return done(None, "", "nothing was said")
        try:
            llm = self.load()
        except LLMError as exc:
            return done(None, "", str(exc))
        feedback: list[tuple[dict[str, Any], dict[str, Any]]] = []
        seen: set[str] = set()
        while True:
            messages = build_messages(utterance, context, feedback, max_chars=self.max_prompt_chars)
            try:
                gen = llm.generate(llm.chat_prompt(messages), max_new_tokens=self.max_new_tokens,
                                   schema_text=self.schema_text)
            except LLMError as exc:
                return done(None, "", f"the language model failed: {exc}")
            calls.append(gen)
            program, error = self._parse(gen)
            if program is None:
                return done(None, gen.text, error)
            key = compact(program)
            if (execute_query is None or len(calls) >= self.max_calls or key in seen
                    or not self.is_query_only(program)):
                return done(program, gen.text, None)
            seen.add(key)
            result = execute_query(program)
            feedback.append((program, result if isinstance(result, dict) else {"value": result}))

    def _parse(self, gen: Generation) -> tuple[dict[str, Any] | None, str | None]:
        if not gen.finished:
            return None, (f"the language model did not finish a program within {gen.new_tokens} tokens")
        try:
            program = json.loads(gen.text)
        except json.JSONDecodeError as exc:
            return None, f"the language model's output is not JSON ({exc.msg} at {exc.pos})"
        errors = program_errors(program)
        if errors:
            return None, "the language model's program is not valid: " + "; ".join(errors[:3])
        return program, None
