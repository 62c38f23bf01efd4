"""The prompt playground's trial runs: answer as /query/v2 would, store only a receipt (issue #8)."""
from __future__ import annotations

import time
from dataclasses import dataclass

from kernel.config import PlaygroundSettings
from answering.answer.contracts import AnnotatedAnswer, AnswerRequest
from answering.answer.pipeline import playground_pipeline
from answering.models import PlaygroundRun
from answering.rate_limits import playground_rate_check
from kernel.error_table import error_status
from kernel.errors import DomainError


@dataclass(frozen=True)
class PlaygroundTrial:
    run: PlaygroundRun
    result: AnnotatedAnswer


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
    pipeline = playground_pipeline(editorial=editorial_prompt)
    try:
        result = pipeline.run(pipeline.prepare(request))
    except DomainError as exc:
        playground_run_record(admin_subject=admin_subject, result=None, error_status=error_status(exc),
                              latency_ms=_elapsed_ms(started))
        raise
    run = playground_run_record(admin_subject=admin_subject, result=result, latency_ms=_elapsed_ms(started))
    return PlaygroundTrial(run=run, result=result)


def playground_run_record(*, admin_subject: str, result: AnnotatedAnswer | None, latency_ms: float,
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
