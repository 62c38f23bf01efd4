"""The HTTP side of observability: ``middleware`` wraps every request in a span, metrics
and a log line; ``views`` serves ``/metrics``. The recorders live in ``kernel.telemetry``.
"""
