"""The lexical leg's tiers as SQL: nominate full-text matches group by group, rank a bounded set of them.

Nomination is bounded (``RANK_BOUND``) but a GIN bitmap is not: PostgreSQL reads every match of a
tsquery before the first row. For a query whose words are in a large share of the passages (at 1M
chunks, 12% matched "atur & bentuk & undang": a 33 ms index scan for the 500 it keeps), the same
first matches in table order are found sooner by reading the table from its start until the bound
fills (``dense_prefix_pages``; 52 -> 10-13 ms for that tier, the same passages).
"""
from __future__ import annotations

import contextlib
import math
import uuid

from django.db import connection, transaction

# What the lexical leg's transaction sets (hybrid.py): no parallel workers, so the first RANK_BOUND matches are
# the index's, the same on every run.
SERIAL = {"max_parallel_workers_per_gather": 0}
# Bound on how many full-text matches are ranked (DESIGN.md: rank a bounded set).
# With rarest-first nomination, 500 ranks the same top 10 as 1,000 did on the
# real-corpus questions (300 already loses some) at about half the cost.
RANK_BOUND = 500
# When reading the table's head pays: a GIN bitmap costs ~0.27 us per match (density d x N rows), a scan
# from the table's start ~2.4 us per row read until RANK_BOUND matches (RANK_BOUND / d rows); measured at
# 1M chunks on this machine (bench/scale.py). The head wins when d^2 x N >= 2.4 x 500 / 0.27.
DENSE_SCAN_MIN = 4_444
# The head read covers this many times the rows the estimated density needs; short of the bound, the
# tier runs again through the index (the estimate assumes independent words; legal words co-occur, so
# the real density is usually higher).
DENSE_SCAN_MARGIN = 2.0

# Each nomination group adds the matches that the earlier groups did not; the
# LIMIT stops the UNION ALL, so later groups are not even scanned once the
# bound is full.
# The matched rows keep a detoasted copy of their tsvector: ranking calls
# ts_rank once per query lexeme, and each call would otherwise detoast it again.
_TIER_SQL = """
WITH matched AS MATERIALIZED (
    SELECT * FROM ({nominations}) AS nominated
    LIMIT %s
)
SELECT id, {rank} AS rank, count(*) OVER () AS matched, document_id
FROM matched
ORDER BY rank DESC, id
LIMIT %s
"""

DOCUMENT_JOIN = "JOIN retrieval_document ON retrieval_document.id = c.document_id"
_NOMINATION_SQL = """(
    SELECT c.id, c.document_id, c.search_vector || ''::tsvector AS search_vector
    FROM retrieval_chunk c
    {join}
    WHERE c.search_vector @@ %s::tsquery {earlier} AND {predicate} {exclude} {head} {row_check}
)"""
# Not indexable (the copy), so the planner checks it on each nominated row instead of reading its postings.
_ROW_CHECK_SQL = "AND (c.search_vector || ''::tsvector) @@ %s::tsquery"


def rank_sql(weights: dict[str, float]) -> tuple[str, list]:
    """Sum over query lexemes of idf x ts_rank: term frequency with an IDF weight.

    ``ts_rank`` alone has no notion of how rare a term is, so a passage
    repeating "aceh" would outrank one containing the question's rare word.
    """
    parts, params = [], []
    for lexeme, weight in weights.items():
        parts.append("%s * ts_rank(search_vector, %s::tsquery, 1)")
        params += [weight, tsquery([lexeme], "&")]
    return " + ".join(parts) or "0", params


def dense_prefix_pages(lexemes: list[str], shares: dict[str, float], rows: float, pages: int) -> int | None:
    """How many of the table's first pages to read for all of ``lexemes``' first matches, or None when the
    index is cheaper (``DENSE_SCAN_MIN``) or the head would be the whole table."""
    density = math.prod(shares[lexeme] for lexeme in lexemes)
    if rows <= 0 or pages <= 0 or density * density * rows < DENSE_SCAN_MIN:
        return None
    head = math.ceil(DENSE_SCAN_MARGIN * RANK_BOUND / density / (rows / pages)) + 1
    return head if head < pages else None


def run_tier(
    groups: list[str], weights: dict[str, float], predicate: tuple[str, list, str], exclude: list[uuid.UUID], limit: int,
    *, head_pages: int | None = None, row_check: str | None = None, owners: dict | None = None,
):
    """Rank the matches of ``groups`` (tsqueries, nominated in this order, each without the earlier ones' matches).

    ``head_pages`` (one group only): nominate from the table's first pages, read in order instead of through
    the index; the same first matches when they fill ``RANK_BOUND`` there (the caller checks ``matched``).
    ``row_check``: a tsquery every nominated row must also match, checked on the row.
    ``owners``: filled with each ranked passage's document.
    """
    predicate_sql, predicate_params, join = predicate
    exclude_sql = "AND NOT (c.id = ANY(%s))" if exclude else ""
    head_sql = "AND c.ctid < %s::tid" if head_pages else ""
    nominations, params = [], []
    for index, group in enumerate(groups):
        earlier = groups[:index]
        earlier_sql = "AND NOT c.search_vector @@ %s::tsquery" if earlier else ""
        nominations.append(_NOMINATION_SQL.format(join=join, earlier=earlier_sql, predicate=predicate_sql,
                                                  exclude=exclude_sql, head=head_sql,
                                                  row_check=_ROW_CHECK_SQL if row_check else ""))
        params.append(group)
        if earlier:
            params.append(" | ".join(f"({query})" for query in earlier))
        params += predicate_params
        if exclude:
            params.append(exclude)
        if head_pages:
            params.append(f"({int(head_pages)},0)")
        if row_check:
            params.append(row_check)
    ranking, rank_params = rank_sql(weights)
    sql = _TIER_SQL.format(nominations=" UNION ALL ".join(nominations), rank=ranking)
    params += [RANK_BOUND, *rank_params, limit]
    # The head in table order: no bitmap (it would read every match first). The lexical leg's transaction plans
    # without parallel workers (SERIAL): their rows arrive in whichever order they finish, so the first RANK_BOUND
    # matches, and the ranking, would change from one run to the next once the table is large enough for them.
    with connection.cursor() as cursor, without_bitmap_scans(cursor, bool(head_pages)):
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    matched = rows[0][2] if rows else 0
    if owners is not None:
        owners.update((row[0], row[3]) for row in rows)
    return [(row[0], float(row[1])) for row in rows], int(matched)


@contextlib.contextmanager
def without_bitmap_scans(cursor, applies: bool = True):
    """The statements inside read rows in order (or through a plain index) and check the full-text match on each,
    instead of reading every posting of the query's words first; in a transaction of their own (or the caller's),
    and switched back after them, so a caller's later statements plan as usual. A statement that fails (a timeout)
    rolls the transaction back, and the setting with it: the failure itself is what the caller sees."""
    if not applies:
        yield
        return
    with transaction.atomic(savepoint=False):
        cursor.execute("SELECT set_config('enable_bitmapscan', 'off', true)")
        yield
        cursor.execute("SELECT set_config('enable_bitmapscan', 'on', true)")


def tsquery(lexemes: list[str], operator: str) -> str:
    quoted = ["'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'" for lexeme in lexemes]
    return f" {operator} ".join(quoted)
