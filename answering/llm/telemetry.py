"""A span and metrics for each model call (OpenTelemetry GenAI attribute names, which Langfuse reads)."""
from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Iterator

from opentelemetry.trace import Span, SpanKind

from kernel.telemetry import metrics
from kernel.telemetry.tracing import set_attributes, set_content, span


@contextmanager
def model_call_span(role: str, model: str, messages: list[dict]) -> Iterator[Span]:
    with span(f"model.{role}", kind=SpanKind.CLIENT, **{
        "gen_ai.operation.name": "chat", "gen_ai.system": "openai", "gen_ai.request.model": model,
        "aceh_rag.model.role": role, "langfuse.observation.type": "generation",
    }) as current:
        set_content(current, **{"gen_ai.prompt": json.dumps(messages, ensure_ascii=False)})
        yield current


def model_call_finished(current: Span, *, role: str, ok: bool, seconds: float, completion=None,
                        error: str | None = None) -> None:
    status = "ok" if ok else ("timeout" if error == "timeout" else "error")
    set_attributes(current, **{"aceh_rag.model.status": status, "aceh_rag.model.latency_ms": round(seconds * 1000, 1)})
    if completion is not None:
        usage = completion.usage or {}
        set_attributes(current, **{
            "gen_ai.usage.input_tokens": usage.get("prompt_tokens"),
            "gen_ai.usage.output_tokens": usage.get("completion_tokens"),
            "gen_ai.response.finish_reasons": [completion.finish_reason] if completion.finish_reason else None,
            "aceh_rag.model.tool_calls": len(completion.tool_calls),
        })
        set_content(current, **{"gen_ai.completion": completion.content})
    metrics.record_model_call(role, status, seconds)
