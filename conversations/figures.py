"""Staff reads over a period: the quality dashboard's answer figures and the conversation exports.

Every figure is one aggregate query on the indexed answer columns
(``message_answer_figures``); results are values, never rows. These are
operator reads behind the admin site, so they take no principal.
"""
from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from typing import Iterator

from django.db import connection
from django.db.models import Count, Prefetch, Q, Sum
from django.db.models.functions import TruncDate

from conversations.models import Feedback, Message

# Lower case, punctuation to spaces, runs of spaces collapsed: "Apa itu zakat?" and "apa itu  ZAKAT" count as one.
_REFUSED_SQL = """
SELECT btrim(regexp_replace(regexp_replace(lower(q.content), '[^[:alnum:]]+', ' ', 'g'), '\\s+', ' ', 'g')) AS question,
       count(*) AS times, array_agg(DISTINCT a.fallback_reason) AS reasons
FROM conversations_message a
JOIN conversations_message q
  ON q.conversation_id = a.conversation_id AND q.exchange_index = a.exchange_index AND q.role = 'user'
WHERE a.role = 'assistant' AND a.created_at >= %s AND a.created_at < %s AND a.fallback_reason IS NOT NULL
GROUP BY 1 ORDER BY times DESC, question LIMIT %s
"""

_CITED_SQL = """
SELECT unnest(cited_document_ids) AS document_id, count(*) AS times
FROM conversations_message
WHERE role = 'assistant' AND created_at >= %s AND created_at < %s
GROUP BY 1 ORDER BY times DESC LIMIT %s
"""

_LATENCY_SQL = """
SELECT percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY latency_ms)
FROM conversations_message
WHERE role = 'assistant' AND created_at >= %s AND created_at < %s AND latency_ms IS NOT NULL
"""


@dataclass(frozen=True)
class AnswerFigures:
    answers: int
    refused: int
    per_day: dict[date, tuple[int, int]]            # day: answers, refused (days without answers left out)
    refusal_reasons: list[tuple[str, int]]          # most frequent first
    mean_grounding: float | None
    latency_p50: float | None
    latency_p95: float | None
    feedback_total: int
    feedback_down: int


def answer_figures(*, start: datetime, end: datetime) -> AnswerFigures:
    """Answers, refusals, grounding, latency and feedback of answers created in [start, end)."""
    answers = Message.objects.filter(role=Message.Role.ASSISTANT, created_at__gte=start, created_at__lt=end)
    # One pass over the answers (an index-only scan of message_answer_figures): per day and reason.
    groups = (answers.order_by().annotate(day=TruncDate("created_at")).values("day", "fallback_reason")
              .annotate(n=Count("*"), grounded=Count("grounding_rate"), grounding_sum=Sum("grounding_rate")))
    per_day: dict = defaultdict(lambda: [0, 0])
    reasons: dict = defaultdict(int)
    total = refused = grounded = 0
    grounding_sum = 0.0
    for row in groups:
        per_day[row["day"]][0] += row["n"]
        total += row["n"]
        grounded += row["grounded"]
        grounding_sum += row["grounding_sum"] or 0.0
        if row["fallback_reason"]:
            per_day[row["day"]][1] += row["n"]
            reasons[row["fallback_reason"]] += row["n"]
            refused += row["n"]
    feedback = Feedback.objects.filter(updated_at__gte=start, updated_at__lt=end).aggregate(
        total=Count("id"), down=Count("id", filter=Q(rating=Feedback.Rating.DOWN)))
    with connection.cursor() as cursor:
        cursor.execute(_LATENCY_SQL, [start, end])
        latency = cursor.fetchone()[0] or [None, None]
    return AnswerFigures(
        answers=total, refused=refused, per_day={day: tuple(counts) for day, counts in per_day.items()},
        refusal_reasons=sorted(reasons.items(), key=lambda item: (-item[1], item[0])),
        mean_grounding=grounding_sum / grounded if grounded else None, latency_p50=latency[0], latency_p95=latency[1],
        feedback_total=feedback["total"], feedback_down=feedback["down"],
    )


def refused_questions(*, start: datetime, end: datetime, limit: int) -> list[tuple[str, int, list[str]]]:
    """Refused questions grouped by their normalised text, most frequent first: (question, times, reasons)."""
    with connection.cursor() as cursor:
        cursor.execute(_REFUSED_SQL, [start, end, limit])
        return [(q, n, [r for r in reasons if r]) for q, n, reasons in cursor.fetchall()]


def cited_documents_top(*, start: datetime, end: datetime, limit: int) -> list[tuple[uuid.UUID, int]]:
    """The documents answers cited most often: (document id, times), most cited first."""
    with connection.cursor() as cursor:
        cursor.execute(_CITED_SQL, [start, end, limit])
        return [(document_id, times) for document_id, times in cursor.fetchall()]


@dataclass(frozen=True)
class FeedbackExport:
    subject: str
    rating: str
    comment: str
    updated_at: datetime


@dataclass(frozen=True)
class MessageExport:
    """One message of an exported conversation, with its conversation's fields and its feedback (oldest first)."""

    conversation_id: uuid.UUID
    owner: str
    title: str
    route_family: str | None
    conversation_created_at: datetime
    message_id: uuid.UUID
    position: int
    exchange_index: int
    role: str
    content: str
    route: str | None
    fallback_reason: str | None
    grounding_rate: float | None
    latency_ms: float | None
    created_at: datetime
    source_citations: list
    feedback: tuple[FeedbackExport, ...]


def messages_export(*, start: datetime, end: datetime, chunk_size: int = 200) -> Iterator[MessageExport]:
    """Every message of the conversations created in [start, end), conversation by conversation, streamed."""
    messages = (Message.objects.filter(conversation__created_at__gte=start, conversation__created_at__lt=end)
                .select_related("conversation").prefetch_related(Prefetch("feedback", queryset=Feedback.objects.order_by("id")))
                .order_by("conversation__created_at", "conversation_id", "position").iterator(chunk_size=chunk_size))
    for message in messages:
        conversation = message.conversation
        yield MessageExport(
            conversation_id=conversation.id, owner=conversation.owner, title=conversation.title,
            route_family=conversation.route_family, conversation_created_at=conversation.created_at,
            message_id=message.id, position=message.position, exchange_index=message.exchange_index,
            role=message.role, content=message.content, route=message.route, fallback_reason=message.fallback_reason,
            grounding_rate=message.grounding_rate, latency_ms=message.latency_ms, created_at=message.created_at,
            source_citations=message.source_citations,
            feedback=tuple(FeedbackExport(f.subject, f.rating, f.comment, f.updated_at) for f in message.feedback.all()),
        )
