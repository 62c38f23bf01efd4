"""The quality dashboard's figures over a period, each one aggregate query on indexed columns."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.utils import timezone

from conversations.facade import answer_figures, cited_documents_top, refused_questions
from retrieval.facade.staff import IngestionFailure, document_titles_staff, ingestion_failures_staff

PERIODS = {"7": 7, "30": 30, "90": 90, "365": 365}
DEFAULT_PERIOD = "30"
TOP = 10


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
    ingestion_failures: list[IngestionFailure]
    ingestion_failed_count: int

    @property
    def refusal_rate(self) -> float | None:
        return self.refused / self.answers if self.answers else None

    @property
    def negative_feedback_rate(self) -> float | None:
        return self.feedback_down / self.feedback_total if self.feedback_total else None


def cited_documents(period: Period) -> list[tuple[str, str, int]]:
    """The documents answers cited most (id, title, times), most cited first; deleted documents left out."""
    top = cited_documents_top(start=period.start, end=period.end, limit=TOP)
    titles = document_titles_staff(document_ids=[document_id for document_id, _ in top])
    return sorted(((str(document_id), titles[document_id], times) for document_id, times in top if document_id in titles),
                  key=lambda row: (-row[2], row[1]))


def dashboard_build(*, period: Period) -> Dashboard:
    figures = answer_figures(start=period.start, end=period.end)
    failures, failed_count = ingestion_failures_staff(start=period.start, end=period.end, limit=TOP)
    return Dashboard(
        period=period, answers=figures.answers, refused=figures.refused,
        per_day=[(day, *figures.per_day.get(day, (0, 0))) for day in period.days()],
        refusal_reasons=figures.refusal_reasons, mean_grounding=figures.mean_grounding,
        latency_p50=figures.latency_p50, latency_p95=figures.latency_p95, feedback_total=figures.feedback_total,
        feedback_down=figures.feedback_down,
        refused_questions=refused_questions(start=period.start, end=period.end, limit=TOP),
        cited_documents=cited_documents(period), ingestion_failures=failures, ingestion_failed_count=failed_count,
    )


__all__ = ["Dashboard", "PERIODS", "Period", "dashboard_build"]
