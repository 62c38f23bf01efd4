"""Vector search over the HNSW index with access and scope in the same statement.

``hnsw.iterative_scan = relaxed_order`` lets the index scan continue past
``ef_search`` rows when the access/scope filter rejects candidates, so a
selective filter still returns ``limit`` rows when they exist; the outer
ORDER BY restores exact order over the candidates.

A scope that leaves only a small share of the passages visible is searched
exactly instead: the graph walk that a selective filter forces is slower and
misses neighbours (``exact_scan_pays``).

With ``centered`` the scan nominates ``CENTERED_POOL`` passages by plain cosine
and they are ordered by the cosine of centered vectors (centering.py says why).
"""
from __future__ import annotations

import math
import uuid
from dataclasses import dataclass
from typing import Sequence

from django.db import connection

from retrieval.access import document_condition_sql
from retrieval.models import Document
from retrieval.search.centering import corpus_mean
from retrieval.search.vectors import vector_literal  # noqa: F401 (re-exported: callers import it from here)
from retrieval.search.telemetry import traced_semantic_leg

CENTERED_POOL = 200

_SEMANTIC_SQL = """
WITH nearest AS MATERIALIZED (
    SELECT c.id, c.document_id, c.embedding <=> %s::vector AS distance
    FROM retrieval_chunk c
    JOIN retrieval_document ON retrieval_document.id = c.document_id
    WHERE c.embedding_model = %s AND {predicate}
    ORDER BY {order}
    LIMIT %s
)
SELECT id, 1 - distance AS similarity, document_id FROM nearest ORDER BY distance, id
"""
_CENTERED_SQL = """
WITH nearest AS MATERIALIZED (
    SELECT c.id, c.document_id, c.embedding
    FROM retrieval_chunk c
    JOIN retrieval_document ON retrieval_document.id = c.document_id
    WHERE c.embedding_model = %s AND {predicate}
    ORDER BY {order}
    LIMIT %s
), centered AS (
    SELECT id, document_id, (embedding - %s::vector) <=> %s::vector AS distance FROM nearest
)
SELECT id, 1 - distance AS similarity, document_id FROM centered ORDER BY distance, id LIMIT %s
"""
# "+ 0" keeps the planner from ordering through the HNSW index: the visible passages are read
# through their documents and every distance is computed.
_ORDER = {False: "c.embedding <=> %s::vector", True: "(c.embedding <=> %s::vector) + 0"}

# At 1M chunks with a 1% scope (100 documents, 10k chunks), the HNSW scan with iterative scans
# found recall@10 0.73 in p50 110 / p95 343 ms; the exact scan 1.00 in p50 27 / p95 42 ms
# (bench/scale.py, docs/benchmarks.md). Exact reads grow with the visible passages, so it is
# used only when few are visible, and only when they are a small share of the table (an
# unscoped search of a small corpus keeps its index scan).
EXACT_SCAN_MAX_CHUNKS = 20_000
EXACT_SCAN_MAX_DOCUMENTS = 500
EXACT_SCAN_MAX_SHARE = 0.1


# Counting the admitted documents stops here: a scope this large keeps the whole pool.
COUNTED_DOCUMENTS_MAX = 5_000


@dataclass(frozen=True)
class ScopedScan:
    exact: bool          # the admitted passages are few: scan them exactly, not through the graph
    share: float         # their share of every passage (1.0 when unknown or large)

    def pool(self, limit: int) -> int:
        """The centered pool: through the graph, the same share of the scope as the whole pool is of the corpus,
        never fewer than the leg returns. The graph walk gathers the pool from admitted passages only, so a
        scope of a tenth walks about ten times as far for the same pool; a tenth of the pool reaches as deep into
        the scope as the whole pool into the corpus. An exact scan reads every admitted passage anyway: the whole
        pool."""
        if self.exact:
            return max(CENTERED_POOL, limit)
        return max(limit, math.ceil(CENTERED_POOL * max(0.0, min(1.0, self.share))))


UNSCOPED = ScopedScan(exact=False, share=1.0)


def scoped_scan(document_condition) -> ScopedScan:
    """How to search the passages ``document_condition`` admits: exactly when they are few (at most
    ``EXACT_SCAN_MAX_DOCUMENTS`` documents and ``EXACT_SCAN_MAX_CHUNKS`` passages, and a small share of all), and
    what share of the corpus they are. Reads at most ``COUNTED_DOCUMENTS_MAX + 1`` document rows (their
    ``chunk_count``) and the table's row estimate; a table never analysed counts as empty, so it keeps the index
    scan."""
    admitted = Document.objects.filter(document_condition).order_by().values("chunk_count")[: COUNTED_DOCUMENTS_MAX + 1]
    sql, params = admitted.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT count(*), coalesce(sum(chunk_count), 0), "
            f"(SELECT reltuples FROM pg_class WHERE oid = 'retrieval_chunk'::regclass) FROM ({sql}) AS admitted",
            params,
        )
        documents, chunks, rows = cursor.fetchone()
    rows = max(float(rows), 0.0)
    exact = (documents <= EXACT_SCAN_MAX_DOCUMENTS and chunks <= EXACT_SCAN_MAX_CHUNKS
             and chunks <= EXACT_SCAN_MAX_SHARE * rows)
    counted = documents <= COUNTED_DOCUMENTS_MAX and rows > 0
    return ScopedScan(exact, min(1.0, chunks / rows) if counted else 1.0)


def exact_scan_pays(document_condition) -> bool:
    """Whether the documents ``document_condition`` admits hold few passages, and a small share of all."""
    return scoped_scan(document_condition).exact


@traced_semantic_leg
def chunk_search_semantic(
    query_vector: Sequence[float], *, model_name: str, document_condition, limit: int, exact: bool = False,
    centered: bool = False, collection: str | None = None, pool: int = CENTERED_POOL,
    owners: dict[uuid.UUID, uuid.UUID] | None = None,
) -> list[tuple[uuid.UUID, float]]:
    """Nearest chunks by cosine similarity (of centered vectors with ``centered``); caller sets ef_search and
    the iterative scan (``exact``: no index scan); ``pool``: how many passages the centered order reorders
    (``ScopedScan.pool`` for a scoped search).

    ``collection``: the one collection ``document_condition`` admits. Said on the chunk as well, it lets
    PostgreSQL walk that collection's own index when it has one (retrieval/collection_indexes.py).
    ``owners``: filled with each returned passage's document (read in the same statement, so the document leg
    needs no statement of its own for them).
    """
    predicate_sql, predicate_params = document_condition_sql(document_condition)
    if collection is not None:
        predicate_sql, predicate_params = f"{predicate_sql} AND c.collection_id = %s", [*predicate_params, collection]
    literal = vector_literal(query_vector)
    mean = corpus_mean(model_name) if centered else None
    with connection.cursor() as cursor:
        if mean is None:
            cursor.execute(_SEMANTIC_SQL.format(predicate=predicate_sql, order=_ORDER[exact]),
                           [literal, model_name, *predicate_params, literal, limit])
        else:
            moved = vector_literal([q - m for q, m in zip(query_vector, mean)])
            cursor.execute(_CENTERED_SQL.format(predicate=predicate_sql, order=_ORDER[exact]),
                           [model_name, *predicate_params, literal, max(pool, limit), vector_literal(mean),
                            moved, limit])
        rows = cursor.fetchall()
    if owners is not None:
        owners.update((row[0], row[2]) for row in rows)
    return [(row[0], float(row[1])) for row in rows]
