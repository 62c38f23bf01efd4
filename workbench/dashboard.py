"""The quality dashboard's figures over a period, each one aggregate query on indexed columns."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db import connection
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from conversations.models import Feedback, Message
from retrieval.models import Ingestion

PERIODS = {"7": 7, "30": 30, "90": 90, "365": 365}
DEFAULT_PERIOD = "30"
TOP = 10

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
SELECT d.id, d.title, cited.times FROM (
    SELECT unnest(cited_document_ids) AS document_id, count(*) AS times
    FROM conversations_message
    WHERE role = 'assistant' AND created_at >= %s AND created_at < %s
    GROUP BY 1 ORDER BY times DESC LIMIT %s
) cited JOIN retrieval_document d ON d.id = cited.document_id ORDER BY cited.times DESC, d.title
"""

_LATENCY_SQL = """
SELECT percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY latency_ms)
FROM conversations_message
WHERE role = 'assistant' AND created_at >= %s AND created_at < %s AND latency_ms IS NOT NULL
"""


def refused_questions_sql() -> str:
    """Refused questions grouped by their normalised text, most frequent first; params: start, end, limit."""
    return _REFUSED_SQL


@dataclass(frozen=True)
class Period:
    key: str
    start: datetime
    end: datetime

    @classmethod
    def last(cls, key: str | None, now: datetime | None = None) -> "Period":
        key = key if key in PERIODS else DEFAULT_PERIOD
        end = now or timezone.now()
        return cls(key, end - timedelta(days=PERIODS[key]), end)

    def days(self) -> list[date]:
        first = timezone.localtime(self.start).date()
        last = timezone.localtime(self.end).date()
        return [first + timedelta(days=n) for n in range((last - first).days + 1)]


@dataclass(frozen=True)
class Dashboard:
    period: Period
    answers: int
    refused: int
    per_day: list[tuple[date, int, int]]            # day, answers, refused
    refusal_reasons: list[tuple[str, int]]
    mean_grounding: float | None
    latency_p50: float | None
    latency_p95: float | None
    feedback_total: int
    feedback_down: int
    refused_questions: list[tuple[str, int, list[str]]]
    cited_documents: list[tuple[str, str, int]]     # id, title, times
    ingestion_failures: list[Ingestion]
    ingestion_failed_count: int

    @property
    def refusal_rate(self) -> float | None:
        return self.refused / self.answers if self.answers else None

    @property
    def negative_feedback_rate(self) -> float | None:
        return self.feedback_down / self.feedback_total if self.feedback_total else None


def dashboard_build(*, period: Period) -> Dashboard:
    answers = Message.objects.filter(role=Message.Role.ASSISTANT, created_at__gte=period.start, created_at__lt=period.end)
    # One pass over the answers (an index-only scan of message_answer_figures): per day and reason.
    groups = (answers.order_by().annotate(day=TruncDate("created_at")).values("day", "fallback_reason")
              .annotate(n=Count("*"), grounded=Count("grounding_rate"), grounding_sum=Sum("grounding_rate")))
    per_day_totals: dict = defaultdict(lambda: [0, 0])
    reasons_count: dict = defaultdict(int)
    total = refused = grounded = 0
    grounding_sum = 0.0
    for row in groups:
        per_day_totals[row["day"]][0] += row["n"]
        total += row["n"]
        grounded += row["grounded"]
        grounding_sum += row["grounding_sum"] or 0.0
        if row["fallback_reason"]:
            per_day_totals[row["day"]][1] += row["n"]
            reasons_count[row["fallback_reason"]] += row["n"]
            refused += row["n"]
    per_day = [(day, *per_day_totals.get(day, (0, 0))) for day in period.days()]
    reasons = sorted(reasons_count.items(), key=lambda item: (-item[1], item[0]))
    feedback = Feedback.objects.filter(updated_at__gte=period.start, updated_at__lt=period.end).aggregate(
        total=Count("id"), down=Count("id", filter=Q(rating=Feedback.Rating.DOWN)))
    failures = Ingestion.objects.filter(status=Ingestion.Status.FAILED, created_at__gte=period.start, created_at__lt=period.end)
    with connection.cursor() as cursor:
        cursor.execute(_LATENCY_SQL, [period.start, period.end])
        latency = cursor.fetchone()[0] or [None, None]
        cursor.execute(refused_questions_sql(), [period.start, period.end, TOP])
        refused_questions = [(q, n, [r for r in reasons_ if r]) for q, n, reasons_ in cursor.fetchall()]
        cursor.execute(_CITED_SQL, [period.start, period.end, TOP])
        cited = [(str(i), title, n) for i, title, n in cursor.fetchall()]
    return Dashboard(
        period=period, answers=total, refused=refused, per_day=per_day, refusal_reasons=reasons,
        mean_grounding=grounding_sum / grounded if grounded else None, latency_p50=latency[0], latency_p95=latency[1],
        feedback_total=feedback["total"], feedback_down=feedback["down"], refused_questions=refused_questions,
        cited_documents=cited, ingestion_failures=list(failures.only("id", "source_name", "error", "created_at")[:TOP]),
        ingestion_failed_count=failures.count(),
    )


__all__ = ["refused_questions_sql", "Dashboard", "PERIODS", "Period", "dashboard_build"]
