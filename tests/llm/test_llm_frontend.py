"""The LLM path end to end on a tiny random-weight model: constrained decoding makes even noise a
valid program; the agent loop is bounded; a missing or broken model gives a clear message."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from pyagent.actions.executor import QUERY_OPS
from pyagent.actions.schema import def_validator, schema_errors
from pyagent.language.llm import FETCH_HINT, LLMFrontEnd, LocalLLM
from pyagent.language.llm_prompt import build_messages, context_from_session
from pyagent.language.llm_schema import GuidanceLimits, guidance_schema_text
from pyagent.model import Pose

UTTERANCES = (
    "hide the door in front of me", "how many windows are on the ground floor?", "paint the wall behind me light grey",
    "rotate that window 90 degrees", "which rooms are on the upper floor?", "how tall is the window to my left?",
    "put a sofa next to the window", "take me to the kitchen", "turn around", "look at the stairs",
    "what is the furthest object from me, and how deep is it?", "look backwards and hide the wall there",
    "undo that", "make it red", "save", "show everything again", "isolate the second floor",
    "how far is the front door?", "select all beams", "make the slabs half transparent", "where am I?",
    "delete the railing", "move the table one metre to the left", "note that this wall needs insulation",
    "describe the element I'm pointing at", "is there a window in the bathroom?", "list the doors near me",
    "redo", "reset the model", "how do I get to the gallery?", "what is the area of the living room?",
    "färbe die Wand blau",
)
POSES = (
    {"position": [5.0, 4.0, 1.6], "yaw": 90.0, "pitch": 0.0},
    {"position": [2.0, 8.0, 1.6], "yaw": -30.0, "pitch": 10.0},
    {"position": [7.0, 2.0, 4.3], "yaw": 180.0, "pitch": 0.0},
)


def _check(proposal, front: LLMFrontEnd) -> bool:
    """True when the proposal holds a valid program; otherwise its error must be the token budget."""
    assert 1 <= proposal.steps_used <= front.max_calls
    assert proposal.latency_s > 0
    if proposal.program is None:
        assert proposal.error and "did not finish a program" in proposal.error, proposal.error
        return False
    assert proposal.error is None
    assert json.loads(proposal.raw_text) == proposal.program  # the output is data, parsed as JSON
    assert schema_errors(proposal.program) == []
    return True


def test_missing_model_names_the_fetch_command(tmp_path: Path):
    front = LLMFrontEnd(tmp_path / "llm-qwen2.5-0.5b")
    assert not front.available
    assert "python -m pyagent models fetch llm-qwen2.5-0.5b" in front.reason
    assert str(tmp_path / "llm-qwen2.5-0.5b") in front.reason
    proposal = front.propose("hide the door", {})
    assert proposal.program is None and proposal.steps_used == 0
    assert "python -m pyagent models fetch llm-qwen2.5-0.5b" in proposal.error
    assert FETCH_HINT in front.reason


def test_default_model_dir_is_under_the_models_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("PYAGENT_MODELS", str(tmp_path))
    front = LLMFrontEnd()
    assert front.model_dir == tmp_path / "llm-qwen2.5-0.5b"
    assert not front.available


def test_damaged_model_is_reported_not_raised(tiny_model_dir: Path, tmp_path: Path):
    broken = tmp_path / "broken"
    shutil.copytree(tiny_model_dir, broken)
    (broken / "model.onnx").write_bytes(b"not an onnx model")
    front = LLMFrontEnd(broken)
    assert front.available  # the folder looks installed until it is loaded
    proposal = front.propose("hide the door", {})
    assert proposal.program is None and "cannot load the model" in proposal.error
    assert not front.available and "models fetch" in front.reason


def test_model_without_chat_template_is_refused_at_load(tiny_model_dir: Path, tmp_path: Path):
    folder = tmp_path / "no-template"
    shutil.copytree(tiny_model_dir, folder)
    (folder / "chat_template.jinja").unlink(missing_ok=True)
    config = json.loads((folder / "tokenizer_config.json").read_text())
    config.pop("chat_template", None)
    (folder / "tokenizer_config.json").write_text(json.dumps(config))
    front = LLMFrontEnd(folder)
    proposal = front.propose("hide the door", {})
    assert proposal.program is None and "chat template" in proposal.error
    assert "chat_template.jinja" in front.reason


def test_every_output_is_a_valid_program_over_varied_utterances_and_scenes(tiny_front, fzk_session):
    finished = total = 0
    ops: set[str] = set()
    for i, utterance in enumerate(UTTERANCES):
        fzk_session.set_pose(Pose.from_json(POSES[i % len(POSES)]))
        context = context_from_session(fzk_session) if i % 4 else {}
        proposal = tiny_front.propose(utterance, context)
        total += 1
        if _check(proposal, tiny_front):
            finished += 1
            ops.update(step["op"] for step in proposal.program["steps"])
    # Noise rarely runs out of tokens; most programs must be complete (else the test proves nothing).
    assert finished >= 0.8 * total, (finished, total)
    assert len(ops) >= 3, ops  # the random model is steered to different programs by different prompts


def test_without_guidance_the_same_noise_is_not_a_program(tiny_front):
    llm: LocalLLM = tiny_front.load()
    invalid = 0
    for utterance in UTTERANCES[:6]:
        prompt = llm.chat_prompt(build_messages(utterance, {}))
        gen = llm.generate(prompt, max_new_tokens=60, schema_text=None)
        try:
            invalid += bool(schema_errors(json.loads(gen.text)))
        except json.JSONDecodeError:
            invalid += 1
    assert invalid == 6  # so the validity above comes from the constraint, not from luck


def test_decoding_is_deterministic_and_prefix_reuse_changes_nothing(tiny_front):
    llm: LocalLLM = tiny_front.load()
    schema = tiny_front.schema_text
    prompts = [llm.chat_prompt(build_messages(u, {"here": {"storey": "EG", "room": None}})) for u in UTTERANCES[:8]]
    fresh = [llm.generate(p, max_new_tokens=200, schema_text=schema, reuse=False) for p in prompts]
    reused = [llm.generate(p, max_new_tokens=200, schema_text=schema, reuse=True) for p in prompts]
    assert [g.text for g in fresh] == [g.text for g in reused]
    assert all(g.reused_tokens == 0 for g in fresh)
    assert all(g.reused_tokens > 0.5 * g.prompt_tokens for g in reused[1:])  # the system prompt is kept
    again = tiny_front.propose(UTTERANCES[0], {})
    assert again.raw_text == tiny_front.propose(UTTERANCES[0], {}).raw_text


def test_warm_up_processes_the_fixed_part_once(tiny_model_dir: Path, fzk_session):
    front = LLMFrontEnd(tiny_model_dir, max_new_tokens=200, threads=1)
    context = context_from_session(fzk_session)
    assert front.warm(context) > 0
    llm = front.load()
    system_tokens = len(llm._cached_ids)
    assert system_tokens > 500
    proposal = front.propose("hide the door in front of me", context)
    assert _check(proposal, front)
    first = proposal.calls[0]
    assert first.reused_tokens == system_tokens  # only the situation and the words were processed
    cold = LLMFrontEnd(tiny_model_dir, max_new_tokens=200, threads=1).propose("hide the door in front of me", context)
    assert cold.calls[0].reused_tokens == 0 and cold.raw_text == proposal.raw_text


def _query_front(model_dir: Path, max_calls: int, ops: frozenset[str]) -> LLMFrontEnd:
    front = LLMFrontEnd(model_dir, max_calls=max_calls, max_new_tokens=320, threads=1,
                        limits=GuidanceLimits(ops=ops))
    return front


@pytest.mark.parametrize("max_calls", [1, 2, 3])
def test_query_loop_is_bounded_and_feeds_results_back(tiny_model_dir: Path, max_calls: int):
    front = _query_front(tiny_model_dir, max_calls, frozenset({"count", "list", "where_am_i"}))
    executed: list[dict] = []

    def execute(program: dict) -> dict:
        executed.append(program)
        assert all(step["op"] in QUERY_OPS for step in program["steps"])
        return {"ok": True, "answer": f"{len(executed)} things", "value": len(executed), "error": None}

    for utterance in UTTERANCES[:5]:
        executed.clear()
        proposal = front.propose(utterance, {}, execute)
        assert _check(proposal, front)
        assert proposal.steps_used <= max_calls
        assert len(executed) == proposal.steps_used - 1  # every call but the last had its query run
        if proposal.steps_used < max_calls:  # stopped early: the model repeated an executed program
            assert proposal.program in executed
        assert len(proposal.calls) == proposal.steps_used


def test_change_programs_are_never_executed_by_the_loop(tiny_model_dir: Path):
    front = _query_front(tiny_model_dir, 3, frozenset({"hide", "color"}))
    calls: list[dict] = []
    for utterance in UTTERANCES[:4]:
        proposal = front.propose(utterance, {}, calls.append)
        assert _check(proposal, front)
        assert proposal.steps_used == 1
    assert calls == []


@pytest.fixture(scope="module")
def scratch_session(tmp_path_factory: pytest.TempPathFactory):
    """A session on a copy of the house, so that nothing can write next to the repository's file."""
    from pyagent.session import Session

    folder = tmp_path_factory.mktemp("llm-ifc")
    src = Path(__file__).resolve().parents[2] / "ifc" / "AC20-FZK-Haus.ifc"
    return Session.open(shutil.copy(src, folder / src.name))


def test_programs_execute_through_the_session_without_crashing(tiny_front, scratch_session):
    session = scratch_session
    state_validator = def_validator("engine_state")
    outcomes = {"ok": 0, "error": 0}
    for i, utterance in enumerate(UTTERANCES):
        session.set_pose(Pose.from_json(POSES[i % len(POSES)]))
        proposal = tiny_front.propose(utterance, context_from_session(session),
                                      lambda p: session.do(p, source="llm").to_json())
        if proposal.program is None:
            continue
        before, revision = session.state(), session.revision
        result = session.do(proposal.program, source="llm")
        out = result.to_json()
        assert set(out) == {"ok", "program", "answer", "value", "error"}
        if result.ok:
            outcomes["ok"] += 1
        else:
            outcomes["error"] += 1
            assert isinstance(result.error, str) and result.error
            assert session.state() == before and session.revision == revision  # a failing program changes nothing
        state = session.state()
        assert not list(state_validator.iter_errors(state))
        assert np.all(np.isfinite(state["pose"]["position"]))
    assert sum(outcomes.values()) >= 0.8 * len(UTTERANCES)


def test_constrained_generation_respects_the_token_budget(tiny_front):
    llm: LocalLLM = tiny_front.load()
    schema = guidance_schema_text(GuidanceLimits(ops=frozenset({"note"})))  # long free text: hits the budget
    gen = llm.generate(llm.chat_prompt(build_messages("take a note", {})), max_new_tokens=12, schema_text=schema)
    assert gen.new_tokens == 12 and not gen.finished
    front = LLMFrontEnd(tiny_front.model_dir, max_new_tokens=12, limits=GuidanceLimits(ops=frozenset({"note"})))
    proposal = front.propose("take a note", {})
    assert proposal.program is None and "did not finish a program within 12 tokens" in proposal.error
