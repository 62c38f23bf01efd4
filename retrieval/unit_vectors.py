"""Answer units embedded once: a cache of passage-unit vectors keyed by (model, text digest).

Embedding a unit costs ~10-20 ms on 2 cores (fast_e5, ~40 tokens), more than
the whole search of an answer; a unit embedded once is a primary-key read
afterwards. ``manage.py embed_units`` fills the cache for a corpus ahead of
the first questions.
"""
from __future__ import annotations

import hashlib
from typing import Sequence

import numpy as np

from retrieval.embedders import get_embedder
from retrieval.models import UnitVector


def unit_digest(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()


def unit_vectors(texts: Sequence[str], *, embed_missing: bool = True) -> np.ndarray:
    """One unit-norm row per text (as passages); rows of texts neither cached nor embedded are zeros.

    Raises EmbeddingError when the embedder fails.
    """
    embedder = get_embedder()
    model = embedder.model_name
    digests = [unit_digest(text) for text in texts]
    known = dict(UnitVector.objects.filter(embedding_model=model, digest__in=set(digests))
                 .values_list("digest", "embedding"))
    missing = list(dict.fromkeys(d for d in digests if d not in known))
    if missing and embed_missing:
        by_digest = {d: t for d, t in zip(digests, texts)}
        vectors = embedder.embed_passages([by_digest[d] for d in missing])
        UnitVector.objects.bulk_create(
            [UnitVector(digest=d, embedding_model=model, embedding=v) for d, v in zip(missing, vectors)],
            ignore_conflicts=True)
        known.update(zip(missing, vectors))
    rows = np.zeros((len(texts), 384), dtype=np.float32)
    for index, digest in enumerate(digests):
        if digest in known:
            vector = np.asarray(known[digest], dtype=np.float32)
            norm = float(np.linalg.norm(vector))
            rows[index] = vector / norm if norm else vector
    return rows
