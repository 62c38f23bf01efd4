"""OpenTelemetry tracing: one provider per process, spans, and the answer's trace id.

Tracing is on by default (``ACEH_RAG_TRACING__ENABLED``): every process gets an
SDK tracer provider, so spans carry real W3C ids even when nothing is exported
and the local ``AnswerTrace`` row (keyed by the same trace id) is the admin's
readable copy. Spans are exported over OTLP/HTTP only when the standard
``OTEL_EXPORTER_OTLP_ENDPOINT`` or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` is
set (any collector, or Langfuse's ``/api/public/otel``); the exporter reads the
other ``OTEL_EXPORTER_OTLP_*`` variables (headers, timeout) itself. With tracing
off the API's no-op tracer is left in place: no span records, ``trace_id`` is
null, nothing is exported and no local trace is stored.

Question, prompt, passage and completion text go on spans only when
``ACEH_RAG_TRACING__CAPTURE_CONTENT=true``; otherwise spans carry sizes,
counts, modes and outcomes.
"""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from typing import Iterator, Mapping

from opentelemetry import propagate, trace
from opentelemetry.sdk.trace.sampling import Decision, Sampler, SamplingResult
from opentelemetry.trace import Span, SpanKind

TRACER_NAME = "aceh-rag"
DEFAULT_SERVICE_NAME = "aceh-rag"
_tracer = trace.get_tracer(TRACER_NAME)   # a proxy: follows the provider set later
_lock = threading.Lock()
_state = {"configured": False, "enabled": False, "capture": False, "local_only": False}


class LocalIdsOnly(Sampler):
    """Without an exporter nobody reads span objects: keep the W3C ids, build no spans.

    Every span is dropped (a non-recording span with real trace and span ids),
    so the answer's trace id, the log lines' ids and the local ``AnswerTrace``
    row cost no span bookkeeping.
    """

    def should_sample(self, parent_context, trace_id, name, kind=None, attributes=None, links=None, trace_state=None):
        parent = trace.get_current_span(parent_context).get_span_context()
        return SamplingResult(Decision.DROP, trace_state=parent.trace_state if parent.is_valid else None)

    def get_description(self) -> str:
        return "LocalIdsOnly"


def otlp_endpoint_configured(environ: Mapping[str, str] = os.environ) -> bool:
    return bool((environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or environ.get("OTEL_EXPORTER_OTLP_ENDPOINT") or "").strip())


def configure_tracing(config) -> None:
    """Install the SDK provider once per process (``config`` is ``TracingSettings``)."""
    with _lock:
        if _state["configured"]:
            return
        _state.update(configured=True, enabled=config.enabled, capture=config.enabled and config.capture_content)
        if not config.enabled:
            return
        from opentelemetry.sdk.resources import SERVICE_NAME, Resource
        from opentelemetry.sdk.trace import TracerProvider

        service = os.environ.get("OTEL_SERVICE_NAME") or DEFAULT_SERVICE_NAME
        exporting = otlp_endpoint_configured()
        _state["local_only"] = not exporting
        # Exporting: the standard OTEL_TRACES_SAMPLER applies (default parentbased_always_on).
        provider = TracerProvider(resource=Resource.create({SERVICE_NAME: service}),
                                  **({} if exporting else {"sampler": LocalIdsOnly()}))
        if exporting:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            from opentelemetry.sdk.trace.export import BatchSpanProcessor

            # The batch processor exports on its own thread: a slow collector never delays an answer.
            provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
        trace.set_tracer_provider(provider)


def _clean(attributes: Mapping[str, object]) -> dict:
    return {key: value for key, value in attributes.items() if value is not None}


@contextmanager
def span(name: str, *, kind: SpanKind = SpanKind.INTERNAL, **attributes) -> Iterator[Span]:
    """A child of the current span; exceptions are recorded and mark it as an error."""
    with _tracer.start_as_current_span(name, kind=kind, attributes=_clean(attributes)) as current:
        yield current


def set_attributes(target: Span, **attributes) -> None:
    if target.is_recording():
        target.set_attributes(_clean(attributes))


def set_content(target: Span, **texts: str | None) -> None:
    """Text attributes (questions, prompts, completions): only when content capture is on."""
    if _state["capture"] and target.is_recording():
        target.set_attributes(_clean(texts))


def trace_id_of(target: Span) -> str | None:
    """A span's trace id as 32 hex characters; None with tracing off or when the trace is not sampled."""
    context = target.get_span_context()
    if not (_state["enabled"] and context.is_valid and (_state["local_only"] or target.is_recording())):
        return None
    return trace.format_trace_id(context.trace_id)


def current_trace_id() -> str | None:
    return trace_id_of(trace.get_current_span())


def span_ids(target: Span) -> tuple[str | None, str | None]:
    trace_id = trace_id_of(target)
    if trace_id is None:
        return None, None
    return trace_id, trace.format_span_id(target.get_span_context().span_id)


def current_span_ids() -> tuple[str | None, str | None]:
    return span_ids(trace.get_current_span())


def extract_parent(headers: Mapping[str, str]):
    """The partner's W3C ``traceparent``/``tracestate`` as a parent context (or none)."""
    return propagate.extract(headers)


def inject_headers(headers: dict[str, str]) -> dict[str, str]:
    """Add ``traceparent`` for an outgoing call so the model server can join the trace."""
    if _state["enabled"]:
        propagate.inject(headers)
    return headers


def start_server_span(name: str, parent_context, **attributes) -> Span:
    return _tracer.start_span(name, context=parent_context, kind=SpanKind.SERVER, attributes=_clean(attributes))

