"""Real HTTP servers on loopback standing in for remote model servers."""
from __future__ import annotations

import gzip
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable


class FakeModelServer:
    """Serve ``handler(path, body) -> (status, payload)`` on 127.0.0.1."""

    def __init__(self, handler: Callable[[str, dict], tuple[int, object]]):
        outer = self
        self.requests: list[tuple[str, dict]] = []
        self.headers: list[dict[str, str]] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server naming)
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                outer.requests.append((self.path, body))
                outer.headers.append({k.lower(): v for k, v in self.headers.items()})
                status, payload = handler(self.path, body)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "FakeModelServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


class OtlpReceiver:
    """An OTLP/HTTP trace receiver: decodes each protobuf ``ExportTraceServiceRequest``.

    Spans are kept as ``ExportedSpan`` values (ids in hex, attributes as plain
    Python values); ``requests`` counts export calls, so "nothing was exported"
    can be asserted.
    """

    def __init__(self):
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTraceServiceRequest,
            ExportTraceServiceResponse,
        )

        outer = self
        self.spans: list[ExportedSpan] = []
        self.requests = 0
        self._lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if self.headers.get("Content-Encoding") == "gzip":
                    raw = gzip.decompress(raw)
                if self.path != "/v1/traces" or self.headers.get("Content-Type") != "application/x-protobuf":
                    self.send_response(404)
                    self.end_headers()
                    return
                request = ExportTraceServiceRequest()
                request.ParseFromString(raw)
                decoded = [
                    ExportedSpan.from_proto(span, resource)
                    for resource in request.resource_spans
                    for scope in resource.scope_spans
                    for span in scope.spans
                ]
                with outer._lock:
                    outer.requests += 1
                    outer.spans.extend(decoded)
                data = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def trace(self, trace_id: str, *, until: Callable[[list["ExportedSpan"]], bool], timeout: float = 15.0):
        """The spans of one trace, once ``until(spans)`` holds (exports arrive in batches)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                spans = [span for span in self.spans if span.trace_id == trace_id]
            if until(spans) or time.monotonic() > deadline:
                return spans
            time.sleep(0.05)

    def __enter__(self) -> "OtlpReceiver":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def _any_value(value):
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [_any_value(item) for item in value.array_value.values]
    return getattr(value, kind) if kind else None


@dataclass(frozen=True)
class ExportedSpan:
    trace_id: str
    span_id: str
    parent_span_id: str
    name: str
    kind: int
    attributes: dict
    service_name: str
    start_ns: int
    end_ns: int

    @classmethod
    def from_proto(cls, span, resource) -> "ExportedSpan":
        service = {a.key: _any_value(a.value) for a in resource.resource.attributes}.get("service.name", "")
        return cls(trace_id=span.trace_id.hex(), span_id=span.span_id.hex(), parent_span_id=span.parent_span_id.hex(),
                   name=span.name, kind=span.kind, attributes={a.key: _any_value(a.value) for a in span.attributes},
                   service_name=service, start_ns=span.start_time_unix_nano, end_ns=span.end_time_unix_nano)
