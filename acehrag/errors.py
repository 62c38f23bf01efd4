"""Error bodies: JSON everywhere on the API, FastAPI-compatible 422 items.

Every body is ``{"detail", "code"}`` with the status of ``code`` in ``kernel.error_table``.
"""
from __future__ import annotations

import json
import logging
from http import HTTPStatus
from typing import Any

from django.http import HttpRequest, HttpResponse

from kernel.error_table import error_response, family_code
from kernel.errors import DomainError, InternalError, NotFound

logger = logging.getLogger("acehrag.errors")

# Paths served as HTML on purpose (admin, docs pages, the public widget page).
HTML_PREFIXES = ("/admin", "/static/", "/docs", "/redoc", "/widget")


def json_safe(value: Any) -> Any:
    """Make a pydantic ``ctx``/``input`` value serialisable without losing meaning."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [json_safe(v) for v in value]
    return str(value)


def fastapi_error_item(error: dict[str, Any], source: str, strip_first: bool) -> dict[str, Any]:
    loc = tuple(error.get("loc", ()))
    if strip_first and loc:
        loc = loc[1:]
    item: dict[str, Any] = {
        "type": error.get("type", "value_error"),
        "loc": [source, *loc],
        "msg": error.get("msg", "Invalid value"),
        "input": json_safe(error.get("input")),
    }
    if error.get("ctx"):
        item["ctx"] = json_safe(error["ctx"])
    return item


def json_invalid_item(exc: BaseException) -> dict[str, Any]:
    position = exc.pos if isinstance(exc, json.JSONDecodeError) else 0
    return {
        "type": "json_invalid",
        "loc": ["body", position],
        "msg": "JSON decode error",
        "input": {},
        "ctx": {"error": exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)},
    }


def status_error(status: int, reason: str) -> DomainError:
    """A bare status a framework chose, as the error of its family."""
    return DomainError(reason, code=family_code(status))


class JsonErrorMiddleware:
    """Turn any non-JSON error response outside the HTML pages into JSON.

    Covers Django's own 404 for unknown paths, ninja's empty 405, and the
    500 Django produces for an unhandled exception: a partner never sees an
    HTML error page or a traceback.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        return self.process(request, response)

    @staticmethod
    def process_exception(request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """A database outage outside the API's own handlers (admin, probes): JSON 503, one log line."""
        from kernel.connections import (
            DATABASE_UNAVAILABLE_ERRORS,
            DatabaseUnavailable,
            log_database_unavailable,
            logged_once,
        )

        if isinstance(exception, DATABASE_UNAVAILABLE_ERRORS):
            log_database_unavailable(f"{request.method} {request.path}", exception)
            return logged_once(error_response(DatabaseUnavailable()))
        return None

    @staticmethod
    def process(request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if response.status_code < 400 or request.path.startswith(HTML_PREFIXES):
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        try:
            reason = HTTPStatus(response.status_code).phrase
        except ValueError:
            reason = "Error"
        replacement = error_response(status_error(response.status_code, reason))
        if response.has_header("Allow"):
            replacement["Allow"] = response["Allow"]
        return replacement


def not_found_view(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(NotFound("Not Found"))


def server_error_view(request: HttpRequest) -> HttpResponse:
    return error_response(InternalError("Internal Server Error"))
