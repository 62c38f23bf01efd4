"""Full-text search over the ``indonesian`` configuration, in two tiers.

Tier 1 asks for passages containing every query term. When it cannot fill
the candidate limit, an any-word tier fills the rest, nominating passages
only through the query's *less common* terms: a lexeme that the column
statistics place in at least ``common_term_share`` of passages (``aceh``,
``pasal``, ``tahun``) still ranks but does not nominate on its own. If the
rare terms match nothing, every term nominates. The decision is reported as
``all-words fill``, ``PARTIAL N`` or ``NONE``.

PostgreSQL's ``indonesian`` configuration stems but has no stop-word list, so
function words are removed here before the query is built.
"""
from __future__ import annotations

import re
import threading
import time
import uuid
from dataclasses import dataclass

from django.db import connection

from retrieval.access import document_condition_sql

# Indonesian function and question words that carry no topic.
STOP_WORDS = frozenset(
    """
    yang dan di ke dari untuk dengan pada atau ini itu adalah dalam oleh akan bagi sebagai
    apa apakah berapa siapa bagaimana kapan mana dimana di mana mengapa kenapa gimana brp gmn
    sih dong kah lah pun ya tidak bukan juga saja hanya sudah telah masih harus bisa dapat
    ada para se tersebut nya jika kalau maka agar supaya karena serta antara tentang hal
    saya kami kita anda kamu aku mohon tolong jelaskan sebutkan beri berikan tanya
    the a an of to in for on and or is are what which who how when where does do
    """.split()
)
TERM_PATTERN = re.compile(r"\w+", re.UNICODE)
# Bound on how many full-text matches are ranked (DESIGN.md: rank a bounded set).
RANK_BOUND = 1000
STATS_TTL_SECONDS = 60.0


@dataclass(frozen=True)
class LexicalResult:
    chunk_ids: tuple[uuid.UUID, ...]
    scores: tuple[float, ...]
    tier: str            # "all-words fill" | "PARTIAL N" | "NONE" | "EMPTY" (no usable term)
    all_words_count: int


def query_terms(text: str) -> list[str]:
    """Lower-cased distinct words; stop words dropped unless nothing else is left."""
    words = list(dict.fromkeys(word.lower() for word in TERM_PATTERN.findall(text)))
    content = [word for word in words if word not in STOP_WORDS]
    return content or words


def _lexemes(terms: list[str]) -> list[str]:
    if not terms:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT unnest(tsvector_to_array(to_tsvector('indonesian', t))) "
            "FROM unnest(%s::text[]) AS t",
            [terms],
        )
        # Sorted so the built tsquery (and so the ranking) is deterministic.
        return sorted(row[0] for row in cursor.fetchall())


_stats_lock = threading.Lock()
_stats_cache: dict[str, tuple[float, dict[str, float]]] = {}


def lexeme_frequencies() -> dict[str, float]:
    """Share of passages containing each common lexeme, from ``pg_stats``.

    ANALYZE samples the tsvector column and keeps its most common lexemes
    with their frequencies; reading them costs one catalogue lookup instead of
    counting matches over the whole table. Cached briefly per process.
    """
    alias = connection.alias
    now = time.monotonic()
    with _stats_lock:
        cached = _stats_cache.get(alias)
        if cached and now - cached[0] < STATS_TTL_SECONDS:
            return cached[1]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT most_common_elems::text::text[], most_common_elem_freqs FROM pg_stats "
            "WHERE tablename = 'retrieval_chunk' AND attname = 'search_vector'"
        )
        row = cursor.fetchone()
    frequencies: dict[str, float] = {}
    if row and row[0]:
        frequencies = {lexeme: float(freq) for lexeme, freq in zip(row[0], row[1])}
    with _stats_lock:
        _stats_cache[alias] = (now, frequencies)
    return frequencies


def forget_lexeme_statistics() -> None:
    with _stats_lock:
        _stats_cache.clear()


def _tsquery(lexemes: list[str], operator: str) -> str:
    quoted = ["'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'" for lexeme in lexemes]
    return f" {operator} ".join(quoted)


_TIER_SQL = """
WITH matched AS (
    SELECT c.id, c.search_vector
    FROM retrieval_chunk c
    JOIN retrieval_document ON retrieval_document.id = c.document_id
    WHERE c.search_vector @@ %s::tsquery AND {predicate} {exclude}
    LIMIT %s
)
SELECT id, ts_rank_cd(search_vector, %s::tsquery, 1) AS rank, count(*) OVER () AS matched
FROM matched
ORDER BY rank DESC, id
LIMIT %s
"""


def _run_tier(nominate: str, rank: str, predicate: tuple[str, list], exclude: list[uuid.UUID], limit: int):
    predicate_sql, predicate_params = predicate
    exclude_sql = "AND NOT (c.id = ANY(%s))" if exclude else ""
    sql = _TIER_SQL.format(predicate=predicate_sql, exclude=exclude_sql)
    params = [nominate, *predicate_params]
    if exclude:
        params.append(exclude)
    params += [RANK_BOUND, rank, limit]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    matched = rows[0][2] if rows else 0
    return [(row[0], float(row[1])) for row in rows], int(matched)


def chunk_search_lexical(
    text: str, *, document_condition, limit: int, common_term_share: float = 0.05
) -> LexicalResult:
    """Two-tier full-text search; ``document_condition`` is a ``Document`` Q."""
    lexemes = _lexemes(query_terms(text))
    if not lexemes:
        return LexicalResult((), (), "EMPTY", 0)
    predicate = document_condition_sql(document_condition)
    all_words, matched = _run_tier(_tsquery(lexemes, "&"), _tsquery(lexemes, "|"), predicate, [], limit)
    if matched >= limit:
        tier = "all-words fill"
    elif matched:
        tier = f"PARTIAL {matched}"
    else:
        tier = "NONE"
    hits = list(all_words)
    if len(lexemes) > 1 and len(hits) < limit:
        frequencies = lexeme_frequencies()
        rare = [lexeme for lexeme in lexemes if frequencies.get(lexeme, 0.0) < common_term_share]
        seen = [chunk_id for chunk_id, _ in hits]
        rank_query = _tsquery(lexemes, "|")
        extra: list = []
        if rare:
            extra, _ = _run_tier(_tsquery(rare, "|"), rank_query, predicate, seen, limit - len(hits))
        if not extra:
            extra, _ = _run_tier(rank_query, rank_query, predicate, seen, limit - len(hits))
        hits += extra
    return LexicalResult(
        chunk_ids=tuple(chunk_id for chunk_id, _ in hits),
        scores=tuple(score for _, score in hits),
        tier=tier,
        all_words_count=matched,
    )
