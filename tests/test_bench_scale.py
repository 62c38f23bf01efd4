"""bench/scale.py: its corpus generator, and one tiny real run's JSON rows (issue #36's interface)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from acehrag.embedded_db import embedded_stop
from bench._scale_corpus import ChunkTexts, corpus_texts, document_vectors, topic_centres
from tests.conftest import ROOT

SOURCE = " ".join(f"Pasal {n} ayat ({n % 7}) Pemerintah Aceh wajib mengelola anggaran secara terbuka." for n in range(400))


def test_a_document_reads_its_source_in_word_aligned_windows_and_is_the_same_every_time(tmp_path):
    (tmp_path / "qanun.txt").write_text(SOURCE)
    (tmp_path / "pergub.txt").write_text(SOURCE.replace("anggaran", "zakat"))
    texts = ChunkTexts(corpus_texts(tmp_path), chars=300, recombine_every=4)

    first = texts.document(7, 12)

    assert first == texts.document(7, 12)
    assert first != texts.document(8, 12)
    assert all(0 < len(passage) <= 301 for passage in first)
    words = set(SOURCE.split()) | set(SOURCE.replace("anggaran", "zakat").split())
    assert all(set(passage.split()) <= words for passage in first)


def test_document_vectors_are_unit_length_deterministic_and_cluster_around_the_documents_topic():
    centres = topic_centres(np.random.default_rng(42))

    vectors = document_vectors(3, 100, centres)

    assert vectors.shape == (100, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(vectors, document_vectors(3, 100, centres))
    nearest_topic = (vectors @ centres.T).argmax(axis=1)
    assert np.bincount(nearest_topic).max() >= 30  # about half the chunks share the document's own topic


def test_a_tiny_run_writes_one_row_per_size_with_the_issues_keys(tmp_path):
    out = tmp_path / "scale.json"
    env = {**os.environ, "ACEH_RAG_DATA_DIR": str(tmp_path / "data"), "DJANGO_SETTINGS_MODULE": "acehrag.settings",
           "ACEH_RAG_EMBEDDING__BACKEND": "hashing"}
    command = [sys.executable, "bench/scale.py", "--sizes", "2000", "--queries", "4", "--recall-queries", "4", "--json", str(out)]

    try:
        subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True, timeout=120)
    finally:
        # The bench started an embedded PostgreSQL in the test's own directory: it goes with the test.
        embedded_stop(tmp_path / "data")

    rows = json.loads(out.read_text())
    assert [row["size"] for row in rows] == [2000]
    keys = {"size", "load_s", "index_build_s", "db_bytes", "index_bytes", "pg_rss_bytes", "embed_p95_ms",
            "recall_at_10", "recall_at_10_filtered", "p95_ms_one_collection", "p95_ms_one_document"}
    keys |= {f"{stat}_ms_{mode}" for stat in ("p50", "p95") for mode in ("hybrid", "semantic", "lexical")}
    assert keys <= rows[0].keys()
    assert rows[0]["db_bytes"] > rows[0]["index_bytes"] > 0 and rows[0]["pg_rss_bytes"] > 0
    assert 0.0 <= rows[0]["recall_at_10"] <= 1.0
