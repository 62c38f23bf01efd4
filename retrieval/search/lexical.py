"""Full-text search over the ``indonesian`` configuration, in two tiers.

Tier 1 asks for passages containing every query term. When it cannot fill
the candidate limit, an any-word tier fills the rest, nominating passages
only through the query's *less common* terms: a lexeme that the column
statistics place in at least ``common_term_share`` of passages (``aceh``,
``pasal``, ``tahun``) still ranks but does not nominate on its own. If the
rare terms match nothing, every term nominates. The decision is reported as
``all-words fill``, ``PARTIAL N`` or ``NONE``. At most ``RANK_BOUND`` matches
per tier are ranked (``lexical_tiers.RANK_BOUND``); an any-word tier nominates the matches of its rarest
term first, so a bound drops the passages with the least telling words.

PostgreSQL's ``indonesian`` configuration stems but has no stop-word list, so
function words are removed here before the query is built.
"""
from __future__ import annotations

import math
import re
import uuid
from dataclasses import dataclass, field

from retrieval.access import admitted_document_ids, document_condition_sql, document_ids_condition_sql
from retrieval.search.colloquial import forget_present_words, formal_terms
from retrieval.search.lexeme_stats import common_lexemes, forget_statistics, lexeme_shares, word_lexemes
from retrieval.search import lexical_tiers
from retrieval.search.lexical_tiers import DOCUMENT_JOIN, dense_prefix_pages, run_tier
from retrieval.search.lexical_tiers import tsquery as _tsquery
from retrieval.search.telemetry import traced_lexical_leg

# Indonesian function and question words that carry no topic (chat Indonesian's and English modals too).
STOP_WORDS = frozenset(
    """
    yang dan di ke dari untuk dengan pada atau ini itu adalah dalam oleh akan bagi sebagai
    apa apakah berapa siapa bagaimana kapan mana dimana di mana mengapa kenapa gimana brp gmn
    sih dong kah lah pun ya tidak bukan juga saja hanya sudah telah masih harus bisa dapat
    ada para se tersebut nya jika kalau maka agar supaya karena serta antara tentang hal
    saya kami kita anda kamu aku mohon tolong jelaskan sebutkan beri berikan tanya
    the a an of to in for on and or is are what which who how when where does do
    gak nggak ngga ga enggak tak trs trus terus lg lagi udah dah yg kalo klo gw gue lu tuh dgn sm sama
    gitu gini emang memang kok kan pake pakai buat mau banget aja aj utk nih deh lho
    can could may might must should would will my me i you your there under still
    """.split()
)
TERM_PATTERN = re.compile(r"\w+", re.UNICODE)
MAX_QUERY_TERMS = 32


@dataclass(frozen=True)
class LexicalResult:
    chunk_ids: tuple[uuid.UUID, ...]
    scores: tuple[float, ...]
    tier: str            # "all-words fill" | "PARTIAL N" | "NONE" | "EMPTY" (no usable term)
    all_words_count: int
    owners: dict[uuid.UUID, uuid.UUID] = field(default_factory=dict)   # each passage's document


def query_terms(text: str) -> list[str]:
    """Lower-cased distinct words; stop words dropped unless nothing else is left."""
    words = list(dict.fromkeys(word.lower() for word in TERM_PATTERN.findall(text)))
    content = [word for word in words if word not in STOP_WORDS]
    # A long query must not cost seconds: the tsquery is built from the first terms only.
    return (content or words)[:MAX_QUERY_TERMS]


def _lexemes(terms: list[str]) -> list[str]:
    """The ``indonesian`` lexemes of ``terms`` (a colloquial word the corpus never uses read as its formal form:
    colloquial.py), sorted so the built tsquery (and so the ranking) is deterministic."""
    if not terms:
        return []
    return sorted({lexeme for lexemes in word_lexemes(formal_terms(terms)).values() for lexeme in lexemes})


def forget_lexeme_statistics() -> None:
    forget_present_words()
    forget_statistics()


def idf(share: float, rows: float) -> float:
    """BM25's inverse document frequency from a passage share."""
    documents = share * rows
    return math.log(1.0 + (rows - documents + 0.5) / (documents + 0.5))


def _rarest_first(lexemes: list[str], shares: dict[str, float]) -> list[str]:
    """One single-lexeme tsquery per lexeme, rarest first: the any-word tiers' nomination order."""
    return [_tsquery([lexeme], "&") for lexeme in sorted(lexemes, key=lambda lexeme: (shares[lexeme], lexeme))]


# A search scoped to named sources admitting at most this many documents filters the matches by their ids.
SCOPED_MAX_DOCUMENTS = 5000
# With one collection named, up to this many admitted documents are found by their ids (one document's passages
# through the document index); more only filter the collection's matches (1,000 documents' ids read 100,000
# index entries, 15-20 ms at 1M).
IDS_LEAD_MAX_DOCUMENTS = 100
# An all-words lexeme in at least this share of the passages is checked on the row (``_all_words_tier``).
ROW_CHECK_SHARE = 0.3


def _predicate(document_condition, scoped: bool, collection: str | None) -> tuple[str, list, str]:
    """The nomination's chunk predicate, its parameters and its join (none when filtering by admitted ids).

    ``collection``, the scope's one collection, is said on the chunk too: the full-text index holds each chunk's
    collection beside its lexemes (migration 0018), so a common word's matches are read for that collection
    only (at 1M, one collection's lexical leg read every match of the corpus first).
    """
    admitted = admitted_document_ids(document_condition, SCOPED_MAX_DOCUMENTS) if scoped else None
    if admitted is not None:
        # A few documents' ids still lead (their chunks through the document index); many only filter.
        many = collection is not None and len(admitted) > IDS_LEAD_MAX_DOCUMENTS
        sql, params, join = (*document_ids_condition_sql(admitted, filter_only=many), "")
    else:
        sql, params, join = (*document_condition_sql(document_condition), DOCUMENT_JOIN)
    if collection is not None:
        sql, params = f"{sql} AND c.collection_id = %s", [*params, collection]
    return sql, params, join


def _all_words_tier(lexemes, shares, rows, weights, predicate, limit, collection: str | None, owners: dict):
    """The passages holding every lexeme: from the table's head when they are dense there (lexical_tiers.py); not
    for one collection, whose matches the index reads alone."""
    head = None if collection is not None else dense_prefix_pages(lexemes, shares, rows, common_lexemes()[2])
    if head:
        hits, matched = run_tier([_tsquery(lexemes, "&")], weights, predicate, [], limit, head_pages=head,
                                   owners=owners)
        if matched >= lexical_tiers.RANK_BOUND:
            return hits, matched
    # A lexeme in a large share of the passages is checked on the rows the others nominate, not read from the index:
    # the same rows in the same order, without reading its postings ("aceh", in 52% of the passages at 1M: the
    # nomination 14-17 -> 12-13 ms).
    indexed = [lexeme for lexeme in lexemes if shares[lexeme] < ROW_CHECK_SHARE]
    checked = [lexeme for lexeme in lexemes if lexeme not in indexed]
    if indexed and checked:
        return run_tier([_tsquery(indexed, "&")], weights, predicate, [], limit, row_check=_tsquery(checked, "&"),
                        owners=owners)
    return run_tier([_tsquery(lexemes, "&")], weights, predicate, [], limit, owners=owners)


@traced_lexical_leg
def chunk_search_lexical(
    text: str, *, document_condition, limit: int, common_term_share: float = 0.05, scoped: bool = False,
    collection: str | None = None,
) -> LexicalResult:
    """Two-tier full-text search; ``document_condition`` is a ``Document`` Q.

    ``scoped``: the caller named sources, so the documents they admit are read first and the matches
    filtered by their ids (``SCOPED_MAX_DOCUMENTS``). ``collection``: the one collection they are in.
    """
    lexemes = _lexemes(query_terms(text))
    if not lexemes:
        return LexicalResult((), (), "EMPTY", 0)
    shares, rows = lexeme_shares(lexemes)
    weights = {lexeme: idf(shares[lexeme], rows) for lexeme in lexemes}
    predicate = _predicate(document_condition, scoped, collection)
    owners: dict[uuid.UUID, uuid.UUID] = {}
    all_words, matched = _all_words_tier(lexemes, shares, rows, weights, predicate, limit, collection, owners)
    if matched >= limit:
        tier = "all-words fill"
    elif matched:
        tier = f"PARTIAL {matched}"
    else:
        tier = "NONE"
    hits = list(all_words)
    if len(lexemes) > 1 and len(hits) < limit:
        rare = [lexeme for lexeme in lexemes if shares[lexeme] < common_term_share]
        seen = [chunk_id for chunk_id, _ in hits]
        extra: list = []
        if rare:
            extra, _ = run_tier(_rarest_first(rare, shares), weights, predicate, seen, limit - len(hits),
                                owners=owners)
        if not extra:
            extra, _ = run_tier(_rarest_first(lexemes, shares), weights, predicate, seen, limit - len(hits),
                                owners=owners)
        hits += extra
    return LexicalResult(
        chunk_ids=tuple(chunk_id for chunk_id, _ in hits),
        scores=tuple(score for _, score in hits),
        tier=tier,
        all_words_count=matched,
        owners=owners,
    )
