"""POST /api/public/rag/feedback: a visitor rates an answer of their own conversation.

The visitor id must be one this server signed (a forged one is a stranger who
owns nothing); unknown, foreign and other visitors' answers all look alike
(``answer_not_found``). The request passes the same gate as the chat.
"""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from answering.public.config import public_chat_settings
from answering.public.gate import error_response, public_body, route_gate, with_cors
from answering.public.schemas import PublicFeedbackIn
from answering.public.services import visitor_identify
from conversations.facade import FeedbackTargetNotFound, feedback_record, message_get_by_turn
from kernel.errors import DomainError, NotFound


class AnswerNotFound(NotFound):
    code = "answer_not_found"

    def __init__(self) -> None:
        super().__init__("Answer not found")


@csrf_exempt
def public_feedback(request: HttpRequest) -> HttpResponse:
    config = public_chat_settings()
    if (early := route_gate(request, config, ("POST",))) is not None:
        return early
    try:
        body = public_body(request, config, PublicFeedbackIn, what="feedback")
        owner = visitor_identify(visitor_id=body.visitor_id, session_id=None).owner
        message = message_get_by_turn(owner=owner, conversation_id=body.conversation_id, exchange_index=body.turn)
        try:
            record, created = feedback_record(owner=owner, message=message, message_id=body.turn, rating=body.rating,
                                              comment=body.comment or "")
        except FeedbackTargetNotFound:
            raise AnswerNotFound() from None
        response = JsonResponse({"ok": True, "rating": record.rating, "comment": record.comment},
                                status=201 if created else 200)
        response["Cache-Control"] = "no-store"
    except DomainError as exc:
        response = error_response(exc)
    return with_cors(request, response, config)
