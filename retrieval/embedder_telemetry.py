"""Spans and metrics around an embedder: latency and batch size per call, query or passage."""
from __future__ import annotations

import time
from typing import Sequence

from kernel.telemetry import metrics
from kernel.telemetry.tracing import span


class InstrumentedEmbedder:
    """Delegates to the real embedder (model name, dimensions, token counts unchanged)."""

    def __init__(self, inner) -> None:
        self._inner = inner

    def __getattr__(self, name: str):
        return getattr(self._inner, name)

    @property
    def inner(self):
        return self._inner

    def _timed(self, kind: str, texts: Sequence[str], encode):
        texts = list(texts)
        started = time.perf_counter()
        with span(f"embed.{kind}", **{"aceh_rag.embedding.model": self._inner.model_name,
                                      "aceh_rag.embedding.batch_size": len(texts)}):
            vectors = encode(texts)
        metrics.record_embedding(kind, len(texts), time.perf_counter() - started)
        return vectors

    def embed_queries(self, texts: Sequence[str]):
        return self._timed("query", texts, self._inner.embed_queries)

    def embed_passages(self, texts: Sequence[str]):
        return self._timed("passage", texts, self._inner.embed_passages)
