from __future__ import annotations

from datetime import datetime

from ninja import Schema


class MemorySummary(Schema):
    id: int
    type: str
    text: str
    importance: float
    status: str
    confidential: bool
    last_accessed_at: datetime | None


class ForgetResult(Schema):
    removed_count: int
