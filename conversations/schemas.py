from __future__ import annotations

from datetime import datetime
from typing import Literal

from ninja import Schema
from pydantic import Field

from kernel.schemas import StrictSchema


class ConversationCreate(StrictSchema):
    user_id: str = Field("anonymous", min_length=1, max_length=256, description=(
        "Auth-off local fallback owner only (default anonymous); integrated clients omit it and send X-User-Subject "
        "or a partner JWT."))
    title: str | None = Field(None, min_length=1, max_length=300, description="Optional display title.")


class ConversationSummary(Schema):
    id: str = Field(description="Conversation ID (UUID) to pass as conversation_id on /query or /query/v2.")
    user_id: str = Field(description="Resolved owner subject (the trusted subject when one is present).")
    title: str | None = Field(description="Display title; query-created conversations use the first 80 characters "
                                          "of the question.")
    metadata: dict = Field(description='Creation metadata, e.g. {"mode": "explicit-create"}.')


class ConversationMessage(Schema):
    id: str = Field(description="Message ID (UUID); /query's message_id is the assistant message.")
    role: str = Field(description="user or assistant.")
    content: str = Field(description="The user's text or the guarded assistant answer.")
    source_citations: list[dict] = Field(description="[] for user messages; the answer's citation objects otherwise.")
    metadata: dict = Field(description="{} for user messages; retrieval, synthesis and guard metadata otherwise.")


class ConversationDetail(ConversationSummary):
    messages: list[ConversationMessage] = Field(description="Every stored message, oldest first.")
    messages: list[ConversationMessage]


class FeedbackIn(StrictSchema):
    rating: Literal["up", "down"]
    comment: str | None = Field(None, max_length=2000)
    user_id: str = Field("anonymous", min_length=1, max_length=256)


class FeedbackOut(Schema):
    id: int
    message_id: str
    rating: str
    comment: str
    created_at: datetime
    updated_at: datetime


def conversation_summary(conversation) -> dict:
    """A conversation as ``ConversationSummary`` (the conversations routes and the workspace chats)."""
    return {"id": str(conversation.id), "user_id": conversation.owner, "title": conversation.title,
            "metadata": conversation.metadata}
