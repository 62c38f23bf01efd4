"""One trace per ingested file (parse, chunk, embed and store spans) and the ingestion metrics."""
from __future__ import annotations

import functools

from opentelemetry import trace

from kernel.telemetry import metrics
from kernel.telemetry.tracing import set_attributes, span


def traced_ingest(ingest):
    """``ingest.file``: a root span when called from a command or worker, a child under a request."""
    @functools.wraps(ingest)
    def wrapper(*, filename: str, source_key: str, options, **rest):
        with span("ingest.file", **{"aceh_rag.ingest.source_name": filename, "aceh_rag.ingest.source_key": source_key,
                                    "aceh_rag.ingest.collection": options.collection_id}):
            return ingest(filename=filename, source_key=source_key, options=options, **rest)
    return wrapper


def ingest_step(name: str, **attributes):
    return span(f"ingest.{name}", **{f"aceh_rag.ingest.{key}": value for key, value in attributes.items()})


def ingest_file_finished(outcome) -> None:
    """Called once per file with its outcome (ingested, replaced, updated, unchanged or failed)."""
    set_attributes(trace.get_current_span(), **{"aceh_rag.ingest.status": outcome.status,
                                                 "aceh_rag.ingest.chunks": outcome.chunk_count})
    metrics.record_ingestion(outcome.status, outcome.chunk_count or 0)
