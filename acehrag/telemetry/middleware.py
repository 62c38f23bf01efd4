"""One span, one latency observation and one log line per HTTP request.

The server span continues a partner's W3C ``traceparent``. A streaming
response (SSE) keeps its span current while its frames are produced (the
answer runs during the stream, after this middleware has returned) and ends
it, observes the latency and counts a disconnect when the last frame is sent
or the client leaves.
"""
from __future__ import annotations

import logging
import time

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from opentelemetry import trace
from opentelemetry.trace import Status, StatusCode

from kernel.principal import request_principal
from kernel.telemetry import metrics
from kernel.telemetry.logs import subject_hash
from kernel.telemetry.tracing import extract_parent, span_ids, start_server_span

access_log = logging.getLogger("acehrag.access")


def route_of(request: HttpRequest) -> str:
    """The URL pattern that served the request (bounded label values), not the raw path."""
    match = getattr(request, "resolver_match", None)
    if match is None or match.route is None:
        return "unmatched"
    return "/" + match.route.lstrip("^").rstrip("$")


class _Exchange:
    def __init__(self, request: HttpRequest):
        self.request = request
        self.started = time.perf_counter()
        self.span = start_server_span(f"{request.method} {request.path}", extract_parent(request.headers),
                                      **{"http.request.method": request.method, "url.path": request.path})
        self.route = "unmatched"
        self.status = 500

    def active(self):
        return trace.use_span(self.span, end_on_exit=False, record_exception=True)

    def respond(self, response: HttpResponse) -> HttpResponse:
        self.route, self.status = route_of(self.request), response.status_code
        self.span.update_name(f"{self.request.method} {self.route}")
        self.span.set_attribute("http.route", self.route)
        self.span.set_attribute("http.response.status_code", self.status)
        if self.status >= 500:
            self.span.set_status(Status(StatusCode.ERROR))
        if not response.streaming:
            self.end()
        elif response.is_async:
            response.streaming_content = self._async_frames(response.streaming_content)
        else:
            response.streaming_content = self._frames(response.streaming_content)
        return response

    async def _async_frames(self, content):
        iterator, completed = content.__aiter__(), False
        metrics.stream_opened(self.route)
        try:
            while True:
                with self.active():
                    try:
                        chunk = await iterator.__anext__()
                    except StopAsyncIteration:
                        completed = True
                        break
                yield chunk
        finally:
            if not completed and hasattr(iterator, "aclose"):
                await iterator.aclose()
            self.end(stream_completed=completed)

    def _frames(self, content):
        iterator, completed = iter(content), False
        metrics.stream_opened(self.route)
        try:
            while True:
                with self.active():
                    try:
                        chunk = next(iterator)
                    except StopIteration:
                        completed = True
                        break
                yield chunk
        finally:
            if not completed and hasattr(iterator, "close"):
                iterator.close()
            self.end(stream_completed=completed)

    def end(self, *, stream_completed: bool | None = None) -> None:
        seconds = time.perf_counter() - self.started
        if stream_completed is not None:
            metrics.stream_closed(self.route, disconnected=not stream_completed)
            self.span.set_attribute("sse.completed", stream_completed)
        metrics.record_request(self.route, self.request.method, self.status, seconds)
        trace_id, span_id = span_ids(self.span)
        principal = request_principal(self.request)
        access_log.info("request", extra={
            "route": self.route, "method": self.request.method, "status": self.status,
            "duration_ms": round(seconds * 1000, 2),
            "subject_hash": subject_hash(principal.subject, settings.SECRET_KEY),
            **({"trace_id": trace_id, "span_id": span_id} if trace_id else {}),
            **({"stream_completed": stream_completed} if stream_completed is not None else {}),
        })
        self.span.end()


class TelemetryMiddleware:
    """Outermost middleware: its latency covers the whole request."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest):
        if self.is_async:
            return self._acall(request)
        exchange = _Exchange(request)
        with exchange.active():
            response = self.get_response(request)
        return exchange.respond(response)

    async def _acall(self, request: HttpRequest):
        exchange = _Exchange(request)
        with exchange.active():
            response = await self.get_response(request)
        return exchange.respond(response)
