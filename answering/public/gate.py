"""The one gate every public POST passes before any work, and the public routes' error response.

The chat and the feedback route are reached from browsers without a key:
the route must be enabled, the method right, the page's origin ours or a
configured partner's, the body ``application/json`` within ``MAX_BODY_BYTES``
(declared and read), and it must parse into the route's schema. Every refusal
is a named error; ``public_error_response`` renders it in the protocol's
shape, its status and code from ``kernel.error_table``.
"""
from __future__ import annotations

import json
from typing import TypeVar

from django.http import HttpRequest, HttpResponse

from answering.public.schemas import ValidationError, first_error
from answering.public.services import cross_origin_allowed, origin_allowed, origin_of
from kernel.config import PublicChatSettings
from kernel.connections import logged_once
from kernel.error_table import error_status, public_error_response
from kernel.errors import BadRequest, DomainError, Forbidden, MethodNotAllowed, NotFound, PayloadTooLarge, UnsupportedMediaType

MAX_BODY_BYTES = 64 * 1024
PREFLIGHT_MAX_AGE = "600"
Body = TypeVar("Body")


class OriginNotAllowed(Forbidden):
    code = "origin_not_allowed"

    def __init__(self) -> None:
        super().__init__("Origin not allowed")


class BodyNotJson(UnsupportedMediaType):
    code = "body_not_json"


class BodyTooLarge(PayloadTooLarge):
    code = "request_too_large"

    def __init__(self) -> None:
        super().__init__("The request body is too large")


class BodyInvalid(BadRequest):
    code = "invalid_body"


def own_origin(request: HttpRequest) -> str:
    return f"{request.scheme}://{request.get_host()}"


def browser_origin(request: HttpRequest) -> str | None:
    """The page's origin as the browser states it; None for clients that send neither header."""
    header = request.headers.get("Origin")
    if header is not None:
        # "null" (sandboxed frames, file://) is a real browser origin that is never allowed.
        return origin_of(header) or "null"
    return origin_of(request.headers.get("Referer"))


def with_cors(request: HttpRequest, response: HttpResponse, config: PublicChatSettings) -> HttpResponse:
    origin = browser_origin(request)
    response["Vary"] = "Origin"
    if cross_origin_allowed(origin, own_origin=own_origin(request), config=config):
        response["Access-Control-Allow-Origin"] = origin
        response["Access-Control-Expose-Headers"] = "Retry-After"
    return response


def error_response(error: DomainError) -> HttpResponse:
    """A refusal as the ``error`` event's payload in JSON, with the table's status."""
    response = public_error_response(error)
    if error_status(error) >= 500:
        logged_once(response)  # an expected fault, already logged once where it was met
    return response


def preflight(request: HttpRequest, config: PublicChatSettings, methods: str) -> HttpResponse:
    if not cross_origin_allowed(browser_origin(request), own_origin=own_origin(request), config=config):
        return error_response(OriginNotAllowed())
    response = HttpResponse(status=204)
    response["Access-Control-Allow-Methods"] = methods
    response["Access-Control-Allow-Headers"] = "Content-Type, Accept"
    response["Access-Control-Max-Age"] = PREFLIGHT_MAX_AGE
    return response


def route_gate(request: HttpRequest, config: PublicChatSettings, methods: tuple[str, ...]) -> HttpResponse | None:
    """What a public route answers before any work (disabled, preflight, wrong method); None to go on."""
    if not config.enabled:
        return error_response(NotFound("Not Found"))
    allow = ", ".join((*methods, "OPTIONS"))
    if request.method == "OPTIONS":
        return with_cors(request, preflight(request, config, allow), config)
    if request.method not in methods and not (request.method == "HEAD" and "GET" in methods):
        response = error_response(MethodNotAllowed(f"Use {methods[0]}"))
        response["Allow"] = allow
        return with_cors(request, response, config)
    return None


def post_gate(request: HttpRequest, config: PublicChatSettings) -> HttpResponse | None:
    return route_gate(request, config, ("POST",))


def public_body(request: HttpRequest, config: PublicChatSettings, schema: type[Body], *, what: str) -> Body:
    """The request body as ``schema``, after the origin, type and size checks; raises a named error."""
    origin = browser_origin(request)
    if origin is not None and not origin_allowed(origin, own_origin=own_origin(request), config=config):
        raise OriginNotAllowed()
    if request.content_type != "application/json":
        raise BodyNotJson(f"Send the {what} as application/json")
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if not declared.isdigit() or int(declared) > MAX_BODY_BYTES or len(request.body) > MAX_BODY_BYTES:
        raise BodyTooLarge()
    try:
        return schema.model_validate(json.loads(request.body))
    except (ValueError, RecursionError) as exc:  # JSON, UTF-8 and schema errors are all ValueErrors
        raise BodyInvalid(first_error(exc) if isinstance(exc, ValidationError) else "The body is not valid JSON") from None
