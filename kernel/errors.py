"""Domain errors carry their code, message and HTTP status as data.

Domain code raises a ``DomainError`` subclass; the API renders every one of
them in one handler (``acehrag.api``), so no service or pipeline chooses an
HTTP response itself (Zulip's ``JsonableError``, HackSoft's
``ApplicationError``).
"""
from __future__ import annotations


class DomainError(Exception):
    """An expected failure a client can act on.

    ``code`` is a stable machine name, ``message`` the text a client shows
    (the seeds' ``detail``), ``http_status`` the status the API answers with
    and ``headers`` any response headers it needs (``Retry-After``).
    """

    code = "domain_error"
    http_status = 400

    def __init__(self, message: str, *, code: str | None = None, http_status: int | None = None,
                 headers: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if http_status is not None:
            self.http_status = http_status
        self.headers = dict(headers or {})

    @property
    def detail(self) -> str:
        return self.message

    @property
    def status(self) -> int:
        return self.http_status


class BadRequest(DomainError):
    code = "bad_request"
    http_status = 400


class Forbidden(DomainError):
    code = "forbidden"
    http_status = 403


class NotFound(DomainError):
    code = "not_found"
    http_status = 404


class Conflict(DomainError):
    code = "conflict"
    http_status = 409


class PayloadTooLarge(DomainError):
    code = "payload_too_large"
    http_status = 413


class Unprocessable(DomainError):
    code = "unprocessable"
    http_status = 422


class UpstreamFailed(DomainError):
    code = "upstream_failed"
    http_status = 502


class RetrievalFailed(UpstreamFailed):
    """A search could not read the index: its embedder failed, or a statement hit its time bound.

    502 on every route (the seeds' tables list no other status for it). An
    agent told of it may search again within its deadline; on /query/v2 a
    turn whose tools read nothing at all is a 404 instead (seed).
    """

    code = "retrieval_failed"


class Unavailable(DomainError):
    code = "unavailable"
    http_status = 503


class UpstreamTimeout(DomainError):
    code = "upstream_timeout"
    http_status = 504


class RateLimited(DomainError):
    """Too many requests in a window; ``Retry-After`` says how long to wait."""

    code = "rate_limited"
    http_status = 429

    def __init__(self, message: str, *, retry_after: int, code: str | None = None):
        super().__init__(message, code=code, headers={"Retry-After": str(retry_after)})
        self.retry_after = retry_after
class UnsupportedMediaType(DomainError):
    code = "unsupported_media_type"
    http_status = 415
