from __future__ import annotations

from datetime import datetime

from ninja import Schema
from pydantic import Field


class MemorySummary(Schema):
    id: int = Field(description="Memory ID (integer), for DELETE /memories/{memory_id}.")
    type: str = Field(description="preference, fact or reflection.")
    text: str = Field(description="What is remembered, in the user's own words.")
    importance: float = Field(description="Recall weight, 0-1.")
    status: str = Field(description="active (deleted memories are not listed).")
    confidential: bool = Field(description="true when the memory came from a confidential context.")
    last_accessed_at: datetime | None = Field(description="When an answer last recalled it; null if never.")


class ForgetResult(Schema):
    removed_count: int = Field(description="How many memories were erased.")
