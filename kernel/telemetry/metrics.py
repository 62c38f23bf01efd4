"""Prometheus metrics, safe across several web server (uvicorn) and Celery worker processes.

Collection is off until ``ACEH_RAG_METRICS__TOKEN`` is set (then ``/metrics``
serves them). prometheus-client's multi-process mode keeps each process's
values in memory-mapped files under ``PROMETHEUS_MULTIPROC_DIR`` (default
``<data dir>/metrics``); ``/metrics`` in any web process sums every process's
files, so the scrape sees the whole machine. The variable must be set before
prometheus-client is first imported, which is why the import is deferred to
``configure_metrics``. Processes that share the directory must share it on
disk (one machine, or one volume in compose).
"""
from __future__ import annotations

import os
import socket
import threading
from pathlib import Path
from types import SimpleNamespace

_lock = threading.Lock()
_metrics: SimpleNamespace | None = None
_configured = False

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 90.0)
FAST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
GROUNDING_BUCKETS = (0.0, 0.25, 0.5, 0.75, 0.9, 1.0)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128)


def _process_identifier() -> str:
    return f"{socket.gethostname().replace('_', '-')}-{os.getpid()}"


def multiproc_dir(data_dir: Path) -> Path:
    return Path(os.environ.get("PROMETHEUS_MULTIPROC_DIR") or (Path(data_dir) / "metrics"))


def configure_metrics(settings) -> None:
    """Create the metrics once per process when a token is configured (``settings`` is ``AppSettings``)."""
    global _metrics, _configured
    with _lock:
        if _configured:
            return
        _configured = True
        if not settings.metrics.token:
            return
        directory = multiproc_dir(settings.data_dir)
        directory.mkdir(parents=True, exist_ok=True)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(directory)
        from prometheus_client import Counter, Gauge, Histogram, values

        # Files are named per process; containers sharing a volume all run as pid 1, so the host name joins the pid.
        values.ValueClass = values.MultiProcessValue(process_identifier=_process_identifier)

        _metrics = SimpleNamespace(
            requests=Histogram("aceh_rag_http_request_duration_seconds", "HTTP request latency (streams: until the last frame)",
                               ["route", "method", "status"], buckets=LATENCY_BUCKETS),
            answers=Counter("aceh_rag_answers_total", "Answers by route and fallback_reason (none = published)",
                            ["route", "fallback_reason"]),
            grounding=Histogram("aceh_rag_answer_grounding_rate", "Claim grounding rate of answers that checked claims",
                                ["route"], buckets=GROUNDING_BUCKETS),
            search=Histogram("aceh_rag_search_duration_seconds", "Search latency per mode and leg (leg=total: whole search)",
                             ["mode", "leg"], buckets=FAST_BUCKETS),
            embed=Histogram("aceh_rag_embedding_duration_seconds", "Embedder call latency", ["kind"], buckets=FAST_BUCKETS + (5.0, 10.0, 30.0)),
            embed_batch=Histogram("aceh_rag_embedding_batch_size", "Texts per embedder call", ["kind"], buckets=BATCH_BUCKETS),
            model_calls=Counter("aceh_rag_model_calls_total", "Model server calls by role and status", ["role", "status"]),
            model_latency=Histogram("aceh_rag_model_call_duration_seconds", "Model server call latency", ["role"],
                                    buckets=LATENCY_BUCKETS),
            ingest_files=Counter("aceh_rag_ingestion_files_total", "Ingested files by outcome (failed = failures)", ["status"]),
            ingest_chunks=Counter("aceh_rag_ingestion_chunks_total", "Chunks stored by ingestion"),
            sse_open=Gauge("aceh_rag_sse_streams_open", "SSE streams being sent now", ["route"], multiprocess_mode="livesum"),
            sse_disconnects=Counter("aceh_rag_sse_disconnects_total", "SSE streams the client left before the end", ["route"]),
            rate_limited=Counter("aceh_rag_rate_limit_rejections_total", "Requests refused with 429", ["route"]),
        )


def enabled() -> bool:
    return _metrics is not None


def record_request(route: str, method: str, status: int, seconds: float) -> None:
    if _metrics:
        _metrics.requests.labels(route, method, str(status)).observe(seconds)
        if status == 429:
            _metrics.rate_limited.labels(route).inc()


def record_answer(route: str, fallback_reason: str | None, grounding_rate: float | None) -> None:
    if _metrics:
        _metrics.answers.labels(route, fallback_reason or "none").inc()
        if grounding_rate is not None:
            _metrics.grounding.labels(route).observe(grounding_rate)


def record_search(mode: str, timings_ms: dict[str, float], total_seconds: float) -> None:
    if _metrics:
        for leg, ms in timings_ms.items():
            _metrics.search.labels(mode, leg).observe(ms / 1000)
        _metrics.search.labels(mode, "total").observe(total_seconds)


def record_embedding(kind: str, batch: int, seconds: float) -> None:
    if _metrics:
        _metrics.embed.labels(kind).observe(seconds)
        _metrics.embed_batch.labels(kind).observe(batch)


def record_model_call(role: str, status: str, seconds: float) -> None:
    if _metrics:
        _metrics.model_calls.labels(role, status).inc()
        _metrics.model_latency.labels(role).observe(seconds)


def record_ingestion(status: str, chunks: int) -> None:
    if _metrics:
        _metrics.ingest_files.labels(status).inc()
        if status in ("ingested", "replaced") and chunks:
            _metrics.ingest_chunks.inc(chunks)


def stream_opened(route: str) -> None:
    if _metrics:
        _metrics.sse_open.labels(route).inc()


def stream_closed(route: str, *, disconnected: bool) -> None:
    if _metrics:
        _metrics.sse_open.labels(route).dec()
        if disconnected:
            _metrics.sse_disconnects.labels(route).inc()


def exposition() -> tuple[bytes, str]:
    """Every process's metrics in the Prometheus text format."""
    from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    return generate_latest(registry), CONTENT_TYPE_LATEST

