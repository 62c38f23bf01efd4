"""Public chat HTTP: parse the request, call the services, serialise JSON or SSE.

No API key and no cookies: the visitor's ids travel in the JSON body, so there
is no ambient credential for a cross-site request to abuse. The view is still
CSRF-exempt only because it checks the browser's ``Origin``/``Referer`` itself
(same origin or a configured partner origin) and requires a JSON body, which a
plain cross-site form cannot send.
"""
from __future__ import annotations

import asyncio
import functools
import json
import logging
import uuid
from pathlib import Path

from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from kernel.config import PublicChatSettings
from kernel.connections import DATABASE_UNAVAILABLE_ERRORS, logged_once
from answering.public.cards import executed_sql, source_cards
from answering.public.config import public_chat_settings
from answering.public.schemas import PublicChatIn, ValidationError, first_error
from answering.public.services import (
    PublicChatError,
    client_address,
    cross_origin_allowed,
    origin_allowed,
    origin_of,
    public_rate_check,
    visitor_identify,
)
from answering.public.selectors import public_source_get
from answering.public.turn import Phase, PublicAnswer, PublicChatRun, PublicTurn, ReplyDelta, database_unavailable
from answering.sse import SSE_HEADERS, sse_frame

logger = logging.getLogger(__name__)

SSE_CONTENT_TYPE = "text/event-stream; charset=utf-8"
MAX_BODY_BYTES = 64 * 1024
PREFLIGHT_MAX_AGE = "600"


# -- helpers ----------------------------------------------------------------------------

def _own_origin(request: HttpRequest) -> str:
    return f"{request.scheme}://{request.get_host()}"


def _browser_origin(request: HttpRequest) -> str | None:
    """The page's origin as the browser states it; None for clients that send neither header."""
    header = request.headers.get("Origin")
    if header is not None:
        # "null" (sandboxed frames, file://) is a real browser origin that is never allowed.
        return origin_of(header) or "null"
    return origin_of(request.headers.get("Referer"))


def _with_cors(request: HttpRequest, response: HttpResponse, config: PublicChatSettings) -> HttpResponse:
    origin = _browser_origin(request)
    response["Vary"] = "Origin"
    if cross_origin_allowed(origin, own_origin=_own_origin(request), config=config):
        response["Access-Control-Allow-Origin"] = origin
        response["Access-Control-Expose-Headers"] = "Retry-After"
    return response


def _error_response(exc: PublicChatError) -> JsonResponse:
    """Failures before a stream starts: the ``error`` event's payload as JSON, with its status."""
    payload = {"ok": False, "message": exc.message, "code": exc.code}
    if exc.retry_after is not None:
        payload["retryAfter"] = exc.retry_after
    response = JsonResponse(payload, status=exc.status)
    response["Cache-Control"] = "no-store"
    if exc.status >= 500:
        logged_once(response)  # an expected fault, already logged once where it was met
    if exc.retry_after is not None:
        response["Retry-After"] = str(exc.retry_after)
    return response


def _preflight(request: HttpRequest, config: PublicChatSettings, methods: str) -> HttpResponse:
    if not cross_origin_allowed(_browser_origin(request), own_origin=_own_origin(request), config=config):
        return _error_response(PublicChatError("FORBIDDEN", "Origin not allowed", 403))
    response = HttpResponse(status=204)
    response["Access-Control-Allow-Methods"] = methods
    response["Access-Control-Allow-Headers"] = "Content-Type, Accept"
    response["Access-Control-Max-Age"] = PREFLIGHT_MAX_AGE
    return response


def done_payload(answer: PublicAnswer, config: PublicChatSettings) -> dict:
    """The ``done`` event and, unchanged, the JSON response of a non-stream request."""
    return {
        "ok": True,
        "reply": answer.reply,
        "conversationId": str(answer.conversation_id),
        "visitorId": answer.identity.visitor_id,
        "sessionId": answer.identity.session_id,
        "sources": answer.sources,
        "route": {"mode": "rag", "reason": answer.route_reason},
        "sql": executed_sql(answer.sources),
        "suggestions": answer.suggestions,
        "cards": source_cards(answer.sources),
        "projectName": config.project_name,
        "greeting": config.greeting,
    }


def _event_frame(event: Phase | ReplyDelta | PublicAnswer, config: PublicChatSettings) -> bytes:
    if isinstance(event, Phase):
        return sse_frame("phase", {"name": event.name})
    if isinstance(event, ReplyDelta):
        return sse_frame("delta", {"text": event.text})
    return sse_frame("done", done_payload(event, config))


# -- the chat ---------------------------------------------------------------------------

async def _parse_turn(request: HttpRequest, config: PublicChatSettings) -> tuple[PublicTurn, bool]:
    """Validate the request and count it against the limits; raise ``PublicChatError``."""
    origin = _browser_origin(request)
    if origin is not None and not origin_allowed(origin, own_origin=_own_origin(request), config=config):
        raise PublicChatError("FORBIDDEN", "Origin not allowed", 403)
    if request.content_type != "application/json":
        raise PublicChatError("UNSUPPORTED_MEDIA_TYPE", "Send the question as application/json", 415)
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if not declared.isdigit() or int(declared) > MAX_BODY_BYTES or len(request.body) > MAX_BODY_BYTES:
        raise PublicChatError("BAD_REQUEST", "The request body is too large", 413)
    try:
        body = PublicChatIn.model_validate(json.loads(request.body))
    except (ValueError, RecursionError) as exc:  # JSON, UTF-8 and schema errors are all ValueErrors
        message = first_error(exc) if isinstance(exc, ValidationError) else "The body is not valid JSON"
        raise PublicChatError("BAD_REQUEST", message, 400) from None
    question = body.message.strip()
    if not question:
        raise PublicChatError("BAD_REQUEST", "message must not be empty", 400)
    if len(question) > config.max_question_chars:
        raise PublicChatError(
            "BAD_REQUEST", f"message is longer than {config.max_question_chars} characters", 400)
    identity = visitor_identify(visitor_id=body.visitor_id, session_id=body.session_id)
    address = client_address(request.META.get("REMOTE_ADDR"), request.headers.get("X-Forwarded-For"), config.proxy_hops)
    await public_rate_check(identity=identity, address=address, config=config)
    return PublicTurn(question=question, identity=identity, conversation_id=body.conversation_id), body.stream


def _stream_response(run: PublicChatRun, config: PublicChatSettings) -> StreamingHttpResponse:
    async def frames():
        yield sse_frame("start", {"ok": True})
        try:
            async for event in run.events():
                yield _event_frame(event, config)
        except PublicChatError as exc:
            yield sse_frame("error", {"ok": False, "message": exc.message, "code": exc.code})
        except asyncio.CancelledError:
            # The client went away and the run already told the pipeline to stop;
            # this last frame is best effort for any reader still attached.
            yield sse_frame("cancelled", {"message": "client_disconnected"})
            raise
        except Exception:
            logger.exception("public chat stream failed")
            yield sse_frame("error", {"ok": False, "message": "The answer could not be completed", "code": "INTERNAL_ERROR"})

    response = StreamingHttpResponse(frames(), content_type=SSE_CONTENT_TYPE)
    for name, value in SSE_HEADERS.items():
        response[name] = value
    return response


async def _json_response(run: PublicChatRun, config: PublicChatSettings) -> JsonResponse:
    answer = None
    async for event in run.events():
        if isinstance(event, PublicAnswer):
            answer = event
    if answer is None:
        raise PublicChatError("CANCELLED", "The answer was cancelled", 503)
    response = JsonResponse(done_payload(answer, config))
    response["Cache-Control"] = "no-store"
    return response


def post_gate(request: HttpRequest, config: PublicChatSettings) -> HttpResponse | None:
    """What a public POST route answers before any work (disabled, preflight, wrong method); None to go on."""
    if not config.enabled:
        return _error_response(PublicChatError("NOT_FOUND", "Not Found", 404))
    if request.method == "OPTIONS":
        return _with_cors(request, _preflight(request, config, "POST, OPTIONS"), config)
    if request.method != "POST":
        response = _error_response(PublicChatError("METHOD_NOT_ALLOWED", "Use POST", 405))
        response["Allow"] = "POST, OPTIONS"
        return _with_cors(request, response, config)
    return None


@csrf_exempt
async def public_chat(request: HttpRequest) -> HttpResponse:
    """POST /api/public/rag/chat: ``stream: true`` → SSE events, otherwise the ``done`` payload as JSON."""
    config = public_chat_settings()
    if (early := post_gate(request, config)) is not None:
        return early
    try:
        turn, stream = await _parse_turn(request, config)
        run = PublicChatRun(turn)
        await run.prepare()
        response = _stream_response(run, config) if stream else await _json_response(run, config)
    except PublicChatError as exc:
        response = _error_response(exc)
    return _with_cors(request, response, config)


@csrf_exempt
def public_source(request: HttpRequest, chunk_id: uuid.UUID) -> HttpResponse:
    """GET /api/public/rag/sources/<chunk_id>: a cited passage of an unrestricted document."""
    config = public_chat_settings()
    if not config.enabled:
        return _error_response(PublicChatError("NOT_FOUND", "Not Found", 404))
    if request.method == "OPTIONS":
        return _with_cors(request, _preflight(request, config, "GET, OPTIONS"), config)
    if request.method not in ("GET", "HEAD"):
        response = _error_response(PublicChatError("METHOD_NOT_ALLOWED", "Use GET", 405))
        response["Allow"] = "GET, OPTIONS"
        return _with_cors(request, response, config)
    try:
        source = public_source_get(chunk_id=chunk_id)
    except DATABASE_UNAVAILABLE_ERRORS as exc:
        return _with_cors(request, _error_response(database_unavailable(exc)), config)
    if source is None:
        response = _error_response(PublicChatError("NOT_FOUND", "Source not found", 404))
    else:
        response = JsonResponse({"ok": True, "source": source.citation, "text": source.text})
        response["Cache-Control"] = "public, max-age=300"
    return _with_cors(request, response, config)


# -- the widget -------------------------------------------------------------------------

def widget_page(request: HttpRequest) -> HttpResponse:
    """GET /widget: a page that embeds the widget exactly as a partner site would."""
    config = public_chat_settings()
    if request.method not in ("GET", "HEAD") or not config.enabled:
        return HttpResponse(status=404 if not config.enabled else 405)
    return render(request, "public/widget.html", {"project_name": config.project_name,
                                                   "script_url": reverse("public-widget-script")})


VENDOR_DIR = Path(__file__).resolve().parent / "vendor"
VENDOR_FILES = {"marked": "marked.umd.js", "DOMPurify": "purify.min.js"}   # versions: vendor/README.md


@functools.cache
def vendor_modules() -> str:
    """The widget's Markdown renderer and sanitiser, each run in a function scope with its own
    ``module`` (their UMD wrappers export there), so a partner page gains no globals and its own
    ``define``/``module`` are never touched."""
    parts = []
    for name, filename in VENDOR_FILES.items():
        code = (VENDOR_DIR / filename).read_text(encoding="utf-8")
        parts.append(f"vendor.{name} = (function () {{ var module = {{ exports: {{}} }}, exports = module.exports, define;\n"
                     f"{code}\nreturn module.exports; }})();")
    return "\n".join(parts)


def widget_script(request: HttpRequest) -> HttpResponse:
    """GET /widget.js: the embeddable script with this server's settings baked in."""
    config = public_chat_settings()
    if request.method not in ("GET", "HEAD") or not config.enabled:
        return HttpResponse(status=404 if not config.enabled else 405)
    server = {
        "chatPath": reverse("public-chat"),
        "feedbackPath": reverse("public-chat-feedback"),
        "sourcePath": reverse("public-chat-source", args=[uuid.UUID(int=0)]).rsplit("/", 1)[0] + "/",
        "projectName": config.project_name,
        "greeting": config.greeting,
        "maxQuestionChars": config.max_question_chars,
    }
    script = render_to_string("public/widget.js", {"server_json": json.dumps(server, ensure_ascii=True),
                                                   "vendor_modules": vendor_modules()})
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "public, max-age=300"
    # A partner page loads this script from our origin; it must be allowed to.
    response["Cross-Origin-Resource-Policy"] = "cross-origin"
    return response
