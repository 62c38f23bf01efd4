"""The public chat request body (camelCase, as the widget protocol names it)."""
from __future__ import annotations

import uuid
from typing import Literal

from pydantic import ConfigDict, Field, ValidationError

from kernel.hygiene import PlainTextModel

__all__ = ["PublicChatIn", "PublicFeedbackIn", "ValidationError", "first_error"]


class PublicChatIn(PlainTextModel):
    # Unknown keys are ignored: the protocol treats additive keys as compatible.
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    message: str = Field(description="The visitor's question (blank or over the configured length: 400 BAD_REQUEST).")
    stream: bool = Field(False, description="true: Server-Sent Events (start, phase, delta, done | error | cancelled); "
                                            "false or omitted: the done payload as JSON.")
    conversation_id: uuid.UUID | None = Field(default=None, alias="conversationId", description=(
        "conversationId of an earlier done payload, to continue; unknown: 404 NOT_FOUND."))
    visitor_id: str | None = Field(default=None, alias="visitorId", description=(
        "The widget's stable visitor id (echoed back; one is issued when omitted)."))
    session_id: str | None = Field(default=None, alias="sessionId", description=(
        "The widget's session id (echoed back; one is issued when omitted)."))


class PublicFeedbackIn(PlainTextModel):
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
