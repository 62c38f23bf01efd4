"""The public chat request body (camelCase, as the widget protocol names it)."""
from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

__all__ = ["PublicChatIn", "PublicFeedbackIn", "ValidationError", "first_error"]


class PublicChatIn(BaseModel):
    # Unknown keys are ignored: the protocol treats additive keys as compatible.
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    message: str
    stream: bool = False
    conversation_id: uuid.UUID | None = Field(default=None, alias="conversationId")
    visitor_id: str | None = Field(default=None, alias="visitorId")
    session_id: str | None = Field(default=None, alias="sessionId")


class PublicFeedbackIn(BaseModel):
    """A visitor's rating of one answer: the conversation and the answer's turn (zero-based exchange)."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    visitor_id: str = Field(alias="visitorId", min_length=1)
    conversation_id: uuid.UUID = Field(alias="conversationId")
    turn: int = Field(ge=0, le=10_000)
    rating: Literal["up", "down"]
    comment: str | None = Field(default=None, max_length=2000)


def first_error(exc: ValidationError) -> str:
    """``field: reason`` of the first problem, for the error payload's message."""
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(part) for part in error.get("loc", ())) or "body"
    return f"{where}: {error.get('msg', 'invalid value')}"
