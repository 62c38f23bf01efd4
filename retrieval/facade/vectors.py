"""Vectors for the answer step's semantic scoring (answering.extractive.semantic).

Only vectors leave here, never text: the units and chunks are ones the
caller already read through the facade's access predicate.
"""
from __future__ import annotations

import uuid
from typing import Sequence

from retrieval.models import Chunk


def unit_vectors_get(texts: Sequence[str], *, embed_missing: bool = True):
    """Unit-norm passage vectors of answer units (cached by text; retrieval/unit_vectors.py). Raises EmbeddingError."""
    from retrieval.unit_vectors import unit_vectors

    return unit_vectors(texts, embed_missing=embed_missing)


def chunk_vectors_get(chunk_ids: Sequence[uuid.UUID]) -> dict:
    """The stored vector of each given chunk (ids the caller already read as visible passages)."""
    rows = Chunk.objects.filter(id__in=list(chunk_ids)).values_list("id", "embedding")
    return {chunk_id: embedding for chunk_id, embedding in rows}
