"""The corpus mean passage vector, for the semantic leg's centered cosine (semantic.py).

The multilingual-e5 vectors share one strong common direction (every passage is about 0.92 cosine
from the corpus mean), so a passage that is merely "typical" sits close to every short or colloquial
question (a hub). Ordering candidates by the cosine of ``passage - mean`` with ``question - mean``
removes the shared component. Measured with exact search on the real corpus: semantic R@5 0.775 ->
0.817 on the quality training part, 0.722 -> 0.778 on the twin set, 0.727 -> 0.748 on
bench/questions_real.jsonl (MRR flat).
"""
from __future__ import annotations

import threading
import time

from django.conf import settings
from django.db import connection

from retrieval.search.vectors import vector_literal

MEAN_SAMPLE_ROWS = 20_000
# The sample's pages are chosen by this seed: every process (each web worker, each restart) reads the same pages of
# the same table, so it centres by the same mean and ranks a question the same way. Unseeded, two processes of the
# same code at 1M chunks returned different top 10s for 37 of 100 questions (docs/benchmarks.md, session 34).
MEAN_SAMPLE_SEED = 0
_MEAN_SQL = "SELECT avg(embedding)::text FROM retrieval_chunk {sample} WHERE embedding_model = %s"

_lock = threading.Lock()
_means: dict[tuple[str, str], tuple[float, list[float] | None]] = {}


def corpus_mean(model_name: str) -> list[float] | None:
    """The mean passage vector of ``model_name`` (a sample of a large table, the same pages in every process),
    cached per process for ``mean_vector_ttl_seconds``."""
    key, now = (connection.alias, model_name), time.monotonic()
    with _lock:
        cached = _means.get(key)
        if cached and now - cached[0] < settings.ACEH_RAG.retrieval.mean_vector_ttl_seconds:
            return cached[1]
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = 'retrieval_chunk'")
        rows = float(cursor.fetchone()[0] or 0)
        share = 100.0 * MEAN_SAMPLE_ROWS / rows if rows > MEAN_SAMPLE_ROWS else None
        sample = f"TABLESAMPLE SYSTEM ({share:.4f}) REPEATABLE ({MEAN_SAMPLE_SEED})" if share else ""
        cursor.execute(_MEAN_SQL.format(sample=sample), [model_name])
        text = cursor.fetchone()[0]
    mean = [float(x) for x in text.strip("[]").split(",")] if text else None
    with _lock:
        _means[key] = (now, mean)
    return mean


def forget_corpus_mean() -> None:
    with _lock:
        _means.clear()


def centered_literals(vector, model_name: str, centered: bool) -> tuple[str, str]:
    """``(mean, vector - mean)`` as vector literals for ``(embedding - mean) <=> (vector - mean)``; the mean is
    zero when ``centered`` is off (or nothing is indexed), which is the plain cosine."""
    mean = corpus_mean(model_name) if centered else None
    mean = mean or [0.0] * len(vector)
    return vector_literal(mean), vector_literal([q - m for q, m in zip(vector, mean)])
