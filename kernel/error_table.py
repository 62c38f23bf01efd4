"""The one table from an error's ``code`` to its HTTP status, and the renderers that read it.

Every error that leaves the service leaves through here: the JSON body
``{"detail", "code"}`` (``error_response``), the answer streams' ``error``
frame (``stream_error_frame_data``: the seeds' ``http_<status>``) and the
public chat's ``{"ok": false, "message", "code"}`` (``public_error_payload``,
whose codes are the table's ``public`` column). Domain modules name errors;
only this table knows their statuses.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import JsonResponse

# ``DomainError`` (kernel.errors) is named in annotations only: errors read their status from here.


@dataclass(frozen=True)
class ErrorKind:
    status: int
    public: str                 # the public chat protocol's code
    stream: str | None = None   # the answer streams' ``error`` code; ``http_<status>`` when None

    @property
    def stream_code(self) -> str:
        return self.stream or f"http_{self.status}"


def _kind(status: int, public: str, stream: str | None = None) -> ErrorKind:
    return ErrorKind(status, public, stream)


BAD, NOT_FOUND, UPSTREAM, UNAVAILABLE = "BAD_REQUEST", "NOT_FOUND", "UPSTREAM_ERROR", "UNAVAILABLE"

ERROR_TABLE: dict[str, ErrorKind] = {
    # -- families (kernel.errors) ------------------------------------------------------------
    "domain_error": _kind(400, BAD),
    "bad_request": _kind(400, BAD),
    "unauthenticated": _kind(401, "UNAUTHORIZED"),
    "forbidden": _kind(403, "FORBIDDEN"),
    "not_found": _kind(404, NOT_FOUND),
    "method_not_allowed": _kind(405, "METHOD_NOT_ALLOWED"),
    "conflict": _kind(409, "CONFLICT"),
    "payload_too_large": _kind(413, BAD),
    "unsupported_media_type": _kind(415, "UNSUPPORTED_MEDIA_TYPE"),
    "unprocessable": _kind(422, BAD),
    "rate_limited": _kind(429, "RATE_LIMITED"),
    "internal_error": _kind(500, "INTERNAL_ERROR", stream="query_failed"),
    "upstream_failed": _kind(502, UPSTREAM),
    "retrieval_failed": _kind(502, UPSTREAM),
    "unavailable": _kind(503, UNAVAILABLE),
    "cancelled": _kind(503, "CANCELLED"),
    "upstream_timeout": _kind(504, UPSTREAM),
    # -- the request, before any route runs -------------------------------------------------
    "invalid_api_key": _kind(401, "UNAUTHORIZED"),
    "principal_invalid": _kind(401, "UNAUTHORIZED"),
    "metrics_token_required": _kind(401, "UNAUTHORIZED"),
    "validation_error": _kind(422, BAD),
    "request_too_large": _kind(413, BAD),
    "invalid_body": _kind(400, BAD),
    "body_not_json": _kind(415, "UNSUPPORTED_MEDIA_TYPE"),
    "origin_not_allowed": _kind(403, "FORBIDDEN"),
    "service_unavailable": _kind(503, UNAVAILABLE, stream="service_unavailable"),
    "overloaded": _kind(503, UNAVAILABLE),
    "stream_failed": _kind(500, "INTERNAL_ERROR", stream="stream_failed"),
    # -- identity and administration -------------------------------------------------------
    "admin_required": _kind(403, "FORBIDDEN"),
    "identity_disabled": _kind(503, UNAVAILABLE),
    "playground_rate_limited": _kind(429, "RATE_LIMITED"),
    "editorial_prompt_blank": _kind(400, BAD),
    # -- retrieval ------------------------------------------------------------------------------
    "query_empty": _kind(400, BAD),
    "query_too_long": _kind(413, BAD),
    "embedding_failed": _kind(502, UPSTREAM),
    "search_timeout": _kind(502, UPSTREAM),
    "dependency_failed": _kind(502, UPSTREAM),
    "retrieval_timeout": _kind(502, UPSTREAM),
    "document_not_found": _kind(404, NOT_FOUND),
    "ingestion_not_found": _kind(404, NOT_FOUND),
    "source_not_found": _kind(404, NOT_FOUND),
    "upload_too_large": _kind(413, BAD),
    "upload_type_unsupported": _kind(415, "UNSUPPORTED_MEDIA_TYPE"),
    "ingestion_queue_unavailable": _kind(503, UNAVAILABLE),
    "backup_failed": _kind(503, UNAVAILABLE),
    # -- parsing an uploaded file (kernel.isolation): an ingestion's reason, never a route's status
    "parse_bound_exceeded": _kind(422, BAD),
    "parse_timeout": _kind(422, BAD),
    "parse_memory_exceeded": _kind(422, BAD),
    "parse_crashed": _kind(422, BAD),
    # -- answering ------------------------------------------------------------------------------
    "question_too_large": _kind(413, BAD),
    "model_failed": _kind(502, UPSTREAM),
    "no_content": _kind(404, NOT_FOUND),
    "nothing_readable": _kind(404, NOT_FOUND),
    "artifact_not_found": _kind(404, NOT_FOUND),
    # -- conversations, memory, workspaces ------------------------------------------------------
    "conversation_not_found": _kind(404, NOT_FOUND),
    "conversation_route_conflict": _kind(409, "CONFLICT"),
    "message_not_found": _kind(404, NOT_FOUND),
    "answer_not_found": _kind(404, NOT_FOUND),
    "memory_not_found": _kind(404, NOT_FOUND),
    "workspace_denied": _kind(403, "FORBIDDEN"),
    "workspace_not_found": _kind(404, NOT_FOUND),
    "workspace_member_conflict": _kind(409, "CONFLICT"),
    "subject_required": _kind(403, "FORBIDDEN"),
    "viewer_cannot_ask": _kind(403, "FORBIDDEN"),
    "source_selection_empty": _kind(400, BAD),
    # -- outbound requests (kernel.outbound) ----------------------------------------------------
    "outbound_address_refused": _kind(400, BAD),
}


def error_kind(error: DomainError) -> ErrorKind:
    """The row of ``error.code``; a code without a row answers as its nearest named family."""
    found = ERROR_TABLE.get(error.code)
    if found is not None:
        return found
    for family in type(error).__mro__:
        found = ERROR_TABLE.get(getattr(family, "code", None) or "")
        if found is not None:
            return found
    return ERROR_TABLE["internal_error"]


def error_status(error: DomainError) -> int:
    return error_kind(error).status


def error_body(error: DomainError, detail: Any = None) -> dict:
    """The JSON error body: the seeds' ``detail`` (a 422's list of items, else the message) and the ``code``."""
    return {"detail": error.message if detail is None else detail, "code": error.code}


def error_headers(error: DomainError) -> dict[str, str]:
    return {"Retry-After": str(error.retry_after)} if error.retry_after is not None else {}


def error_response(error: DomainError, detail: Any = None) -> JsonResponse:
    """The JSON response of an error outside the ninja API (plain views, middleware)."""
    response = JsonResponse(error_body(error, detail), status=error_status(error))
    for name, value in error_headers(error).items():
        response[name] = value
    return response


def stream_error_frame_data(error: DomainError) -> dict:
    """The answer streams' terminal ``error`` frame (seed: ``{"code": "http_<status>"|…, "message"}``)."""
    return {"code": error_kind(error).stream_code, "message": error.message}


def public_error_payload(error: DomainError) -> dict:
    """The public chat's ``error`` event and JSON error body."""
    payload = {"ok": False, "message": error.message, "code": error_kind(error).public}
    if error.retry_after is not None:
        payload["retryAfter"] = error.retry_after
    return payload


def public_error_response(error: DomainError) -> JsonResponse:
    response = JsonResponse(public_error_payload(error), status=error_status(error))
    response["Cache-Control"] = "no-store"
    for name, value in error_headers(error).items():
        response[name] = value
    return response


def family_code(status: int) -> str:
    """The family code of a bare status some framework chose (Django's 404 page, ninja's 405)."""
    for code, kind in ERROR_TABLE.items():
        if kind.status == status and code in FAMILIES:
            return code
    return "internal_error" if status >= 500 else "bad_request"


FAMILIES = frozenset({"bad_request", "unauthenticated", "forbidden", "not_found", "method_not_allowed", "conflict",
                      "payload_too_large", "unsupported_media_type", "unprocessable", "rate_limited", "internal_error",
                      "upstream_failed", "unavailable", "upstream_timeout"})
