"""Observability every app records into: OpenTelemetry traces, Prometheus metrics, structured logs.

``tracing`` starts spans and names the one trace id an answer reports;
``metrics`` records counters and histograms (multi-process safe); ``logs``
formats log records as JSON lines carrying the current trace and span ids.
The HTTP side (``acehrag.telemetry``: the middleware and ``/metrics``) wraps
every request in all three.
"""
