"""POST /api/public/rag/feedback: a visitor rates an answer of their own conversation.

The visitor id must be one this server signed (a forged one is a stranger who
owns nothing); unknown, foreign and other visitors' answers are all 404.
"""
from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from answering.public.config import public_chat_settings
from answering.public.schemas import PublicFeedbackIn, ValidationError, first_error
from answering.public.services import PublicChatError, origin_allowed, visitor_identify
from answering.public.views import MAX_BODY_BYTES, _browser_origin, _error_response, _own_origin, _with_cors, post_gate
from conversations.selectors import message_get_by_turn
from conversations.services import FeedbackTargetNotFound, feedback_record


def _parse(request: HttpRequest, config) -> PublicFeedbackIn:
    origin = _browser_origin(request)
    if origin is not None and not origin_allowed(origin, own_origin=_own_origin(request), config=config):
        raise PublicChatError("FORBIDDEN", "Origin not allowed", 403)
    if request.content_type != "application/json":
        raise PublicChatError("UNSUPPORTED_MEDIA_TYPE", "Send the feedback as application/json", 415)
    if len(request.body) > MAX_BODY_BYTES:
        raise PublicChatError("BAD_REQUEST", "The request body is too large", 413)
    try:
        return PublicFeedbackIn.model_validate(json.loads(request.body))
    except (ValueError, RecursionError) as exc:
        message = first_error(exc) if isinstance(exc, ValidationError) else "The body is not valid JSON"
        raise PublicChatError("BAD_REQUEST", message, 400) from None


@csrf_exempt
def public_feedback(request: HttpRequest) -> HttpResponse:
    config = public_chat_settings()
    if (early := post_gate(request, config)) is not None:
        return early
    try:
        body = _parse(request, config)
        owner = visitor_identify(visitor_id=body.visitor_id, session_id=None).owner
        message = message_get_by_turn(owner=owner, conversation_id=body.conversation_id, exchange_index=body.turn)
        try:
            record, created = feedback_record(owner=owner, message=message, message_id=body.turn, rating=body.rating,
                                              comment=body.comment or "")
        except FeedbackTargetNotFound:
            raise PublicChatError("NOT_FOUND", "Answer not found", 404) from None
        response = JsonResponse({"ok": True, "rating": record.rating, "comment": record.comment},
                                status=201 if created else 200)
        response["Cache-Control"] = "no-store"
    except PublicChatError as exc:
        response = _error_response(exc)
    return _with_cors(request, response, config)
