"""Pseudo-relevance feedback for the semantic leg (Rocchio on passage vectors).

A colloquial or English question and its formal Indonesian twin land near
different passages; the passages both *rank first* are much closer to each
other. After the first fusion, the query vector moves towards the mean vector
of the ``FEEDBACK_PASSAGES`` best fused passages,
``q' = q + feedback_weight * mean(top)``, and the vector index is searched
once more with ``q'``; that list joins the fusion with the semantic leg's
weight. No embedding call is made: the passages' stored vectors are read.
``feedback_weight`` is fitted (``manage.py fit_retrieval``); 0 turns it off.
"""
from __future__ import annotations

import uuid
from typing import Sequence

import numpy as np
from django.db import connection

FEEDBACK_PASSAGES = 3
_VECTORS_SQL = "SELECT embedding::text FROM retrieval_chunk WHERE id = ANY(%s) AND embedding_model = %s"


def feedback_vector(vector: Sequence[float], top: Sequence[uuid.UUID], *, model_name: str, weight: float):
    """The moved query vector (unit length), or None when there is nothing to move towards."""
    if weight <= 0 or not top:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_VECTORS_SQL, [list(top[:FEEDBACK_PASSAGES]), model_name])
        rows = [np.array(row[0].strip("[]").split(","), dtype=np.float32) for row in cursor.fetchall()]
    if not rows:
        return None
    moved = np.asarray(vector, dtype=np.float32) + weight * np.mean(rows, axis=0)
    norm = float(np.linalg.norm(moved))
    return (moved / norm).tolist() if norm else None
