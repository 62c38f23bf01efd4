"""Optional cross-encoder reranking through a TEI-style ``POST /rerank`` endpoint."""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from retrieval.embedders import EmbeddingError


class RerankError(EmbeddingError):
    """The rerank dependency failed (answered like the embedder's failure)."""


class HttpReranker:
    def __init__(self, base_url: str, model: str | None, timeout: float) -> None:
        import httpx

        self._url = base_url.rstrip("/") + "/rerank"
        self._model = model
        self._client = httpx.Client(timeout=timeout)

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        """Relevance score per text, in the order given."""
        import httpx

        body = {"query": query, "texts": list(texts)}
        if self._model:
            body["model"] = self._model
        try:
            response = self._client.post(self._url, json=body)
            response.raise_for_status()
            rows = response.json()
            scores = [0.0] * len(texts)
            for row in rows:
                scores[int(row["index"])] = float(row["score"])
        except (httpx.HTTPError, KeyError, TypeError, ValueError, IndexError) as exc:
            raise RerankError(f"rerank server error: {exc}") from exc
        return scores


@lru_cache(maxsize=2)
def _reranker(base_url: str, model: str | None, timeout: float) -> HttpReranker:
    return HttpReranker(base_url, model, timeout)


def get_reranker() -> HttpReranker | None:
    from django.conf import settings

    config = settings.ACEH_RAG
    if not config.retrieval.rerank_base_url:
        return None
    return _reranker(config.retrieval.rerank_base_url, config.retrieval.rerank_model, config.embedding.timeout_seconds)
