"""Conversation routes (seed: conversations-memory-api)."""
from __future__ import annotations

import uuid

from django.http import HttpRequest, JsonResponse
from ninja import Router, Status

from kernel.principal import request_principal
from conversations import schemas
from conversations.schemas import conversation_summary
from conversations.models import Conversation
from conversations.selectors import conversation_get_owned, conversation_list, conversation_messages, message_get_owned
from conversations.services import ConversationNotFound, conversation_create, feedback_record
from kernel.schemas import ErrorOut

router = Router(tags=["conversations"])


@router.post("/conversations", response={201: schemas.ConversationSummary}, summary="Create an empty conversation")
def create(request: HttpRequest, payload: schemas.ConversationCreate):
    owner = request_principal(request).owner(payload.user_id)
    return Status(201, conversation_summary(conversation_create(owner=owner, title=payload.title)))


@router.get("/conversations", response=list[schemas.ConversationSummary], summary="The caller's conversations, newest first")
def list_conversations(request: HttpRequest, user_id: str = "anonymous"):
    owner = request_principal(request).owner(user_id)
    return [conversation_summary(c) for c in conversation_list(owner=owner)]


@router.get("/conversations/{conversation_id}", response={200: schemas.ConversationDetail, 404: ErrorOut},
            summary="One owned conversation with every message, oldest first")
def detail(request: HttpRequest, conversation_id: uuid.UUID, user_id: str = "anonymous"):
    owner = request_principal(request).owner(user_id)
    conversation = conversation_get_owned(owner=owner, conversation_id=conversation_id)
    if conversation is None:
        raise ConversationNotFound(conversation_id)
    messages = [
        {"id": str(m.id), "role": m.role, "content": m.content, "source_citations": m.source_citations, "metadata": m.metadata}
        for m in conversation_messages(conversation=conversation)
    ]
    # JsonResponse keeps stored citation objects (and their conditional fields) exactly as stored.
    return JsonResponse({**conversation_summary(conversation), "messages": messages})


def feedback_out(feedback) -> dict:
    return {"id": feedback.id, "message_id": str(feedback.message_id), "rating": feedback.rating,
            "comment": feedback.comment, "created_at": feedback.created_at, "updated_at": feedback.updated_at}


@router.post("/messages/{message_id}/feedback", response={200: schemas.FeedbackOut, 201: schemas.FeedbackOut, 404: ErrorOut},
             summary="Rate an answer (thumbs up/down, optional comment); re-posting replaces the rating")
def feedback(request: HttpRequest, message_id: uuid.UUID, payload: schemas.FeedbackIn):
    owner = request_principal(request).owner(payload.user_id)
    record, created = feedback_record(owner=owner, message=message_get_owned(owner=owner, message_id=message_id),
                                      message_id=message_id, rating=payload.rating, comment=payload.comment or "")
    return Status(201 if created else 200, feedback_out(record))
