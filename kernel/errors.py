"""The error vocabulary: named domain errors, each with a stable ``code``.

Domain code raises a ``DomainError`` subclass and never chooses an HTTP
status: the one table in ``kernel.error_table`` maps each code to its status
(and to the public chat's code), and every renderer (the JSON handler in
``acehrag.api``, the SSE ``error`` frame, the public chat's ``error`` event)
reads it (Zulip's ``JsonableError.code``, HackSoft's ``ApplicationError``).

The classes below are families; apps name their own errors under them
(``ConversationNotFound(NotFound)``, ``UploadTooLarge(PayloadTooLarge)``) and
each name's ``code`` is a row of the table (a test walks them all).
"""
from __future__ import annotations

from kernel.error_table import error_status


class DomainError(Exception):
    """An expected failure a client can act on.

    ``code`` is a stable machine name clients branch on, ``message`` the text
    a client shows (the seeds' ``detail``), ``retry_after`` the seconds a
    client should wait before trying again, when that is known.
    """

    code = "domain_error"

    def __init__(self, message: str, *, code: str | None = None, retry_after: int | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.retry_after = retry_after

    @property
    def detail(self) -> str:
        return self.message

    @property
    def http_status(self) -> int:
        """The status the one table (``kernel.error_table``) gives this code: read there, never chosen here."""
        return error_status(self)


class BadRequest(DomainError):
    code = "bad_request"


class Unauthenticated(DomainError):
    code = "unauthenticated"


class Forbidden(DomainError):
    code = "forbidden"


class NotFound(DomainError):
    code = "not_found"


class MethodNotAllowed(DomainError):
    code = "method_not_allowed"


class Conflict(DomainError):
    code = "conflict"


class PayloadTooLarge(DomainError):
    code = "payload_too_large"


class UnsupportedMediaType(DomainError):
    code = "unsupported_media_type"


class Unprocessable(DomainError):
    code = "unprocessable"


class UpstreamFailed(DomainError):
    code = "upstream_failed"


class RetrievalFailed(UpstreamFailed):
    """A search could not read the index: its embedder failed, or a statement hit its time bound.

    The same status on every route (the seeds' tables list no other one). An
    agent told of it may search again within its deadline; on /query/v2 a
    turn whose tools read nothing at all is ``nothing_readable`` instead (seed).
    """

    code = "retrieval_failed"


class RetrievalDependencyFailed(RetrievalFailed):
    code = "dependency_failed"


class RetrievalTimedOut(RetrievalFailed):
    code = "retrieval_timeout"


class Unavailable(DomainError):
    code = "unavailable"


class UpstreamTimeout(DomainError):
    code = "upstream_timeout"


class RateLimited(DomainError):
    """Too many requests in a window; ``retry_after`` says how long to wait."""

    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int, code: str | None = None):
        super().__init__(message, code=code, retry_after=retry_after)


class Cancelled(DomainError):
    """The work stopped before it produced an answer (nobody was listening any more)."""

    code = "cancelled"


class InternalError(DomainError):
    """Not an expected failure: what a renderer says when something unforeseen broke."""

    code = "internal_error"


class RequestInvalid(Unprocessable):
    """A request body, query or path that fails its schema (FastAPI's validation items are its ``detail``)."""

    code = "validation_error"

    def __init__(self, message: str = "Request validation failed"):
        super().__init__(message)


class RequestTooLarge(PayloadTooLarge):
    code = "request_too_large"

    def __init__(self, limit: int):
        super().__init__(f"Request body too large (limit {limit} bytes)")
