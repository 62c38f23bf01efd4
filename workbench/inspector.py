"""The answer inspector's reading view of one conversation: pure rendering of stored answers.

Everything shown comes from what the answer routes stored (message metadata,
citations, the answer's trace); nothing is recomputed. The conversation admin
(``conversations/admin.py``) reads the messages and their feedback and hands
the answers to ``answers_read``, which this app installs as its answer reader:
conversations sits below answering and cannot read the traces itself.
"""
from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from answering.facade import TraceView, answer_traces_by_message
from kernel.admin_display import bold_html, grounding_badge

REASONS = {
    "no_answer": "No visible passage answers the question, so the service said it could not find the answer.",
    "coverage_incomplete": "Too few of the drafted claims were supported by the cited passages; the answer was withheld.",
    "partial_answer": "Published as a partial answer: some parts were dropped and the text says so.",
    "policy_blocked": "The policy guard blocked the question or the answer.",
    "guard_blocked": "The policy guard blocked the question or the answer.",
    "source_scope_empty": "The selected documents contain nothing the caller may read.",
    "context_budget_exhausted": "The passages needed did not fit the model's context; nothing was written or checked.",
    "agent_output_limit": "The model's answer was cut at its output limit and not published.",
    "query_budget_exhausted": "The search reached its budget of model calls before the answer was finished.",
    "model_timeout": "The answer model did not finish within the time budget.",
    "unparseable_completion": "The model's output could not be read as a verifiable answer (after one retry).",
}
CHUNK_MARKER = re.compile(r"\[chunk:([0-9a-f-]{36})\]")


def reason_text(reason: str | None) -> str:
    if not reason:
        return ""
    return REASONS.get(reason, f"Refused ({reason}).")


def chunk_link(chunk_id: str, label: str) -> SafeString:
    return format_html('<a href="{}">{}</a>', reverse("admin:retrieval_chunk_change", args=[chunk_id]), label)


def v1_answer_html(text: str, citations: list[dict]) -> SafeString:
    """The v1 answer with its ``[chunk:<id>]`` markers as numbered links to the chunks and ``**bold**`` shown bold."""
    numbers = {c.get("chunk_id"): n for n, c in enumerate(citations, start=1)}
    parts, last = [], 0
    for match in CHUNK_MARKER.finditer(text):
        parts.append(bold_html(text[last:match.start()]))
        chunk_id = match.group(1)
        parts.append(format_html("<sup>[{}]</sup>", chunk_link(chunk_id, str(numbers.get(chunk_id, "?")))))
        last = match.end()
    parts.append(bold_html(text[last:]))
    return mark_safe("".join(parts))


def v2_answer_html(text: str, claims: list[dict]) -> SafeString:
    """The v2 answer with each claim's span (code-point offsets) marked by its verdict and ``**bold**`` shown bold
    (a pair split by a claim's edge stays as written)."""
    parts, last = [], 0
    for claim in sorted((c for c in claims if isinstance(c.get("start"), int)), key=lambda c: c["start"]):
        start, end = claim["start"], claim.get("end", claim["start"])
        if start < last or end > len(text):
            continue  # overlapping or out of range: leave the text as it is
        parts.append(bold_html(text[last:start]))
        verdict = claim.get("verdict") or "unknown"
        reason = claim.get("unverified_reason") or ""
        keys = "".join(
            format_html("<sup>[{}]</sup>", chunk_link(c["citation"]["chunk_id"], c.get("citation_key") or "?"))
            for c in claim.get("citations") or [] if (c.get("citation") or {}).get("chunk_id"))
        parts.append(format_html('<mark class="claim verdict-{}" data-verdict="{}" title="{}">{}</mark>{}',
                                 verdict, verdict, f"{verdict} {reason}".strip(), bold_html(text[start:end]), mark_safe(keys)))
        last = end
    parts.append(bold_html(text[last:]))
    return mark_safe("".join(parts))


@dataclass
class AnswerView:
    message: Any                     # the stored answer (a conversations row, handed over by its admin)
    schema: str                      # "v1" or "annotate-v2"
    answer_html: SafeString
    reason: str
    grounding: SafeString
    kept_claims: list[dict] = field(default_factory=list)
    dropped_claims: list[dict] = field(default_factory=list)
    v2_claims: list[dict] = field(default_factory=list)
    trace: TraceView | None = None
    trace_rows: list[dict] = field(default_factory=list)
    model_calls: list[dict] = field(default_factory=list)
    feedback: list = field(default_factory=list)
    raw_metadata: str = ""


def _trace_rows(trace: TraceView | None) -> list[dict]:
    if trace is None:
        return []
    longest = max((float(s.get("ms") or 0) for s in trace.steps), default=0) or 1
    rows = []
    for step in trace.steps:
        ms = float(step.get("ms") or 0)
        details = {k: v for k, v in step.items() if k not in ("step", "ms", "ok")}
        rows.append({"step": step.get("step", "?"), "ms": ms, "ok": step.get("ok", True),
                     "width": max(1, round(100 * ms / longest)),
                     "details": ", ".join(f"{k}: {v}" for k, v in details.items())})
    return rows


def answer_view(message, trace: TraceView | None, feedback: list) -> AnswerView:
    metadata = message.metadata or {}
    synthesis = metadata.get("synthesis") or {}
    faithfulness = synthesis.get("faithfulness") or {}
    schema = synthesis.get("schema") or "v1"
    claims = synthesis.get("claims") or []
    view = AnswerView(
        message=message, schema=schema,
        answer_html=v2_answer_html(message.content, claims) if schema != "v1" else v1_answer_html(message.content, message.source_citations),
        reason=reason_text(message.fallback_reason or (faithfulness.get("fallback_reason") if faithfulness.get("fallback_used") else None)),
        grounding=grounding_badge(message.grounding_rate), trace=trace, trace_rows=_trace_rows(trace),
        model_calls=metadata.get("model_call_log") or [], feedback=feedback,
        raw_metadata=json.dumps(metadata, indent=2, ensure_ascii=False),
    )
    if schema == "v1":
        view.kept_claims = claims
        view.dropped_claims = faithfulness.get("dropped_claims") or []
    else:
        view.v2_claims = claims
    return view


def answers_read(answers: list, feedback: dict[uuid.UUID, list]) -> dict[uuid.UUID, AnswerView]:
    """The reading view of each stored answer, with its trace (one query) and its feedback (newest first)."""
    traces = answer_traces_by_message(message_ids=[answer.id for answer in answers])
    return {answer.id: answer_view(answer, traces.get(answer.id), feedback.get(answer.id, [])) for answer in answers}
