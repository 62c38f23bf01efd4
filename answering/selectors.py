"""Reads of what the answer routes stored, as values."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Sequence

from answering.models import AnswerTrace


@dataclass(frozen=True)
class TraceView:
    """The steps and timings of one answer (``AnswerTrace``)."""

    id: str
    route: str
    total_ms: float
    steps: tuple[dict, ...]


def answer_traces_by_message(*, message_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, TraceView]:
    """The trace of each answer among ``message_ids`` that has one (one query; staff pages, no principal)."""
    rows = AnswerTrace.objects.filter(message_id__in=list(message_ids)).values_list("message_id", "id", "route",
                                                                                   "total_ms", "steps")
    return {message_id: TraceView(id=pk, route=route, total_ms=total_ms, steps=tuple(steps or ()))
            for message_id, pk, route, total_ms, steps in rows}
