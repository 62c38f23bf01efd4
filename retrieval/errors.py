"""Retrieval's domain errors; ``acehrag.api`` renders each as ``{"detail": message}`` with its status."""
from __future__ import annotations

from kernel.errors import BadRequest, DomainError, Forbidden, NotFound, PayloadTooLarge, RetrievalFailed, Unavailable

QUERY_EMPTY = "Query must not be empty"
# As /query's question bound (answering.answer.contracts.MAX_QUESTION_CHARS): longer is a 413.
MAX_QUERY_CHARS = 8000


class QueryEmpty(BadRequest):
    code = "query_empty"


class QueryTooLong(PayloadTooLarge):
    code = "query_too_long"


class EmbeddingFailed(RetrievalFailed):
    code = "embedding_failed"


class SearchTimedOut(RetrievalFailed):
    """502 like every failed retrieval dependency (the seeds' tables); 503 stays the database outage's."""

    code = "search_timeout"


class DocumentNotFound(NotFound):
    code = "document_not_found"


class IngestionNotFound(NotFound):
    code = "ingestion_not_found"


class AdminRequired(Forbidden):
    code = "admin_required"


class UploadRejected(DomainError):
    """An upload refused before anything is stored (``status``: 413 too large, 415 wrong type)."""

    code = "upload_rejected"

    def __init__(self, status: int, detail: str):
        super().__init__(detail, http_status=status)


class IngestionQueueUnavailable(Unavailable):
    """The task broker refused the ingestion; nothing of the upload was kept."""

    code = "ingestion_queue_unavailable"


def require_query_text(query: str) -> str:
    """Whitespace-only queries are a 400 (``""`` is already a 422 from the schema)."""
    if not query.strip():
        raise QueryEmpty(QUERY_EMPTY)
    return query.strip()


def require_query_length(query: str) -> str:
    if len(query) > MAX_QUERY_CHARS:
        raise QueryTooLong(f"The query is too long ({len(query)} > {MAX_QUERY_CHARS} characters)")
    return query
