"""Retrieval's domain errors (each ``code`` a row of ``kernel.error_table``), and the question rules.

The question rules are the service's one limit on what may be asked or
searched: ``/search``'s query and every answer route's question.
"""
from __future__ import annotations

from kernel.errors import (
    BadRequest,
    Forbidden,
    NotFound,
    PayloadTooLarge,
    RetrievalFailed,
    Unavailable,
    UnsupportedMediaType,
)

QUERY_EMPTY = "Query must not be empty"
# The one bound on a question or search query, in characters (longer is ``query_too_long``).
MAX_QUESTION_CHARS = 8000


class QueryEmpty(BadRequest):
    code = "query_empty"


class QueryTooLong(PayloadTooLarge):
    code = "query_too_long"


class EmbeddingFailed(RetrievalFailed):
    code = "embedding_failed"


class SearchTimedOut(RetrievalFailed):
    """A failed retrieval dependency like any other (the seeds' tables), not the database outage's code."""

    code = "search_timeout"


class DocumentNotFound(NotFound):
    code = "document_not_found"


class IngestionNotFound(NotFound):
    code = "ingestion_not_found"


class AdminRequired(Forbidden):
    code = "admin_required"


class UploadTooLarge(PayloadTooLarge):
    """An upload over the size limit, refused before anything is stored."""

    code = "upload_too_large"


class UploadTypeUnsupported(UnsupportedMediaType):
    """An upload whose name or bytes are not an accepted type, refused before anything is stored."""

    code = "upload_type_unsupported"


UploadRejected = (UploadTooLarge, UploadTypeUnsupported)   # what an upload form catches


class IngestionQueueUnavailable(Unavailable):
    """The task broker refused the ingestion; nothing of the upload was kept."""

    code = "ingestion_queue_unavailable"


def require_query_text(query: str) -> str:
    """Whitespace-only queries are ``query_empty`` (``""`` is already a schema error)."""
    if not query.strip():
        raise QueryEmpty(QUERY_EMPTY)
    return query.strip()


def require_query_length(query: str) -> str:
    """The one question-length limit: longer than ``MAX_QUESTION_CHARS`` is ``query_too_long``."""
    if len(query) > MAX_QUESTION_CHARS:
        raise QueryTooLong(f"The query is too long ({len(query)} > {MAX_QUESTION_CHARS} characters)")
    return query


def require_question(query: str) -> str:
    """A question as every route reads it: not blank, stripped, within the limit."""
    return require_query_length(require_query_text(query))
