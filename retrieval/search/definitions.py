"""Definition questions: "apa yang dimaksud dengan X", "X itu apa", "pengertian X".

Regulations define their terms in Pasal 1 ("X adalah ...", "X yang
selanjutnya disebut Y adalah ..."). For a definition question the chunk of
the named (or best-ranked) regulation whose Pasal 1 angka defines the term is
ranked first; its ``legal_reference`` carries the angka ("Pasal 1 angka 5-9").
"""
from __future__ import annotations

import re
import uuid
from typing import Sequence

from django.db import connection

from retrieval.access import document_condition_sql

_ASK = re.compile(
    r"(?:apa\s+(?:yang\s+)?(?:di\s*maksud|dimaksudkan)\s+(?:dengan\s+)?|apa\s+(?:itu|arti(?:nya)?|pengertian|definisi)\s+|"
    r"\b(?:pengertian|definisi|arti|maksud)\s+(?:dari\s+)?|what\s+is\s+meant\s+by\s+|definition\s+of\s+|"
    r"what\s+(?:is|are)\s+(?:an?\s+|the\s+)?)(?P<term>[^?.,;:]+)"
    r"|(?P<term2>[\w' /-]+?)\s+(?:itu\s+apa|itu\s+artinya\s+apa|apaan|artinya\s+apa)",
    re.IGNORECASE,
)
# Where a term ends inside the question: the regulation it is asked about, or filler.
_TERM_END = re.compile(
    r"\s+(?:menurut|dalam|di\s+dalam|pada|berdasarkan|sesuai|sebagaimana|dlm|versi|according|under|in|itu|sih|ya|tuh)\b.*$",
    re.IGNORECASE,
)
_LEADING = re.compile(r"^(?:dengan|istilah|kata|sebutan)\s+", re.IGNORECASE)
MAX_TERM_WORDS = 8
DEFINING_CHUNK_LIMIT = 3

# The Pasal 1 passages first, their text matched after: given the text pattern beside the heading test, the planner
# ran the pattern over every passage of the document (656 of a long law's texts read: 31 ms; 1 ms this way).
_DEFINING_SQL = """
WITH pasal_one AS MATERIALIZED (
    SELECT c.id, c.document_id, c.ordinal
    FROM retrieval_chunk c
    JOIN retrieval_document ON retrieval_document.id = c.document_id
    WHERE c.document_id = ANY(%s) AND {predicate}
      AND (c.legal_reference ~ 'Pasal 1($|[^0-9A-Z])' OR c.section_path @> ARRAY['Pasal 1']::varchar[])
)
SELECT p.id, p.document_id
FROM pasal_one p JOIN retrieval_chunk c ON c.id = p.id
WHERE c.text ~* %s
ORDER BY array_position(%s::uuid[], p.document_id), p.ordinal
LIMIT %s
"""


def definition_term(question: str) -> str | None:
    """The term a definition question asks about, or None."""
    match = _ASK.search(question)
    if not match:
        return None
    term = match.group("term") or match.group("term2") or ""
    term = _LEADING.sub("", _TERM_END.sub("", term.strip())).strip(" \"'“”")
    words = term.split()
    if not words or len(words) > MAX_TERM_WORDS:
        return None
    return " ".join(words)


def _pg_word(word: str) -> str:
    return re.sub(r"([^\w])", r"\\\1", word)


def defining_pattern(term: str) -> str:
    """A PostgreSQL regex for the term at the start of its definition."""
    words = r"\s+".join(_pg_word(word) for word in term.split())
    return (
        rf"(^|[0-9]\.\s*|[;:]\s*)\m{words}\M(\s*,|\s*\(|\s+yang\s+selanjutnya|\s+atau\s+yang\s+disebut|\s+adalah|\s+ialah|\s+merupakan|\s+yaitu)"
        rf"|(disebut|disingkat)\s+(dengan\s+)?\m{words}\M\s*(,|adalah|ialah|yaitu)"
    )


def defining_chunks(term: str, document_ids: Sequence[uuid.UUID], document_condition) -> list[uuid.UUID]:
    """Pasal 1 chunks of these documents (in this order) defining ``term``, visible under the condition."""
    if not document_ids:
        return []
    predicate_sql, predicate_params = document_condition_sql(document_condition)
    ids = list(document_ids)
    with connection.cursor() as cursor:
        cursor.execute(
            _DEFINING_SQL.format(predicate=predicate_sql),
            [ids, *predicate_params, defining_pattern(term), ids, DEFINING_CHUNK_LIMIT],
        )
        return [row[0] for row in cursor.fetchall()]
