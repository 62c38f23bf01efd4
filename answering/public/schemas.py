"""The public chat request body (camelCase, as the widget protocol names it)."""
from __future__ import annotations

import uuid

from pydantic import ConfigDict, Field, ValidationError

from acehrag.hygiene import PlainTextModel

__all__ = ["PublicChatIn", "ValidationError", "first_error"]


class PublicChatIn(PlainTextModel):
    # Unknown keys are ignored: the protocol treats additive keys as compatible.
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    message: str
    stream: bool = False
    conversation_id: uuid.UUID | None = Field(default=None, alias="conversationId")
    visitor_id: str | None = Field(default=None, alias="visitorId")
    session_id: str | None = Field(default=None, alias="sessionId")


def first_error(exc: ValidationError) -> str:
    """``field: reason`` of the first problem, for the error payload's message."""
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(part) for part in error.get("loc", ())) or "body"
    return f"{where}: {error.get('msg', 'invalid value')}"
