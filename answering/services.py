"""Answering writes outside the answer pipeline: the prompt playground's trial runs (issue #8)."""
from __future__ import annotations

import time
from dataclasses import dataclass

from asgiref.sync import async_to_sync

from kernel.config import PlaygroundSettings
from answering.models import PlaygroundRun
from answering.pipeline import AnswerError, AnswerRequest, AnswerResult, Prepared
from answering.public.services import rate_window_count
from answering.v2.pipeline import AnswerPipelineV2, AnswerResultV2


class PlaygroundRateLimited(Exception):
    def __init__(self, retry_after: int):
        super().__init__(f"Too many playground runs; try again in {retry_after} seconds")
        self.retry_after = retry_after


class PlaygroundPipeline(AnswerPipelineV2):
    """/query/v2's pipeline with a candidate editorial prompt that publishes nothing."""

    def _publish(self, prepared: Prepared, result: AnswerResult, *, total_ms: float) -> None:
        """A trial publishes no conversation, message, trace or memory; the caller writes the receipt."""


@dataclass(frozen=True)
class PlaygroundTrial:
    run: PlaygroundRun
    result: AnswerResultV2


def playground_rate_check(*, admin_subject: str, config: PlaygroundSettings) -> None:
    """Count one run for this administrator; raise ``PlaygroundRateLimited`` beyond the limit."""
    wait = async_to_sync(rate_window_count)(
        f"playground:rate:admin:{admin_subject}", config.rate_limit, config.rate_window_seconds)
    if wait is not None:
        raise PlaygroundRateLimited(wait)


def playground_run(*, request: AnswerRequest, editorial_prompt: str, config: PlaygroundSettings) -> PlaygroundTrial:
    """Answer ``request`` as /query/v2 would with ``editorial_prompt``, storing only a receipt.

    The caller has checked that ``request.principal`` is a verified admin. A
    conversation named in the request is read for history (it must be the
    caller's) and never written. A pipeline error is recorded, then re-raised;
    a rate-limited run records nothing.
    """
    admin_subject = request.principal.owner()
    playground_rate_check(admin_subject=admin_subject, config=config)
    started = time.perf_counter()
    pipeline = PlaygroundPipeline(editorial=editorial_prompt)
    try:
        result = pipeline.run(pipeline.prepare(request))
    except AnswerError as exc:
        playground_run_record(admin_subject=admin_subject, result=None, error_status=exc.status,
                              latency_ms=_elapsed_ms(started))
        raise
    run = playground_run_record(admin_subject=admin_subject, result=result, latency_ms=_elapsed_ms(started))
    return PlaygroundTrial(run=run, result=result)


def playground_run_record(*, admin_subject: str, result: AnswerResultV2 | None, latency_ms: float,
                          error_status: int | None = None) -> PlaygroundRun:
    """The receipt: identifiers, outcome codes, counts and timing; never any text of the run."""
    if result is None:
        return PlaygroundRun.objects.create(admin_subject=admin_subject, status=PlaygroundRun.Status.ERROR,
                                            error_status=error_status, latency_ms=latency_ms)
    return PlaygroundRun.objects.create(
        admin_subject=admin_subject,
        status=PlaygroundRun.Status.REFUSED if result.fallback_used else PlaygroundRun.Status.OK,
        fallback_reason=result.fallback_reason,
        claims_total=result.claims_total,
        claims_supported=result.claims_supported,
        citations_count=len(result.citations),
        tool_calls_count=len(result.tool_calls),
        latency_ms=latency_ms,
    )


def _elapsed_ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
