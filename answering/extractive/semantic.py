"""Meaning, not words: the question against answer units and passages with the bundled multilingual-e5.

The question vector is the one the answer's searches already computed (one
embedding per answer). Units are embedded as passages and cached by their
text (``retrieval.facade.unit_vectors_get``), so a unit is embedded once for
every later question; passages reuse their stored chunk vectors. An English
question scores Indonesian units directly: e5 is multilingual.
"""
from __future__ import annotations

import logging
from typing import Callable, Sequence

import numpy as np

from retrieval import facade
from retrieval.facade.search import EmbeddingError

logger = logging.getLogger(__name__)


class SemanticScorer:
    """Cosines of the question with units and with passages; None when the embedder is unavailable."""

    def __init__(self, question_vector: Callable[[], Sequence[float]], *, embed_missing: bool = True):
        self._question_vector = question_vector
        self._embed_missing = embed_missing
        self._query: np.ndarray | None = None

    @property
    def model_name(self) -> str | None:
        """The embedder whose space the cosines are in (the decision's semantic weights are per model)."""
        from retrieval.facade.search import get_embedder

        try:
            return get_embedder().model_name
        except EmbeddingError:
            return None

    def _query_unit(self) -> np.ndarray | None:
        if self._query is None:
            vector = np.asarray(self._question_vector(), dtype=np.float32)
            norm = float(np.linalg.norm(vector))
            self._query = vector / norm if norm else vector
        return self._query

    def units(self, texts: Sequence[str]) -> list[float] | None:
        if not texts:
            return []
        try:
            query = self._query_unit()
            rows = facade.unit_vectors_get(list(texts), embed_missing=self._embed_missing)
        except EmbeddingError as exc:
            logger.warning("unit scoring without the embedder: %s", exc)
            return None
        return [float(value) for value in rows @ query]

    def passages(self, chunk_ids: Sequence) -> dict:
        try:
            query = self._query_unit()
        except EmbeddingError as exc:
            logger.warning("passage scoring without the embedder: %s", exc)
            return {}
        cosines = {}
        for chunk_id, vector in facade.chunk_vectors_get(list(chunk_ids)).items():
            row = np.asarray(vector, dtype=np.float32)
            norm = float(np.linalg.norm(row))
            cosines[chunk_id] = float(row @ query / norm) if norm else 0.0
        return cosines
