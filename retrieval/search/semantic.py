"""Vector search over the HNSW index with access and scope in the same statement.

``hnsw.iterative_scan = relaxed_order`` lets the index scan continue past
``ef_search`` rows when the access/scope filter rejects candidates, so a
selective filter still returns ``limit`` rows when they exist; the outer
ORDER BY restores exact order over the candidates.
"""
from __future__ import annotations

import uuid
from typing import Sequence

from django.db import connection

from retrieval.access import document_condition_sql
from retrieval.search.telemetry import traced_semantic_leg

_SEMANTIC_SQL = """
WITH nearest AS MATERIALIZED (
    SELECT c.id, c.embedding <=> %s::vector AS distance
    FROM retrieval_chunk c
    JOIN retrieval_document ON retrieval_document.id = c.document_id
    WHERE c.embedding_model = %s AND {predicate}
    ORDER BY c.embedding <=> %s::vector
    LIMIT %s
)
SELECT id, 1 - distance AS similarity FROM nearest ORDER BY distance, id
"""


def vector_literal(vector: Sequence[float]) -> str:
    return "[" + ",".join(f"{float(x):.7g}" for x in vector) + "]"


@traced_semantic_leg
def chunk_search_semantic(
    query_vector: Sequence[float], *, model_name: str, document_condition, limit: int
) -> list[tuple[uuid.UUID, float]]:
    """Nearest chunks by cosine similarity; caller sets ef_search/iterative scan."""
    predicate_sql, predicate_params = document_condition_sql(document_condition)
    literal = vector_literal(query_vector)
    with connection.cursor() as cursor:
        cursor.execute(
            _SEMANTIC_SQL.format(predicate=predicate_sql),
            [literal, model_name, *predicate_params, literal, limit],
        )
        return [(row[0], float(row[1])) for row in cursor.fetchall()]
