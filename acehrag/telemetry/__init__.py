"""Observability: OpenTelemetry traces, Prometheus metrics and structured logs.

``tracing`` starts spans and names the one trace id an answer reports;
``metrics`` records counters and histograms (multi-process safe) and serves
``/metrics``; ``logs`` formats log records as JSON lines carrying the current
trace and span ids; ``middleware`` wraps every HTTP request in all three.
"""
