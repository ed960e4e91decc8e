"""Build a tiny random-weight model in onnxruntime-genai format, for tests and benchmarks.

    python -m pyagent.language.llm_build OUT_DIR [--seed N] [--force]

Steps: train a small byte-level BPE tokenizer (``tokenizers``) on text made from the action schema,
the prompt's instructions and examples, digits and GlobalId characters; make a random
``Qwen2ForCausalLM`` (``transformers``, hidden 64, 2 layers) with a ChatML chat template; convert it
with ``python -m onnxruntime_genai.models.builder -p int4 -e cpu`` (``prune_lm_head=true``: prefill
computes logits for the last position only). The result is a model folder like a
real one (``genai_config.json``, ``model.onnx`` + data, tokenizer files) whose output is noise, which is
what the tests want: constrained decoding must make even noise a valid program.

Needs the ``llmbuild`` extra: torch (CPU), transformers, tokenizers, onnx, onnx_ir.
A stamp of the inputs is kept in the folder; an unchanged folder is reused unless ``--force``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from pyagent.language import llm_prompt
from pyagent.language.llm_schema import SCHEMA_PATH, load_action_schema

STAMP_FILE = "tiny_build.json"
REQUIRED_FILES = ("genai_config.json", "model.onnx", "tokenizer.json", "tokenizer_config.json")
SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
GLOBALID_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$"
# IFC classes a user talks about; only tokenizer training text (the schema allows any Ifc* name).
COMMON_CLASSES = (
    "IfcWall IfcWallStandardCase IfcDoor IfcWindow IfcSlab IfcRoof IfcStair IfcStairFlight IfcRailing "
    "IfcColumn IfcBeam IfcMember IfcPlate IfcCovering IfcFurnishingElement IfcFurniture IfcSpace "
    "IfcBuildingStorey IfcFlowTerminal IfcSanitaryTerminal IfcCurtainWall IfcOpeningElement"
)


@dataclass(frozen=True)
class TinySpec:
    vocab_size: int = 1024
    hidden_size: int = 64
    layers: int = 2
    heads: int = 4
    kv_heads: int = 2
    intermediate_size: int = 128
    context_length: int = 4096
    seed: int = 0
    model_vocab: int = 0  # embedding rows if larger than the tokenizer's vocabulary (real-model shapes)
    init_std: float = 0.3  # weight init scale: large, so the noise depends on the prompt (varied outputs)


# The shapes of Qwen2.5-0.5B-Instruct with random weights: a latency stand-in for the real model.
QWEN25_05B_SHAPE = TinySpec(hidden_size=896, layers=24, heads=14, kv_heads=2, intermediate_size=4864,
                            context_length=4096, model_vocab=151936, init_std=0.02)


@dataclass
class BuildReport:
    out_dir: Path
    reused: bool
    seconds: float
    files: dict[str, int]  # name -> bytes


def training_text(seed: int = 0) -> list[str]:
    """Text the tokenizer learns merges from: schema, prompt parts, programs, numbers, ids."""
    rng = random.Random(seed)
    schema = load_action_schema()
    texts = [SCHEMA_PATH.read_text(encoding="utf-8"), llm_prompt.system_text(), COMMON_CLASSES]
    texts += [json.dumps(schema["$defs"][name], separators=(",", ":")) for name in schema["$defs"]]
    for utterance, program in llm_prompt.EXAMPLES:
        texts += [f"User: {utterance}\nProgram: {llm_prompt.compact(program)}"] * 4
    texts.append(" ".join(str(n) for n in range(0, 361)))
    texts.append(" ".join(f"{rng.uniform(-50, 50):.{rng.randint(0, 3)}f}" for _ in range(400)))
    texts.append(" ".join("".join(rng.choice(GLOBALID_CHARS) for _ in range(22)) for _ in range(300)))
    return texts


def input_digest(spec: TinySpec) -> str:
    """Hash of everything the built model depends on."""
    h = hashlib.sha256()
    for path in (Path(__file__), SCHEMA_PATH, Path(llm_prompt.__file__)):
        h.update(path.read_bytes())
    h.update(json.dumps(spec.__dict__, sort_keys=True).encode())
    for dist in ("torch", "transformers", "tokenizers", "onnxruntime-genai", "onnx", "onnx_ir"):
        try:
            h.update(f"{dist}={metadata.version(dist)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{dist}=none".encode())
    return h.hexdigest()


def _train_tokenizer(spec: TinySpec):  # -> tokenizers.Tokenizer
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=spec.vocab_size, special_tokens=list(SPECIAL_TOKENS),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(training_text(spec.seed), trainer)
    return tok


def _write_hf_model(spec: TinySpec, hf_dir: Path) -> None:
    import torch
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    tok = _train_tokenizer(spec)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(hf_dir)
    _put_chat_template(hf_dir)
    pad, eos = tok.token_to_id("<|endoftext|>"), tok.token_to_id("<|im_end|>")
    config = Qwen2Config(
        vocab_size=max(tok.get_vocab_size(), spec.model_vocab), hidden_size=spec.hidden_size,
        intermediate_size=spec.intermediate_size,
        num_hidden_layers=spec.layers, num_attention_heads=spec.heads, num_key_value_heads=spec.kv_heads,
        max_position_embeddings=spec.context_length, bos_token_id=pad, eos_token_id=eos, pad_token_id=pad,
        tie_word_embeddings=False, initializer_range=spec.init_std,
    )
    torch.manual_seed(spec.seed)
    torch.set_num_threads(1)
    model = Qwen2ForCausalLM(config)
    model.generation_config.eos_token_id = eos
    model.generation_config.pad_token_id = pad
    model.save_pretrained(hf_dir)


def _put_chat_template(folder: Path) -> None:
    """Keep the chat template inside tokenizer_config.json (older readers look only there)."""
    path = folder / "tokenizer_config.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    if config.get("chat_template") != CHAT_TEMPLATE:
        config["chat_template"] = CHAT_TEMPLATE
        path.write_text(json.dumps(config, indent=2, ensure_ascii=False), encoding="utf-8")


def _convert(hf_dir: Path, out_dir: Path, cache: Path) -> None:
    env = dict(os.environ, OMP_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false")
    cmd = [sys.executable, "-m", "onnxruntime_genai.models.builder", "-i", str(hf_dir), "-o", str(out_dir),
           "-p", "int4", "-e", "cpu", "-c", str(cache), "--extra_options", "prune_lm_head=true"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout)[-2000:]
        raise RuntimeError(f"onnxruntime-genai model builder failed ({proc.returncode}):\n{tail}")


def build_tiny_model(out_dir: Path, spec: TinySpec | None = None, force: bool = False) -> BuildReport:
    """Build (or reuse) the tiny model folder ``out_dir``."""
    spec = spec or TinySpec()
    out_dir = Path(out_dir)
    t0 = time.perf_counter()
    digest = input_digest(spec)
    stamp = out_dir / STAMP_FILE
    if not force and stamp.is_file() and all((out_dir / f).is_file() for f in REQUIRED_FILES):
        if json.loads(stamp.read_text(encoding="utf-8")).get("inputs") == digest:
            return BuildReport(out_dir, True, time.perf_counter() - t0, _sizes(out_dir))
    work = out_dir.parent / f".{out_dir.name}.build-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    try:
        hf_dir, model_dir = work / "hf", work / "model"
        hf_dir.mkdir(parents=True)
        _write_hf_model(spec, hf_dir)
        _convert(hf_dir, model_dir, work / "cache")
        missing = [f for f in REQUIRED_FILES if not (model_dir / f).is_file()]
        if missing:
            raise RuntimeError(f"the model builder did not write {missing} in {model_dir}")
        _put_chat_template(model_dir)
        (model_dir / STAMP_FILE).write_text(json.dumps({"inputs": digest, "spec": spec.__dict__}, indent=2),
                                            encoding="utf-8")
        if out_dir.exists():
            shutil.rmtree(out_dir)
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        model_dir.rename(out_dir)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return BuildReport(out_dir, False, time.perf_counter() - t0, _sizes(out_dir))


def _sizes(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_size for p in sorted(folder.iterdir()) if p.is_file()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pyagent.language.llm_build", description=__doc__.split("\n")[0])
    parser.add_argument("out_dir", type=Path, help="model folder to write (replaced if it exists)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--force", action="store_true", help="rebuild even if the folder is up to date")
    args = parser.parse_args(argv)
    try:
        report = build_tiny_model(args.out_dir, TinySpec(seed=args.seed), force=args.force)
    except (ImportError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    verb = "reused" if report.reused else "built"
    print(f"{verb} {report.out_dir} in {report.seconds:.1f} s: "
          + ", ".join(f"{k} {v:,} B" for k, v in report.files.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
