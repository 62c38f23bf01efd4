"""Structured logs: JSON lines with the current trace and span ids.

stdlib ``logging`` stays the API everywhere (Django, Celery and libraries log
through it); structlog's ``ProcessorFormatter`` renders each record. The
format is ``ACEH_RAG_LOG_FORMAT``: ``json`` (one object a line), ``console``
(human-readable), or ``auto`` (console on a terminal, as under ``make run``;
JSON otherwise). Request lines carry ``route``, ``status``, ``duration_ms`` and
``subject_hash`` (a keyed hash of the principal's subject, never the subject
itself); question text is never logged.
"""
from __future__ import annotations

import hashlib
import hmac
import sys

import structlog

from kernel.telemetry.tracing import current_span_ids

FORMATS = ("auto", "json", "console")


def add_trace_ids(logger, method_name, event_dict: dict) -> dict:
    if "trace_id" not in event_dict:
        trace_id, span_id = current_span_ids()
        if trace_id:
            event_dict["trace_id"], event_dict["span_id"] = trace_id, span_id
    return event_dict


def resolved_format(log_format: str, stream=None) -> str:
    if log_format != "auto":
        return log_format
    stream = stream or sys.stderr
    return "console" if getattr(stream, "isatty", lambda: False)() else "json"


def formatter(log_format: str = "auto") -> structlog.stdlib.ProcessorFormatter:
    """The ``()`` factory named by settings.LOGGING."""
    renderer = (structlog.dev.ConsoleRenderer(colors=False) if resolved_format(log_format) == "console"
                else structlog.processors.JSONRenderer(ensure_ascii=False))
    return structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=[
            structlog.stdlib.add_log_level,
            structlog.stdlib.add_logger_name,
            structlog.stdlib.ExtraAdder(),
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            add_trace_ids,
        ],
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            renderer,
        ],
    )


def subject_hash(subject: str | None, key: str) -> str | None:
    """A stable pseudonym for a principal's subject (HMAC-SHA256 under the secret key)."""
    if not subject:
        return None
    return hmac.new(key.encode(), subject.encode(), hashlib.sha256).hexdigest()[:16]
