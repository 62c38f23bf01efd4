"""The document leg of hybrid search: which regulations the question is about, then their passages.

A question about annual leave belongs to the labour law before it belongs to
any one passage. After the chunk legs are fused, each document is scored by
the fused evidence of its passages (CombSUM over its best
``EVIDENCE_PASSAGES``), so a law with several matching passages outranks a
law with one lucky passage. The ``document_candidate_limit`` best documents
then rank their *own* passages (exact vector order and the IDF-weighted
full-text order, fused), which nominates a passage of the right law that
neither corpus-wide leg had in its candidates. Every passage of a document
ranked ``r`` gains ``document_weight / (rrf_k + r)``; a passage at place
``p`` of its document's own ranking gains ``document_weight / (rrf_k + p)``.
Both weights are fitted (``manage.py fit_retrieval``). Reads keep the
caller's access predicate: only documents the fused legs already returned
are considered, and those were filtered.
"""
from __future__ import annotations

import uuid
from typing import Sequence

from django.db import connection

from retrieval.search.glossary import Rewrite
from retrieval.search.lexeme_stats import nominating
from retrieval.search.lexical import _lexemes, idf, lexeme_shares, query_terms
from retrieval.search.lexical_tiers import rank_sql as _rank_sql, tsquery as _tsquery, without_bitmap_scans
from retrieval.search.centering import centered_literals

EVIDENCE_PASSAGES = 3
OWN_PASSAGES = 10
# When the nominating words match at least this many passages (estimated from their shares), the candidate
# documents' own passages are read and each checked for the words, instead of the planner's choice of reading every
# posting of those words and ANDing them with the documents' few hundred passages. At 1M chunks the postings cost
# ~0.14 us a match (52,000 matches: 7.7 ms) and a checked passage ~3 us (300 passages: 0.9 ms): the lexical part
# mean 2.22 -> 1.37 ms, p95 6.14 -> 1.90 ms, the same rankings for 466 of 466 calls; on the real corpus (10,819
# passages, at most ~2,000 estimated matches) the postings stay cheaper (1.14 against 1.50 ms), so they are kept
# (session 34, docs/benchmarks.md).
OWN_ROW_CHECK_MATCHES = 10_000

_OWNERS_SQL = "SELECT id, document_id FROM retrieval_chunk WHERE id = ANY(%s)"
# One statement for every candidate document and both orders: each one's nearest passages by exact distance
# (leg 0; each distance computed once, for the window and the limit alike), and its passages holding the
# query's terms, all-terms first, by IDF-weighted rank (leg 1).
_OWN_SEMANTIC_SQL = """
SELECT 0 AS leg, d.id AS document_id, nearest.id, nearest.place FROM unnest(%s::uuid[]) AS d(id)
CROSS JOIN LATERAL (
    SELECT id, row_number() OVER (ORDER BY distance, id) AS place FROM (
        SELECT c.id, (c.embedding - %s::vector) <=> %s::vector AS distance
        FROM retrieval_chunk c
        WHERE c.document_id = d.id AND c.embedding_model = %s AND c.enabled
    ) AS scored
    ORDER BY distance, id
    LIMIT %s
) AS nearest
"""
_OWN_LEXICAL_SQL = """
SELECT 1 AS leg, document_id, id, place FROM (
    SELECT document_id, id, row_number() OVER (
        PARTITION BY document_id ORDER BY search_vector @@ %s::tsquery DESC, {rank} DESC, id) AS place
    FROM retrieval_chunk
    WHERE document_id = ANY(%s) AND enabled AND search_vector @@ %s::tsquery
) AS ranked WHERE place <= %s
"""


def checks_rows(nominated: list[str], shares: dict[str, float], rows: float) -> bool:
    """Whether a few documents' passages are cheaper to check one by one than the nominating words' postings are to
    read (``OWN_ROW_CHECK_MATCHES``)."""
    return rows * sum(shares[lexeme] for lexeme in nominated) >= OWN_ROW_CHECK_MATCHES


def owners(ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, uuid.UUID]:
    if not ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_OWNERS_SQL, [list(ids)])
        return dict(cursor.fetchall())


def rank_documents(ranked: Sequence[tuple[uuid.UUID, float]], owner: dict[uuid.UUID, uuid.UUID]) -> list[uuid.UUID]:
    """Documents by the summed fused score of their best passages (ties: the best passage's place)."""
    scores: dict[uuid.UUID, list[float]] = {}
    first: dict[uuid.UUID, int] = {}
    for place, (chunk_id, score) in enumerate(ranked):
        document = owner.get(chunk_id)
        if document is None:
            continue
        scores.setdefault(document, []).append(score)
        first.setdefault(document, place)
    total = {document: sum(sorted(values, reverse=True)[:EVIDENCE_PASSAGES]) for document, values in scores.items()}
    return sorted(total, key=lambda document: (-total[document], first[document]))


def _own_rankings(documents: list[uuid.UUID], rewrite: Rewrite, vector, model_name: str,
                  centered: bool, common_term_share: float = 1.0) -> dict[uuid.UUID, list[uuid.UUID]]:
    """Each document's own passages: exact vector order and full-text order, fused by RRF."""
    lists: dict[uuid.UUID, list[list[uuid.UUID]]] = {document: [] for document in documents}
    parts, params = [], []
    if vector is not None:
        mean, moved = centered_literals(vector, model_name, centered)
        parts.append(_OWN_SEMANTIC_SQL)
        params += [documents, mean, moved, model_name, OWN_PASSAGES]
    lexemes = _lexemes(query_terms(rewrite.lexical))
    row_check = False
    if lexemes:
        shares, rows = lexeme_shares(lexemes)
        rank_sql, rank_params = _rank_sql({lexeme: idf(shares[lexeme], rows) for lexeme in lexemes})
        # As in the lexical leg, a common lexeme ranks but does not nominate ("dimaksud" is in most passages of a
        # law: ranking them all cost 4 ms of 6 for three documents).
        nominated = nominating(lexemes, shares, common_term_share)
        row_check = checks_rows(nominated, shares, rows)
        parts.append(_OWN_LEXICAL_SQL.format(rank=rank_sql))
        params += [_tsquery(lexemes, "&"), *rank_params, documents, _tsquery(nominated, "|"), OWN_PASSAGES]
    if parts:
        with connection.cursor() as cursor, without_bitmap_scans(cursor, row_check):
            cursor.execute(" UNION ALL ".join(f"({part})" for part in parts) + " ORDER BY 1, 2, 4", params)
            found = cursor.fetchall()
        rows_by_leg: dict[int, list] = {}
        for leg, document, chunk_id, _ in found:
            rows_by_leg.setdefault(leg, []).append((document, chunk_id))
        for leg_rows in rows_by_leg.values():
            _append(lists, leg_rows)
    fused = {}
    for document, rankings in lists.items():
        scores: dict[uuid.UUID, float] = {}
        for ids in rankings:
            for place, chunk_id in enumerate(ids, start=1):
                scores[chunk_id] = scores.get(chunk_id, 0.0) + 1.0 / (60 + place)
        fused[document] = sorted(scores, key=lambda chunk_id: (-scores[chunk_id], str(chunk_id)))
    return fused


def _append(lists: dict[uuid.UUID, list[list[uuid.UUID]]], rows) -> None:
    current: dict[uuid.UUID, list[uuid.UUID]] = {}
    for document, chunk_id in rows:
        current.setdefault(document, []).append(chunk_id)
    for document, ids in current.items():
        lists[document].append(ids)


def document_leg(
    ranked: list[tuple[uuid.UUID, float]], rewrite: Rewrite, *, vector, model_name: str, config,
    known: dict[uuid.UUID, uuid.UUID] | None = None,
) -> tuple[list[tuple[uuid.UUID, float]], dict[uuid.UUID, uuid.UUID]]:
    """The fused ranking with the document leg added, and the passages' owners (for later stages).

    ``known``: owners the chunk legs already read beside their passages; only the others are looked up."""
    owner = dict(known or {})
    limit = config.document_candidate_limit
    if not ranked or config.document_weight <= 0 or limit <= 0:
        return ranked, owner
    owner |= owners([chunk_id for chunk_id, _ in ranked if chunk_id not in owner])
    documents = rank_documents(ranked, owner)[:limit]
    own = _own_rankings(documents, rewrite, vector, model_name, config.semantic_centering,
                         config.common_term_share)
    scores = dict(ranked)
    for chunk_ids in own.values():
        for place, chunk_id in enumerate(chunk_ids, start=1):
            scores[chunk_id] = scores.get(chunk_id, 0.0) + config.document_weight / (config.rrf_k + place)
    for document, chunk_ids in own.items():
        for chunk_id in chunk_ids:
            owner[chunk_id] = document
    place_of = {document: place for place, document in enumerate(documents, start=1)}
    for chunk_id in scores:
        place = place_of.get(owner.get(chunk_id))
        if place is not None:
            scores[chunk_id] += config.document_weight / (config.rrf_k + place)
    fused = sorted(scores.items(), key=lambda item: (-item[1], str(item[0])))
    return fused, owner
