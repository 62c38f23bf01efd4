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

from answering.public.cards import executed_sql, source_cards
from answering.public.config import public_chat_settings
from answering.public.gate import BodyInvalid, error_response, public_body, route_gate, with_cors
from answering.public.schemas import PublicChatIn
from answering.public.selectors import public_source_get
from answering.public.services import client_address, public_rate_check, visitor_identify
from answering.public.turn import Phase, PublicAnswer, PublicChatRun, PublicTurn, ReplyDelta, database_unavailable
from answering.sse import SSE_HEADERS, sse_frame
from kernel.config import PublicChatSettings
from kernel.connections import DATABASE_UNAVAILABLE_ERRORS
from kernel.error_table import public_error_payload
from kernel.errors import Cancelled, DomainError, InternalError, NotFound

logger = logging.getLogger(__name__)

SSE_CONTENT_TYPE = "text/event-stream; charset=utf-8"


class SourceNotFound(NotFound):
    code = "source_not_found"


# -- helpers ----------------------------------------------------------------------------

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

async def visitor_turn(body: PublicChatIn, config: PublicChatSettings, *, address: str | None) -> PublicTurn:
    """The visitor's question checked and counted against the limits (``address`` None: the visitor's only,
    for the keyed agent route whose caller is the partner's own web tier); raise a named error."""
    question = body.message.strip()
    if not question:
        raise BodyInvalid("message must not be empty")
    if len(question) > config.max_question_chars:
        # The widget's own, configurable bound on a visitor's message (within the service's question limit).
        raise BodyInvalid(f"message is longer than {config.max_question_chars} characters")
    identity = visitor_identify(visitor_id=body.visitor_id, session_id=body.session_id)
    await public_rate_check(identity=identity, address=address, config=config)
    return PublicTurn(question=question, identity=identity, conversation_id=body.conversation_id)


async def _parse_turn(request: HttpRequest, config: PublicChatSettings) -> tuple[PublicTurn, bool]:
    """Validate the request and count it against the limits; raise a named error."""
    body = public_body(request, config, PublicChatIn, what="question")
    address = client_address(request.META.get("REMOTE_ADDR"), request.headers.get("X-Forwarded-For"), config.proxy_hops)
    return await visitor_turn(body, config, address=address), body.stream


def stream_response(run: PublicChatRun, config: PublicChatSettings) -> StreamingHttpResponse:
    """The protocol's events: start, phase*, delta*, done — or error; cancelled when the client went away."""
    async def frames():
        yield sse_frame("start", {"ok": True})
        try:
            async for event in run.events():
                yield _event_frame(event, config)
        except DomainError as exc:
            yield sse_frame("error", public_error_payload(exc))
        except asyncio.CancelledError:
            # The client went away and the run already told the pipeline to stop;
            # this last frame is best effort for any reader still attached.
            yield sse_frame("cancelled", {"message": "client_disconnected"})
            raise
        except Exception:
            logger.exception("public chat stream failed")
            yield sse_frame("error", public_error_payload(InternalError("The answer could not be completed")))

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
        raise Cancelled("The answer was cancelled")
    response = JsonResponse(done_payload(answer, config))
    response["Cache-Control"] = "no-store"
    return response


@csrf_exempt
async def public_chat(request: HttpRequest) -> HttpResponse:
    """POST /api/public/rag/chat: ``stream: true`` → SSE events, otherwise the ``done`` payload as JSON."""
    config = public_chat_settings()
    if (early := route_gate(request, config, ("POST",))) is not None:
        return early
    try:
        turn, stream = await _parse_turn(request, config)
        run = PublicChatRun(turn)
        await run.prepare()
        response = stream_response(run, config) if stream else await _json_response(run, config)
    except DomainError as exc:
        response = error_response(exc)
    return with_cors(request, response, config)


@csrf_exempt
def public_source(request: HttpRequest, chunk_id: uuid.UUID) -> HttpResponse:
    """GET /api/public/rag/sources/<chunk_id>: a cited passage of an unrestricted document."""
    config = public_chat_settings()
    if (early := route_gate(request, config, ("GET",))) is not None:
        return early
    try:
        source = public_source_get(chunk_id=chunk_id)
    except DATABASE_UNAVAILABLE_ERRORS as exc:
        return with_cors(request, error_response(database_unavailable(exc)), config)
    if source is None:
        response = error_response(SourceNotFound("Source not found"))
    else:
        response = JsonResponse({"ok": True, "source": source.citation, "text": source.text})
        response["Cache-Control"] = "public, max-age=300"
    return with_cors(request, response, config)


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
