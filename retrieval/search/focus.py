"""Hybrid search's question-aware stages, run after fusion (hybrid mode only).

1. **Named instruments**: a regulation named by type, number and year, or by a
   glossary nickname, that resolves to one visible indexed document has its
   chunks ranked first (its own lexical + exact semantic ranking, and the
   semantic ranking of the question without the document's own words:
   inner.py, fused); a
   named Pasal/ayat/angka puts that unit's chunks before the rest of it (its
   Penjelasan first when the question asks what the Penjelasan says). A named
   regulation's signature block leads for who-signed/when-enacted questions,
   and the clauses that revoke or amend it for status questions (clauses.py).
2. **Definitions**: the Pasal 1 chunk that defines the asked term in the named
   (else the best-ranked) regulations comes first.
3. **Within-document re-ranking**: when the top results concentrate in one
   document, its chunks there are re-ordered by how many of the question's
   distinctive terms and figures they hold (``within_document_rerank``).

Every read keeps the caller's access predicate and scope; a name that does not
resolve changes nothing. What the question names is read by ``focus_anchors``
(anchors.py); ``focus_ranking`` applies it to the fused ranking.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Sequence

from django.db import connection

from retrieval.models import Document
from retrieval.search.inner import inner_question
from retrieval.search.anchors import Anchors, focus_anchors, named_documents
from retrieval.search.centering import centered_literals
from retrieval.search.definitions import definition_term, defining_chunks
from retrieval.search.documents import checks_rows, owners
from retrieval.search.glossary import Rewrite, rewrite_query
from retrieval.search.lexeme_stats import nominating
from retrieval.search.lexical import _lexemes, idf, lexeme_shares, query_terms
from retrieval.search.lexical_tiers import rank_sql as _rank_sql, tsquery as _tsquery, without_bitmap_scans
from retrieval.search.naming import find_named_regulations

__all__ = ["Anchors", "Focus", "focus_anchors", "focus_ranking", "named_documents"]

DOCUMENT_CANDIDATES = 20
DEFINITION_DOCUMENTS = 10
CONCENTRATION_WINDOW = 5
CONCENTRATION_SHARE = 3
RERANK_WINDOW = 10
RRF_K = 60

# A named document's own rankings, both in one statement: each row is (order, chunk, whether it is Penjelasan,
# place). Nearest passages by exact distance (one document's chunks are few, an exact scan is cheap) ...
_DOCUMENT_SEMANTIC_SQL = """
SELECT {order}, id, kind = 'penjelasan', row_number() OVER (ORDER BY distance, id) FROM (
    SELECT c.id, c.kind, (c.embedding - %s::vector) <=> %s::vector AS distance FROM retrieval_chunk c
    WHERE c.document_id = %s AND c.embedding_model = %s AND c.enabled
) AS scored
ORDER BY distance, id
LIMIT %s
"""
# ... and the passages holding any query term, those holding every term first, then by IDF-weighted rank.
_DOCUMENT_LEXICAL_SQL = """
SELECT 1, id, kind = 'penjelasan', row_number() OVER (ORDER BY every_term DESC, rank DESC, id) FROM (
    SELECT id, kind, {rank} AS rank, search_vector @@ %s::tsquery AS every_term FROM retrieval_chunk
    WHERE document_id = %s AND enabled AND search_vector @@ %s::tsquery
) AS ranked
ORDER BY every_term DESC, rank DESC, id
LIMIT %s
"""
_OVERLAP_SQL = (
    "SELECT id, ARRAY(SELECT unnest(tsvector_to_array(search_vector)) INTERSECT SELECT unnest(%s::text[])) "
    "FROM retrieval_chunk WHERE id = ANY(%s)"
)


@dataclass(frozen=True)
class Focus:
    ranked: list[tuple[uuid.UUID, float]]
    pinned: int = 0                  # leading entries a reranker must not move
    stages: tuple[str, ...] = ()


def _fused(lists: Sequence[Sequence[uuid.UUID]]) -> list[uuid.UUID]:
    scores: dict[uuid.UUID, float] = {}
    for ids in lists:
        for rank, chunk_id in enumerate(ids, start=1):
            scores[chunk_id] = scores.get(chunk_id, 0.0) + 1.0 / (RRF_K + rank)
    return sorted(scores, key=lambda chunk_id: (-scores[chunk_id], str(chunk_id)))


def _without_names(query: str, rewrite: Rewrite) -> Rewrite:
    """The question without the regulations it names, for ranking inside them: every passage of a named law is
    in it, and the words of its citation ("Law 13/2003") would only favour the blocks that print it."""
    spans = sorted((named.start, named.end) for named in find_named_regulations(query)
                   if named.end > named.start)
    if not spans:
        return rewrite
    kept, last = [], 0
    for start, end in spans:
        kept.append(query[last:start])
        last = max(last, end)
    stripped = " ".join("".join(kept + [query[last:]]).split())
    return rewrite_query(stripped) if stripped else rewrite


def _document_lexical(document_id: uuid.UUID, rewrite: Rewrite,
                      common_term_share: float = 1.0) -> tuple[str, list, bool] | None:
    """The statement ranking the document's chunks that hold any query term: those holding every term first
    (the lexical leg's first tier), then by its IDF-weighted rank, and whether its passages are checked one by one
    (``documents.checks_rows``); None without a usable term.

    One document's chunks are few: ranking them through the document index is
    cheaper than the corpus-wide tiers, whose common-term matches span everything.
    """
    lexemes = _lexemes(query_terms(rewrite.lexical))
    if not lexemes:
        return None
    shares, rows = lexeme_shares(lexemes)
    rank_sql, rank_params = _rank_sql({lexeme: idf(shares[lexeme], rows) for lexeme in lexemes})
    # A common lexeme ranks but does not nominate (as in the lexical leg and the document leg).
    nominated = nominating(lexemes, shares, common_term_share)
    return (_DOCUMENT_LEXICAL_SQL.format(rank=rank_sql),
            [*rank_params, _tsquery(lexemes, "&"), document_id, _tsquery(nominated, "|"), DOCUMENT_CANDIDATES],
            checks_rows(nominated, shares, rows))


def _document_ranking(document_id: uuid.UUID, rewrite: Rewrite, vector, model_name: str,
                      explanation_first: bool = False, centered: bool = False,
                      common_term_share: float = 1.0, inner_vector=None) -> list[uuid.UUID]:
    parts: list[tuple[str, list]] = []
    if vector is not None:
        mean, moved = centered_literals(vector, model_name, centered)
        parts.append((_DOCUMENT_SEMANTIC_SQL.format(order=0),
                      [mean, moved, document_id, model_name, DOCUMENT_CANDIDATES]))
    if inner_vector is not None:
        # The question without the document's own words (inner.py), beside the whole question.
        mean, moved = centered_literals(inner_vector, model_name, centered)
        parts.append((_DOCUMENT_SEMANTIC_SQL.format(order=2),
                      [mean, moved, document_id, model_name, DOCUMENT_CANDIDATES]))
    lexical = _document_lexical(document_id, rewrite, common_term_share)
    parts += [lexical[:2]] if lexical else []
    orders: dict[int, list[uuid.UUID]] = {0: [], 1: [], 2: []}
    explanations: set[uuid.UUID] = set()
    if parts:
        with connection.cursor() as cursor, without_bitmap_scans(cursor, bool(lexical and lexical[2])):
            # Wrapped, so that one part alone (no query vector) still takes the outer order.
            union = " UNION ALL ".join(f"({sql})" for sql, _ in parts)
            cursor.execute(f"SELECT * FROM ({union}) AS parts ORDER BY 1, 4",
                           [param for _, params in parts for param in params])
            for order, chunk_id, explaining, _ in cursor.fetchall():
                orders[order].append(chunk_id)
                if explaining:
                    explanations.add(chunk_id)
    fused = _fused([orders[0], orders[1], orders[2]])
    # The body answers and its Penjelasan follows it, unless the question asks what the Penjelasan says.
    body = [c for c in fused if c not in explanations]
    explaining = [c for c in fused if c in explanations]
    return explaining + body if explanation_first else body + explaining


def _within_document(order: list[uuid.UUID], owner: dict[uuid.UUID, uuid.UUID], rewrite: Rewrite, config) -> list[uuid.UUID] | None:
    """Re-order the dominant document's chunks in the top window by distinctive-term weight, or None."""
    window = order[:RERANK_WINDOW]
    head = [owner.get(chunk_id) for chunk_id in order[:CONCENTRATION_WINDOW]]
    dominant = max(set(head), key=head.count) if head else None
    if dominant is None or head.count(dominant) < CONCENTRATION_SHARE:
        return None
    lexemes = _lexemes(query_terms(rewrite.lexical))
    if not lexemes:
        return None
    shares, rows = lexeme_shares(lexemes)
    weights = {lexeme: idf(shares[lexeme], rows) for lexeme in lexemes if shares[lexeme] < config.common_term_share}
    if not weights:
        return None
    positions = [index for index, chunk_id in enumerate(window) if owner.get(chunk_id) == dominant]
    members = [window[index] for index in positions]
    with connection.cursor() as cursor:
        cursor.execute(_OVERLAP_SQL, [list(weights), members])
        held = {row[0]: sum(weights[lexeme] for lexeme in row[1]) for row in cursor.fetchall()}
    reordered = sorted(members, key=lambda chunk_id: (-round(held.get(chunk_id, 0.0), 6), members.index(chunk_id)))
    result = list(order)
    for index, chunk_id in zip(positions, reordered):
        result[index] = chunk_id
    return result


def focus_ranking(
    query: str, rewrite: Rewrite, ranked: list[tuple[uuid.UUID, float]], anchors: Anchors, *, vector,
    model_name: str, condition, config, owner: dict | None = None, embed=None,
) -> Focus:
    """The fused ranking with named units, definitions and the dominant document's order applied."""
    stages = list(anchors.stages)
    front = list(anchors.front)
    documents, locator = list(anchors.documents), anchors.locator
    order = [chunk_id for chunk_id, _ in ranked]
    owner = dict(owner) if owner is not None else {}
    owner |= owners([chunk_id for chunk_id in order if chunk_id not in owner])
    # An English question's term is English; Pasal 1 defines Indonesian ones.
    term = None if rewrite.english else definition_term(query)
    if term:
        candidates = documents or list(dict.fromkeys(owner[c] for c in order[:DEFINITION_DOCUMENTS] if c in owner))
        defining = defining_chunks(term, candidates, condition)
        if defining:
            front += defining
            stages.append("definition")
    if documents:
        inner = _without_names(query, rewrite)
        titles = (dict(Document.objects.filter(id__in=documents).values_list("id", "title"))
                  if config.named_inner_question else {})
        rankings = []
        for document_id in documents:
            asked = inner_question(query, titles.get(document_id, "")) if titles else None
            inner_vector = embed(asked) if asked and embed is not None and vector is not None else None
            rankings.append(_document_ranking(document_id, inner, vector, model_name, anchors.explanation,
                                              config.semantic_centering, config.common_term_share, inner_vector))
        front += _fused(rankings)
        stages.append("named-document")
    front = list(dict.fromkeys(front))
    pinned_ids = set(front)
    rest = [chunk_id for chunk_id in order if chunk_id not in pinned_ids]
    merged = front + rest
    if config.within_document_rerank and not locator and "definition" not in stages:
        unknown = [chunk_id for chunk_id in front if chunk_id not in owner]
        reordered = _within_document(merged, owner | owners(unknown), rewrite, config)
        if reordered is not None:
            merged = reordered
            stages.append("within-document")
    scores = dict(ranked)
    top = max(scores.values(), default=0.0)
    pinned = len(front)
    # Positions keep non-increasing scores: pinned entries above every fused score.
    by_position = [top + (pinned - index) * 1e-4 for index in range(pinned)]
    by_position += sorted((scores.get(chunk_id, 0.0) for chunk_id in merged[pinned:]), reverse=True)
    result = list(zip(merged, by_position))
    return Focus(result, pinned, tuple(stages))
