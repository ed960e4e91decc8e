"""Tiny, hand-wired ONNX speech models that sherpa-onnx loads through its real code paths.

Real weights cannot be downloaded in CI, so these builders write small graphs with exactly the
input/output layout and metadata sherpa-onnx reads for each family (checked against the
sherpa-onnx sources: online-zipformer2-transducer-model.cc, offline-transducer-model.cc,
offline-whisper-model.cc, offline-moonshine-model.cc, silero-vad-model.cc), plus a tokens.txt.

The weights are set by hand so that decoding is deterministic and depends on the audio:

* an "energy gate" is computed from the model's real input (fbank / log-mel features computed by
  sherpa-onnx, or raw samples for Moonshine and the VAD): near 1 on speech, near 0 on silence;
* the decoder/joiner turn the previously emitted token into next-token logits taken from a
  ``TokenScript`` (a little state machine: after token A prefer token B ...);
* on silent frames the end symbol (blank / end-of-text) wins.

So a silent recording decodes to "" and a spoken one decodes to the script's words, e.g.
"hide all doors"; a script with two close alternatives lets a test see hotword biasing flip the
outcome. None of this says anything about real recognition accuracy.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
IR_VERSION = 8

START = "<start>"  # TokenScript key for "nothing emitted yet"

# Word pieces every tiny model knows, plus single letters so most ASCII words can be spelt.
WORD_PIECES = [
    "▁hide", "▁show", "▁all", "▁the", "▁doors", "▁door", "▁windows", "▁walls", "▁go", "▁to",
    "▁bath", "▁bed", "room", "▁kitchen", "▁living", "▁paint", "▁red", "▁how", "▁many", "▁are",
    "▁there", "▁s", "s",
]
LETTERS = [chr(c) for c in range(ord("a"), ord("z") + 1)]

# Gate thresholds, in the units of each model's own input (see module docstring).
FBANK_GATE_THRESHOLD = -8.0  # mean kaldi log-mel energy; silence is log(FLT_EPSILON) = -15.9
WHISPER_GATE_THRESHOLD = 0.25  # max of sherpa's normalised whisper log-mel; padding is 0.0
RAW_LOG_ENERGY_THRESHOLD = -12.0  # log mean square of samples in [-1, 1]; digital silence ~ -23
GATE_SLOPE = 4.0


@dataclass
class TokenScript:
    """Next-token logits as a function of the previously emitted token.

    ``transitions[prev][next] = logit``. ``prev`` is ``START`` before anything is emitted. Tokens
    not listed get a low logit; after a token with no entry the model ends (blank / end-of-text).
    """

    transitions: dict[str, dict[str, float]] = field(default_factory=dict)

    @classmethod
    def chain(cls, pieces: list[str]) -> TokenScript:
        script = cls()
        prev = START
        for piece in pieces:
            script.transitions.setdefault(prev, {})[piece] = 8.0
            prev = piece
        return script

    def pieces(self) -> set[str]:
        out: set[str] = set()
        for nxt in self.transitions.values():
            out.update(nxt)
        return out


def words_to_pieces(text: str) -> list[str]:
    """"hide all doors" -> ["▁hide", "▁all", "▁doors"] (every word must be a known piece)."""
    return ["▁" + w for w in text.split()]


HIDE_ALL_DOORS = TokenScript.chain(words_to_pieces("hide all doors"))


def bathroom_or_bedroom() -> TokenScript:
    """"go to the bathroom" normally; a "bedroom" hotword should tip it to "go to the bedroom"."""
    script = TokenScript.chain(words_to_pieces("go to the"))
    script.transitions["▁the"] = {"▁bath": 3.0, "▁bed": 1.5}
    script.transitions["▁bath"] = {"room": 8.0}
    script.transitions["▁bed"] = {"room": 8.0}
    return script


# ----------------------------------------------------------------------------------------------
# graph helpers


class _Graph:
    def __init__(self, name: str) -> None:
        self.name = name
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.inputs: list[onnx.ValueInfoProto] = []
        self.outputs: list[onnx.ValueInfoProto] = []
        self._n = 0

    def tmp(self, stem: str = "t") -> str:
        self._n += 1
        return f"{stem}_{self._n}"

    def const(self, value: np.ndarray | float | int | list, dtype=np.float32, name: str | None = None) -> str:
        name = name or self.tmp("c")
        self.inits.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name

    def op(self, op_type: str, inputs: list[str], out: str | None = None, **attrs) -> str:
        out = out or self.tmp(op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], **attrs))
        return out

    def inp(self, name: str, elem: int, shape: list) -> str:
        self.inputs.append(helper.make_tensor_value_info(name, elem, shape))
        return name

    def output(self, name: str, elem: int, shape: list) -> None:
        self.outputs.append(helper.make_tensor_value_info(name, elem, shape))

    def gate(self, x: str, threshold: float) -> str:
        """Sigmoid(GATE_SLOPE * (x - threshold))."""
        shifted = self.op("Sub", [x, self.const(threshold)])
        return self.op("Sigmoid", [self.op("Mul", [shifted, self.const(GATE_SLOPE)])])

    def save(self, path: Path, metadata: dict[str, str] | None = None) -> Path:
        graph = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
        model.ir_version = IR_VERSION
        for k, v in (metadata or {}).items():
            entry = model.metadata_props.add()
            entry.key, entry.value = k, str(v)
        onnx.checker.check_model(model)
        path.parent.mkdir(parents=True, exist_ok=True)
        onnx.save(model, str(path))
        return path


def _script_table(script: TokenScript, vocab: list[str], end_id: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of next-token logits indexed by previous token id, and the silence row."""
    index = {tok: i for i, tok in enumerate(vocab)}
    v = len(vocab)
    table = np.full((v, v), -30.0, dtype=np.float32)
    table[:, end_id] = 10.0  # default: end
    for prev, nxt in script.transitions.items():
        row = end_id if prev == START else index[prev]
        table[row, :] = -30.0
        table[row, end_id] = -10.0
        for tok, logit in nxt.items():
            table[row, index[tok]] = logit
    silence = np.full((v,), -30.0, dtype=np.float32)
    silence[end_id] = 10.0
    return table, silence


def _mix(g: _Graph, gate: str, scripted: str, silence: np.ndarray) -> str:
    """gate * scripted + (1 - gate) * silence."""
    one_minus = g.op("Sub", [g.const(1.0), gate])
    return g.op("Add", [g.op("Mul", [gate, scripted]), g.op("Mul", [one_minus, g.const(silence)])])


def _write_tokens(path: Path, symbols: list[str]) -> Path:
    path.write_text("".join(f"{s} {i}\n" for i, s in enumerate(symbols)), encoding="utf-8")
    return path


# ----------------------------------------------------------------------------------------------
# transducers (Zipformer): shared decoder and joiner

TRANSDUCER_SPECIALS = ["<blk>", "<sos/eos>", "<unk>"]
CONTEXT_SIZE = 2
FEATURE_DIM = 80
SUBSAMPLING = 4


def transducer_vocab() -> list[str]:
    return TRANSDUCER_SPECIALS + WORD_PIECES + LETTERS


def _transducer_decoder(path: Path, script: TokenScript, vocab: list[str]) -> None:
    # The "context start" row is the blank row (id 0): sherpa starts the context with blanks.
    table, _ = _script_table(script, vocab, end_id=0)
    g = _Graph("decoder")
    y = g.inp("y", TensorProto.INT64, ["N", CONTEXT_SIZE])
    last = g.op("Gather", [y, g.const([CONTEXT_SIZE - 1], np.int64)], axis=1)  # (N, 1)
    last = g.op("Squeeze", [last, g.const([1], np.int64)])  # (N,)
    # Offline greedy search starts the context with -1; clamp to the blank row.
    last = g.op("Max", [last, g.const(0, np.int64)])
    g.op("Gather", [g.const(table), last], out="decoder_out", axis=0)  # (N, V)
    g.output("decoder_out", TensorProto.FLOAT, ["N", len(vocab)])
    g.save(path, {"vocab_size": len(vocab), "context_size": CONTEXT_SIZE})


def _transducer_joiner(path: Path, vocab: list[str]) -> None:
    _, silence = _script_table(TokenScript(), vocab, end_id=0)
    g = _Graph("joiner")
    enc = g.inp("encoder_out", TensorProto.FLOAT, ["N", 1])  # the gate, one channel
    dec = g.inp("decoder_out", TensorProto.FLOAT, ["N", len(vocab)])
    g.op("Identity", [_mix(g, enc, dec, silence)], out="logit")
    g.output("logit", TensorProto.FLOAT, ["N", len(vocab)])
    g.save(path, {})


def _fbank_gate_frames(g: _Graph, x: str, num_frames: str | None, chunk: int | None) -> str:
    """(N, T, 80) log-mel -> (N, T // 4, 1) gate, one value per 4 input frames."""
    if chunk is not None:
        x = g.op("Slice", [x, g.const([0], np.int64), g.const([chunk], np.int64), g.const([1], np.int64)])
    else:
        assert num_frames is not None
        x = g.op("Slice", [x, g.const([0], np.int64), num_frames, g.const([1], np.int64)])
    grouped = g.op("Reshape", [x, g.const([0, -1, SUBSAMPLING * FEATURE_DIM], np.int64)])
    mean = g.op("ReduceMean", [grouped], axes=[2], keepdims=1)
    return g.gate(mean, FBANK_GATE_THRESHOLD)


@dataclass
class TransducerFiles:
    encoder: Path
    decoder: Path
    joiner: Path
    tokens: Path


def build_offline_transducer(folder: Path, script: TokenScript = HIDE_ALL_DOORS) -> TransducerFiles:
    """A non-streaming Zipformer transducer: encoder(x, x_lens) -> (encoder_out, encoder_out_lens)."""
    folder.mkdir(parents=True, exist_ok=True)
    vocab = transducer_vocab()
    g = _Graph("encoder")
    x = g.inp("x", TensorProto.FLOAT, ["N", "T", FEATURE_DIM])
    x_lens = g.inp("x_lens", TensorProto.INT64, ["N"])
    t = g.op("Gather", [g.op("Shape", [x]), g.const([1], np.int64)], axis=0)  # [T]
    four = g.const([SUBSAMPLING], np.int64)
    usable = g.op("Mul", [g.op("Div", [t, four]), four])
    gate = _fbank_gate_frames(g, x, usable, None)
    g.op("Identity", [gate], out="encoder_out")
    g.op("Div", [x_lens, g.const(SUBSAMPLING, np.int64)], out="encoder_out_lens")
    g.output("encoder_out", TensorProto.FLOAT, ["N", "T4", 1])
    g.output("encoder_out_lens", TensorProto.INT64, ["N"])
    encoder = g.save(folder / "encoder.onnx", {"model_type": "zipformer2", "version": "1"})
    _transducer_decoder(folder / "decoder.onnx", script, vocab)
    _transducer_joiner(folder / "joiner.onnx", vocab)
    return TransducerFiles(encoder, folder / "decoder.onnx", folder / "joiner.onnx",
                           _write_tokens(folder / "tokens.txt", vocab))


# Streaming Zipformer2: one encoder stack with one layer, tiny dims.
ZIP2 = {
    "encoder_dims": [8], "query_head_dims": [2], "value_head_dims": [2], "num_heads": [1],
    "num_encoder_layers": [1], "cnn_module_kernels": [3], "left_context_len": [4],
}
DECODE_CHUNK_LEN = 32  # feature frames consumed per chunk
CHUNK_T = DECODE_CHUNK_LEN + 7  # frames the encoder sees per call (with right context)


def build_streaming_zipformer2(folder: Path, script: TokenScript = HIDE_ALL_DOORS) -> TransducerFiles:
    """A streaming Zipformer2 transducer with the full cached-state interface sherpa-onnx drives."""
    folder.mkdir(parents=True, exist_ok=True)
    vocab = transducer_vocab()
    g = _Graph("encoder")
    x = g.inp("x", TensorProto.FLOAT, ["N", CHUNK_T, FEATURE_DIM])
    state_specs: list[tuple[str, int, list]] = []
    dim, kdim = ZIP2["encoder_dims"][0], ZIP2["query_head_dims"][0] * ZIP2["num_heads"][0]
    vdim, left = ZIP2["value_head_dims"][0] * ZIP2["num_heads"][0], ZIP2["left_context_len"][0]
    kernel = ZIP2["cnn_module_kernels"][0]
    for layer in range(ZIP2["num_encoder_layers"][0]):
        state_specs += [
            (f"cached_key_{layer}", TensorProto.FLOAT, [left, "N", kdim]),
            (f"cached_nonlin_attn_{layer}", TensorProto.FLOAT, [1, "N", left, 3 * dim // 4]),
            (f"cached_val1_{layer}", TensorProto.FLOAT, [left, "N", vdim]),
            (f"cached_val2_{layer}", TensorProto.FLOAT, [left, "N", vdim]),
            (f"cached_conv1_{layer}", TensorProto.FLOAT, ["N", dim, kernel // 2]),
            (f"cached_conv2_{layer}", TensorProto.FLOAT, ["N", dim, kernel // 2]),
        ]
    embed_dim = (((FEATURE_DIM - 1) // 2) - 1) // 2
    state_specs.append(("embed_states", TensorProto.FLOAT, ["N", 128, 3, embed_dim]))
    state_specs.append(("processed_lens", TensorProto.INT64, ["N"]))
    for name, elem, shape in state_specs:
        g.inp(name, elem, shape)

    gate = _fbank_gate_frames(g, x, None, DECODE_CHUNK_LEN)
    g.op("Identity", [gate], out="encoder_out")
    g.output("encoder_out", TensorProto.FLOAT, ["N", DECODE_CHUNK_LEN // SUBSAMPLING, 1])
    for name, elem, shape in state_specs:
        if name == "processed_lens":
            g.op("Add", [name, g.const(DECODE_CHUNK_LEN // SUBSAMPLING, np.int64)], out="new_" + name)
        else:
            g.op("Identity", [name], out="new_" + name)
        g.output("new_" + name, elem, shape)

    meta = {k: ",".join(str(v) for v in vals) for k, vals in ZIP2.items()}
    meta.update({"model_type": "zipformer2", "version": "1", "T": CHUNK_T,
                 "decode_chunk_len": DECODE_CHUNK_LEN, "comment": "tiny test model"})
    encoder = g.save(folder / "encoder.onnx", meta)
    _transducer_decoder(folder / "decoder.onnx", script, vocab)
    _transducer_joiner(folder / "joiner.onnx", vocab)
    return TransducerFiles(encoder, folder / "decoder.onnx", folder / "joiner.onnx",
                           _write_tokens(folder / "tokens.txt", vocab))


# ----------------------------------------------------------------------------------------------
# Whisper

WHISPER_SPECIALS = ["<|endoftext|>", "<|startoftranscript|>", "<|translate|>", "<|transcribe|>",
                    "<|nospeech|>", "<|notimestamps|>"]
WHISPER_TEXT_CTX = 64
WHISPER_STATE = 4
WHISPER_LAYERS = 1


@dataclass
class WhisperFiles:
    encoder: Path
    decoder: Path
    tokens: Path


def whisper_vocab() -> list[str]:
    """Whisper-style text tokens carry their leading space: "▁hide" becomes " hide"."""
    text = [p.replace("▁", " ") for p in WORD_PIECES] + LETTERS
    return text + WHISPER_SPECIALS


def build_whisper(folder: Path, script: TokenScript = HIDE_ALL_DOORS) -> WhisperFiles:
    """An English-only Whisper: encoder(mel) -> cross k/v; decoder with self-attention KV caches."""
    folder.mkdir(parents=True, exist_ok=True)
    vocab = whisper_vocab()
    ids = {tok: i for i, tok in enumerate(vocab)}
    eot, notimestamps = ids["<|endoftext|>"], ids["<|notimestamps|>"]
    # The script is written in word pieces; map "▁x" onto whisper's " x" and START onto the last
    # prompt token (<|notimestamps|>), which is what the decoder sees before the first word.
    wscript = TokenScript({
        ("<|notimestamps|>" if prev == START else prev.replace("▁", " ")):
            {tok.replace("▁", " "): v for tok, v in nxt.items()}
        for prev, nxt in script.transitions.items()
    })
    table, silence = _script_table(wscript, vocab, end_id=eot)
    # _script_table maps START onto the end row; here the prompt row is <|notimestamps|>.
    cross_shape = [WHISPER_LAYERS, 1, 1, WHISPER_STATE]

    g = _Graph("whisper_encoder")
    mel = g.inp("mel", TensorProto.FLOAT, [1, 80, "T"])
    peak = g.op("ReduceMax", [mel], keepdims=0)  # scalar
    gate = g.gate(peak, WHISPER_GATE_THRESHOLD)
    k = g.op("Mul", [g.const(np.ones(cross_shape)), gate], out="n_layer_cross_k")
    g.op("Identity", [k], out="n_layer_cross_v")
    g.output("n_layer_cross_k", TensorProto.FLOAT, cross_shape)
    g.output("n_layer_cross_v", TensorProto.FLOAT, cross_shape)
    meta = {
        "model_type": "whisper-tiny.en", "n_mels": 80, "n_audio_ctx": 1500, "n_audio_state": WHISPER_STATE,
        "n_audio_head": 1, "n_audio_layer": 1, "n_vocab": len(vocab), "n_text_ctx": WHISPER_TEXT_CTX,
        "n_text_state": WHISPER_STATE, "n_text_head": 1, "n_text_layer": WHISPER_LAYERS,
        "sot": ids["<|startoftranscript|>"], "eot": eot, "blank_id": ids[" "] if " " in ids else eot,
        "translate": ids["<|translate|>"], "transcribe": ids["<|transcribe|>"], "is_multilingual": 0,
        "no_timestamps": notimestamps, "no_speech": ids["<|nospeech|>"],
        "sot_sequence": str(ids["<|startoftranscript|>"]), "sot_index": 0,
    }
    encoder = g.save(folder / "encoder.onnx", meta)

    g = _Graph("whisper_decoder")
    tokens = g.inp("tokens", TensorProto.INT64, [1, "n"])
    cache_shape = [WHISPER_LAYERS, 1, WHISPER_TEXT_CTX, WHISPER_STATE]
    g.inp("in_n_layer_self_k_cache", TensorProto.FLOAT, cache_shape)
    g.inp("in_n_layer_self_v_cache", TensorProto.FLOAT, cache_shape)
    cross_k = g.inp("n_layer_cross_k", TensorProto.FLOAT, cross_shape)
    g.inp("n_layer_cross_v", TensorProto.FLOAT, cross_shape)
    g.inp("offset", TensorProto.INT64, [1])
    scripted = g.op("Gather", [g.const(table), tokens], axis=0)  # (1, n, V)
    dgate = g.op("ReduceMax", [cross_k], keepdims=0)
    g.op("Identity", [_mix(g, dgate, scripted, silence)], out="logits")
    g.op("Identity", ["in_n_layer_self_k_cache"], out="out_n_layer_self_k_cache")
    g.op("Identity", ["in_n_layer_self_v_cache"], out="out_n_layer_self_v_cache")
    g.output("logits", TensorProto.FLOAT, [1, "n", len(vocab)])
    g.output("out_n_layer_self_k_cache", TensorProto.FLOAT, cache_shape)
    g.output("out_n_layer_self_v_cache", TensorProto.FLOAT, cache_shape)
    decoder = g.save(folder / "decoder.onnx", {})

    # Whisper's tokens.txt is base64 of each token's bytes.
    lines = [f"{base64.b64encode(tok.encode()).decode()} {i}\n" for i, tok in enumerate(vocab)]
    tokens_path = folder / "tokens.txt"
    tokens_path.write_text("".join(lines), encoding="utf-8")
    return WhisperFiles(encoder, decoder, tokens_path)


# ----------------------------------------------------------------------------------------------
# Moonshine (v1: preprocessor, encoder, uncached and cached decoders)

MOONSHINE_SPECIALS = ["<unk>", "<s>", "</s>"]  # sherpa-onnx hard-codes sos = 1, eos = 2
MOONSHINE_HOP = 384  # samples per encoder frame (sherpa's max-length rule assumes this)


@dataclass
class MoonshineFiles:
    preprocessor: Path
    encoder: Path
    uncached_decoder: Path
    cached_decoder: Path
    tokens: Path


def moonshine_vocab() -> list[str]:
    return MOONSHINE_SPECIALS + WORD_PIECES + LETTERS


def build_moonshine(folder: Path, script: TokenScript = HIDE_ALL_DOORS) -> MoonshineFiles:
    folder.mkdir(parents=True, exist_ok=True)
    vocab = moonshine_vocab()
    eos = 2
    # START means "after <s>" (id 1) for Moonshine.
    table, silence = _script_table(script, vocab, end_id=eos)
    start_row = table[eos].copy()
    table[1] = start_row
    table[eos] = silence

    g = _Graph("moonshine_preprocess")
    audio = g.inp("args_0", TensorProto.FLOAT, [1, "num_samples"])
    n = g.op("Gather", [g.op("Shape", [audio]), g.const([1], np.int64)], axis=0)
    hop = g.const([MOONSHINE_HOP], np.int64)
    usable = g.op("Mul", [g.op("Div", [n, hop]), hop])
    framed = g.op("Slice", [audio, g.const([0], np.int64), usable, g.const([1], np.int64)])
    framed = g.op("Reshape", [framed, g.const([1, -1, MOONSHINE_HOP], np.int64)])
    power = g.op("ReduceMean", [g.op("Mul", [framed, framed])], axes=[2], keepdims=1)
    g.op("Log", [g.op("Add", [power, g.const(1e-10)])], out="features")  # (1, F, 1)
    g.output("features", TensorProto.FLOAT, [1, "F", 1])
    pre = g.save(folder / "preprocess.onnx")

    g = _Graph("moonshine_encoder")
    g.inp("features", TensorProto.FLOAT, [1, "F", 1])
    g.inp("features_len", TensorProto.INT32, [1])
    g.op("Identity", ["features"], out="encoder_out")
    g.output("encoder_out", TensorProto.FLOAT, [1, "F", 1])
    enc = g.save(folder / "encode.onnx")

    def decoder(name: str, cached: bool) -> Path:
        g = _Graph(name)
        tok = g.inp("tokens", TensorProto.INT32, [1, "n"])
        enc_out = g.inp("encoder_out", TensorProto.FLOAT, [1, "F", 1])
        g.inp("seq_len", TensorProto.INT32, [1])
        if cached:
            g.inp("state_0", TensorProto.FLOAT, [1, 1])
        last = g.op("Gather", [tok, g.const([-1], np.int64)], axis=1)  # (1, 1)
        scripted = g.op("Gather", [g.const(table), last], axis=0)  # (1, 1, V)
        gate = g.gate(g.op("ReduceMax", [enc_out], keepdims=0), RAW_LOG_ENERGY_THRESHOLD)
        g.op("Identity", [_mix(g, gate, scripted, silence)], out="logits")
        g.output("logits", TensorProto.FLOAT, [1, 1, len(vocab)])
        if cached:
            g.op("Add", ["state_0", g.const(1.0)], out="new_state_0")
        else:
            g.op("Identity", [g.const(np.zeros((1, 1)))], out="new_state_0")
        g.output("new_state_0", TensorProto.FLOAT, [1, 1])
        return g.save(folder / f"{name}.onnx")

    unc = decoder("uncached_decode", cached=False)
    cac = decoder("cached_decode", cached=True)
    return MoonshineFiles(pre, enc, unc, cac, _write_tokens(folder / "tokens.txt", vocab))


# ----------------------------------------------------------------------------------------------
# Silero VAD (v5 interface): input (1, n) samples, state (2, 1, 128), sr -> output, stateN


def build_silero_vad(path: Path) -> Path:
    g = _Graph("silero_vad_energy")
    x = g.inp("input", TensorProto.FLOAT, [1, "n"])
    g.inp("state", TensorProto.FLOAT, [2, 1, 128])
    g.inp("sr", TensorProto.INT64, [1])
    power = g.op("ReduceMean", [g.op("Mul", [x, x])], axes=[1], keepdims=1)  # (1, 1)
    log_power = g.op("Log", [g.op("Add", [power, g.const(1e-10)])])
    g.op("Identity", [g.gate(log_power, RAW_LOG_ENERGY_THRESHOLD)], out="output")
    g.op("Identity", ["state"], out="stateN")
    g.output("output", TensorProto.FLOAT, [1, 1])
    g.output("stateN", TensorProto.FLOAT, [2, 1, 128])
    return g.save(path)
