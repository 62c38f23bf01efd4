"""Synthetic scale corpora for the search benchmarks: realistic text, clustered vectors, bench questions.

Pure (stdlib + numpy): ``bench/search.py`` and ``bench/scale.py`` build their
corpora from it, and the tests import it without Django.

Text comes from the real regulations in ``../shared/corpus/txt`` so that
full-text statistics (term shares, the any-word tiers' rare terms) look like a
real corpus. Vectors are random unit vectors around topic centres, as real
embeddings cluster by topic; generating them takes seconds, embedding a
million passages with the bundled model would take a day.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np

QUESTIONS = [
    "transparansi anggaran pemerintah aceh", "kewenangan baitul mal mengelola zakat", "upah minimum provinsi aceh 2026",
    "siapa yang menandatangani qanun", "jangka waktu keberatan informasi publik", "sanksi administratif pelanggaran",
    "pengelolaan sampah rumah tangga", "pendidikan dayah di aceh", "tugas dinas syariat islam",
    "retribusi pelayanan kesehatan", "pembentukan peraturan perundang-undangan", "keselamatan radiasi pengion",
    "dana otonomi khusus aceh", "pemilihan gubernur aceh", "hak masyarakat memperoleh informasi",
    "perizinan usaha pertambangan", "lembaga wali nanggroe", "pajak kendaraan bermotor", "cuti pegawai negeri", "tanggap darurat bencana",
]
# Questions the question-aware stages act on: named instruments and articles, definitions, colloquial, English.
FOCUSED = [
    "Qanun Aceh Nomor 7 Tahun 2007 pasal 3 isinya apa?", "apa yang dimaksud dengan baitul mal menurut qanun 12/2012?",
    "qanun 40/2015 pasal 12 ngatur apa soal pajak?", "pengertian informasi publik", "kalo bikin izin usaha gimana caranya?",
    "What is the special autonomy fund for?", "UUPA pasal 181 dana bagi hasil", "tanggap darurat bencana itu apa?",
    "brp lama masa jabatan gubernur yg dipilih?", "How long must public information requests be answered?",
]

DIMENSIONS = 384
TOPICS = 2000
# Per-dimension noise around a topic centre: cosine to the centre ~0.85, as
# passages of one regulation sit close together in e5's space.
TOPIC_NOISE = 0.032
_FALLBACK_WORDS = "anggaran pemerintah aceh qanun pasal ayat zakat baitul mal dinas gubernur informasi publik pajak".split()


def bench_questions(count: int) -> list[str]:
    """``count`` general questions, cycling (numbered after the first round, so no two are equal)."""
    return [QUESTIONS[i % len(QUESTIONS)] + ("" if i < len(QUESTIONS) else f" {i}") for i in range(count)]


def corpus_sentences(folder: Path, limit: int = 200_000) -> list[str]:
    """Sentences of 40-400 characters from the corpus texts (a fixed filler when the corpus is absent)."""
    sentences: list[str] = []
    if folder.is_dir():
        for path in sorted(folder.glob("*.txt")):
            for piece in re.split(r"(?<=[.;:])\s+", path.read_text(errors="ignore")):
                piece = " ".join(piece.split())
                if 40 <= len(piece) <= 400:
                    sentences.append(piece)
            if len(sentences) >= limit:
                break
    if not sentences:
        rng = random.Random(1)
        sentences = [" ".join(rng.choice(_FALLBACK_WORDS) for _ in range(20)) + "." for _ in range(5000)]
    return sentences


def corpus_texts(folder: Path, min_chars: int = 2000) -> list[str]:
    """Whole corpus texts, whitespace collapsed (a fixed filler text when the corpus is absent)."""
    texts = []
    if folder.is_dir():
        for path in sorted(folder.glob("*.txt")):
            text = " ".join(path.read_text(errors="ignore").split())
            if len(text) >= min_chars:
                texts.append(text)
    if not texts:
        rng = random.Random(1)
        texts = [" ".join(rng.choice(_FALLBACK_WORDS) for _ in range(20_000))]
    return texts


class ChunkTexts:
    """Deterministic passage text for synthetic document ``i``, chunk ``j``.

    A document reads one source text in consecutive windows (as a real
    regulation's chunks do) from an offset of its own, so a million chunks
    drawn from 6 MB of text do not repeat the same passages; every
    ``recombine_every``-th chunk splices in a window of another source (the
    recombinations give the term co-occurrences a real corpus has and a copy
    would not). Windows start and end at word boundaries.
    """

    def __init__(self, texts: list[str], *, chars: int = 900, recombine_every: int = 4, seed: int = 42) -> None:
        self.texts = texts
        self.chars = chars
        self.recombine_every = recombine_every
        self.seed = seed

    def _window(self, text: str, start: int, chars: int) -> str:
        start %= max(1, len(text) - chars)
        if start:
            space = text.find(" ", start)
            start = space + 1 if 0 <= space < start + 40 else start
        end = start + chars
        space = text.rfind(" ", start, end)
        return text[start:space if space > start + chars // 2 else end]

    def document(self, index: int, chunks: int) -> list[str]:
        pick = random.Random(self.seed * 1_000_003 + index)
        source = self.texts[pick.randrange(len(self.texts))]
        offset = pick.randrange(len(source))
        passages = []
        for ordinal in range(chunks):
            start = offset + ordinal * self.chars
            if self.recombine_every and ordinal % self.recombine_every == self.recombine_every - 1:
                other = self.texts[pick.randrange(len(self.texts))]
                half = self.chars // 2
                text = self._window(source, start, half) + " " + self._window(other, pick.randrange(len(other)), half)
            else:
                text = self._window(source, start, self.chars)
            passages.append(text)
        return passages


def topic_centres(rng: np.random.Generator) -> np.ndarray:
    centres = rng.standard_normal((TOPICS, DIMENSIONS)).astype(np.float32)
    return centres / np.linalg.norm(centres, axis=1, keepdims=True)


def clustered_vectors(count: int, centres: np.ndarray, rng: np.random.Generator, picks: np.ndarray | None = None) -> np.ndarray:
    """``count`` unit vectors, each near a topic centre (random centres unless ``picks`` names them)."""
    if picks is None:
        picks = rng.integers(0, len(centres), size=count)
    vectors = centres[picks] + rng.standard_normal((count, DIMENSIONS)).astype(np.float32) * TOPIC_NOISE
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def document_vectors(index: int, chunks: int, centres: np.ndarray, *, seed: int = 42, own_topic_share: float = 0.5) -> np.ndarray:
    """Deterministic vectors for document ``index``: about half its chunks near the document's own topic."""
    rng = np.random.default_rng([seed, index])
    own = rng.integers(0, len(centres))
    picks = np.where(rng.random(chunks) < own_topic_share, own, rng.integers(0, len(centres), size=chunks))
    return clustered_vectors(chunks, centres, rng, picks)
