"""What the full-text statistics say about lexemes: which are common and in what share of passages.

Read from ``pg_stats`` (ANALYZE's most common elements of the tsvector column) and ``pg_class``, cached per
process for ``lexeme_statistics_ttl_seconds``; no statement scans matches at question time once the table
has been analysed.
"""
from __future__ import annotations

import threading
import time

from django.conf import settings
from django.db import connection

from retrieval.search.lexical_tiers import tsquery

_stats_lock = threading.Lock()
_stats_cache: dict[str, tuple[float, dict[str, float], float, int]] = {}
_share_cache: dict[tuple[str, str], tuple[float, float]] = {}


def _ttl() -> float:
    return settings.ACEH_RAG.retrieval.lexeme_statistics_ttl_seconds


def common_lexemes() -> tuple[dict[str, float], float, int]:
    """Frequent lexemes with their share of passages (``pg_stats``), the row count and the table's pages.

    ANALYZE samples the tsvector column and keeps its most common lexemes with
    their frequencies: one catalogue lookup instead of counting matches over
    the whole table. Cached briefly per process.
    """
    alias = connection.alias
    now = time.monotonic()
    with _stats_lock:
        cached = _stats_cache.get(alias)
        if cached and now - cached[0] < _ttl():
            return cached[1], cached[2], cached[3]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT most_common_elems::text::text[], most_common_elem_freqs FROM pg_stats "
            "WHERE tablename = 'retrieval_chunk' AND attname = 'search_vector'"
        )
        row = cursor.fetchone()
        cursor.execute("SELECT reltuples, relpages FROM pg_class WHERE relname = 'retrieval_chunk'")
        rows, pages = cursor.fetchone()
        rows = float(rows or 0)
        if rows <= 0:  # never analysed: count (small tables only reach this)
            cursor.execute("SELECT count(*) FROM retrieval_chunk")
            rows = float(cursor.fetchone()[0])
    common = {lexeme: float(freq) for lexeme, freq in zip(row[0], row[1])} if row and row[0] else {}
    with _stats_lock:
        _stats_cache[alias] = (now, common, rows, int(pages or 0))
    return common, rows, int(pages or 0)


def lexeme_shares(lexemes: list[str]) -> tuple[dict[str, float], float]:
    """Share of passages containing each lexeme, and the passage count.

    Common lexemes come from the statistics. A lexeme missing from that list
    is rarer than its rarest entry, so half that frequency is its estimate
    (the planner reasons the same way) and no statement runs at query time.
    Only before the first ANALYZE, when there is no list, are matches counted
    (small tables only reach this).
    """
    common, rows, _ = common_lexemes()
    shares: dict[str, float] = {}
    rare_estimate = min(common.values()) / 2 if common else None
    now = time.monotonic()
    for lexeme in lexemes:
        if lexeme in common:
            shares[lexeme] = common[lexeme]
            continue
        if rare_estimate is not None:
            shares[lexeme] = rare_estimate
            continue
        key = (connection.alias, lexeme)
        cached = _share_cache.get(key)
        if cached and now - cached[0] < _ttl():
            shares[lexeme] = cached[1]
            continue
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM retrieval_chunk WHERE search_vector @@ %s::tsquery", [tsquery([lexeme], "&")])
            share = cursor.fetchone()[0] / max(rows, 1.0)
        _share_cache[key] = (now, share)
        shares[lexeme] = share
    return shares, rows


_LEXEMES_SQL = "SELECT w, tsvector_to_array(to_tsvector('indonesian', w)) FROM unnest(%s::text[]) AS w"
_word_lexemes: dict[str, tuple[str, ...]] = {}
WORD_LEXEMES_KEPT = 20_000


def word_lexemes(words: list[str]) -> dict[str, tuple[str, ...]]:
    """Each word's ``indonesian`` lexemes; the stemming of a word never changes, so it is remembered (one round
    trip for the words not yet seen)."""
    with _stats_lock:
        known = {w: _word_lexemes[w] for w in words if w in _word_lexemes}
    asked = [w for w in dict.fromkeys(words) if w not in known]
    if asked:
        with connection.cursor() as cursor:
            cursor.execute(_LEXEMES_SQL, [asked])
            read = {row[0]: tuple(row[1]) for row in cursor.fetchall()}
        with _stats_lock:
            if len(_word_lexemes) > WORD_LEXEMES_KEPT:
                _word_lexemes.clear()
            _word_lexemes.update(read)
        known |= read
    return known


def nominating(lexemes: list[str], shares: dict[str, float], common_term_share: float) -> list[str]:
    """The lexemes that nominate passages: a common one ranks but does not nominate, unless all are common."""
    return [lexeme for lexeme in lexemes if shares[lexeme] < common_term_share] or list(lexemes)


def forget_statistics() -> None:
    with _stats_lock:
        _stats_cache.clear()
        _share_cache.clear()
