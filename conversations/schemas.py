from __future__ import annotations

from datetime import datetime
from typing import Literal

from ninja import Schema
from pydantic import Field

from retrieval.schemas import StrictSchema


class ConversationCreate(StrictSchema):
    user_id: str = Field("anonymous", min_length=1, max_length=256)
    title: str | None = Field(None, min_length=1, max_length=300)


class ConversationSummary(Schema):
    id: str
    user_id: str
    title: str | None
    metadata: dict


class ConversationMessage(Schema):
    id: str
    role: str
    content: str
    source_citations: list[dict]
    metadata: dict


class ConversationDetail(ConversationSummary):
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
