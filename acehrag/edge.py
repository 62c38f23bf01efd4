"""ASGI wrapper at the edge: liveness, request body limits before parsing, a send timeout.

Liveness. ``GET /healthz`` is answered here, on the event loop, so a process
busy with answers still says it is alive at once (the Django view serves the
same body to in-process callers).

Body limit. Django's ASGI handler spools the whole body before any view or
middleware runs, so the limit is enforced here, before that read: a declared
``Content-Length`` over the route's limit is refused without being parsed, and
a body without one is read only up to the limit. ``POST /documents`` allows
the upload limit plus room for the multipart envelope; every other route
``ACEH_RAG_LIMITS__MAX_JSON_BODY_BYTES``. Before the ``413`` is sent the rest
of the body is read and discarded, up to ``DRAIN_BYTES`` and ``DRAIN_SECONDS``:
a client that writes its whole body before reading (Python's ``http.client``,
some gateways) would otherwise meet a connection reset, as the server closes
a socket with unread bytes, instead of the status. A client that asked
``Expect: 100-continue`` has sent no body and is answered at once, as is a
body declared larger than the drain bound.

Send timeout. A response message the server cannot hand to the client within
``ACEH_RAG_LIMITS__SSE_SEND_TIMEOUT_SECONDS`` (a server with flow control
blocks ``send`` while the client reads nothing) ends the exchange as a
disconnect: the application's next ``receive`` answers ``http.disconnect``,
which Django turns into a cancelled stream, and later messages are dropped.
This needs a server with flow control (``acehrag/serving.py``: uvicorn waits
for the client to drain a full write buffer); daphne never blocks ``send``.
The server then reports the exchange as "returned without completing
response" at error level; for an exchange this timeout ended that is the
expected outcome, already logged here as a warning, so that one record is dropped.
"""
from __future__ import annotations

import asyncio
import json
import logging
import sys

from django.conf import settings

from kernel.error_table import error_body, error_status, public_error_payload
from kernel.errors import RequestTooLarge

logger = logging.getLogger("acehrag.edge")

# The event loop (every exchange, /healthz included) shares the GIL with the answer threads. Each
# socket write or poll on the loop gives the GIL up, and getting it back from a busy answer thread
# waits up to a switch interval (CPython's default 5 ms), often several under load: a probe then
# queued behind a convoy of such hand-offs. 1 ms cuts each wait fivefold (measured with four
# CPU-bound threads: p99 of six loop round trips 16-70 ms at 5 ms, 0-13 ms at 1 ms), at the cost
# of more frequent switches between answer threads. Set when the server imports the application.
LOOP_SWITCH_INTERVAL_SECONDS = 0.001
sys.setswitchinterval(LOOP_SWITCH_INTERVAL_SECONDS)
INCOMPLETE = "ASGI callable returned without completing response."


class _ExpectedIncomplete(logging.Filter):
    """Drops uvicorn's incomplete-response error for the exchange the send timeout just ended.

    The edge sets ``pending`` as it returns such an exchange; uvicorn logs
    synchronously right after, in the same step of the same task, and the flag
    is cleared on the next loop iteration, so no other exchange's record is hidden.
    """

    pending = False

    def filter(self, record: logging.LogRecord) -> bool:
        return not (self.pending and record.getMessage() == INCOMPLETE)

    def expect(self) -> None:
        self.pending = True
        asyncio.get_running_loop().call_soon(self._clear)

    def _clear(self) -> None:
        self.pending = False


expected_incomplete = _ExpectedIncomplete()
logging.getLogger("uvicorn.error").addFilter(expected_incomplete)

UPLOAD_PATH = "/documents"
MULTIPART_ALLOWANCE = 1024 * 1024
PUBLIC_PREFIX = "/api/public/"
LIVENESS_PATH = "/healthz"
HEALTHY = {"status": "ok"}
DRAIN_BYTES = 64 * 1024 * 1024      # read and discarded before an early 413 (a 10 MB body takes ~10 ms on loopback)
DRAIN_SECONDS = 10.0


def body_limit(method: str, path: str) -> int:
    limits = settings.ACEH_RAG
    if method == "POST" and path.rstrip("/") == UPLOAD_PATH:
        return limits.api.max_upload_bytes + MULTIPART_ALLOWANCE
    return limits.limits.max_json_body_bytes


def too_large_body(path: str, limit: int) -> tuple[int, bytes]:
    """The status and body of ``request_too_large``, in the public chat's shape on its routes."""
    error = RequestTooLarge(limit)
    body = public_error_payload(error) if path.startswith(PUBLIC_PREFIX) else error_body(error)
    return error_status(error), json.dumps(body).encode()


async def _send_json(send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def _declared_length(scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _read_bounded(receive, limit: int) -> list[dict] | None:
    """The request's body messages, or None once they exceed ``limit``."""
    messages, size = [], 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages
        size += len(message.get("body", b""))
        if size > limit:
            return None
        if not message.get("more_body", False):
            return messages


class EdgeMiddleware:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if scope["path"] == LIVENESS_PATH and scope["method"] in ("GET", "HEAD"):
            # Liveness never waits for a thread, a connection or an answer slot.
            return await _send_json(send, 200, json.dumps(HEALTHY).encode())
        limit = body_limit(scope["method"], scope["path"])
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            if declared <= DRAIN_BYTES and not _expects_continue(scope):
                await _drain(receive)
            return await _send_json(send, *too_large_body(scope["path"], limit))
        if declared is None and scope["method"] in ("POST", "PUT", "PATCH"):
            buffered = await _read_bounded(receive, limit)
            if buffered is None:
                await _drain(receive)
                return await _send_json(send, *too_large_body(scope["path"], limit))
            receive = _replay(buffered, receive)
        timeout = settings.ACEH_RAG.limits.sse_send_timeout_seconds
        exchange = _TimedExchange(receive, send, timeout, scope["path"])
        await self.app(scope, exchange.receive, exchange.send)
        if exchange.timed_out:
            expected_incomplete.expect()


def _expects_continue(scope) -> bool:
    return any(name.lower() == b"expect" and value.lower() == b"100-continue" for name, value in scope.get("headers", ()))


async def _drain(receive) -> None:
    """Read and drop the rest of a refused body, within ``DRAIN_BYTES`` and ``DRAIN_SECONDS``."""
    async def read_rest() -> None:
        size = 0
        while size <= DRAIN_BYTES:
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                return
            size += len(message.get("body", b""))

    try:
        await asyncio.wait_for(read_rest(), DRAIN_SECONDS)
    except TimeoutError:
        pass


def _replay(messages: list[dict], receive):
    pending = list(messages)

    async def replayed():
        return pending.pop(0) if pending else await receive()

    return replayed


class _TimedExchange:
    """``send`` bounded in time; a send that times out reads as a client disconnect."""

    def __init__(self, receive, send, timeout: float, path: str):
        self._receive, self._send, self._timeout, self._path = receive, send, timeout, path
        self._gone = asyncio.Event()

    @property
    def timed_out(self) -> bool:
        return self._gone.is_set()

    async def send(self, message) -> None:
        if self._gone.is_set():
            return
        try:
            # In the caller's task (not wait_for's new one), so a cancel on client disconnect reaches the stream.
            async with asyncio.timeout(self._timeout):
                await self._send(message)
        except TimeoutError:
            logger.warning("client on %s read nothing for %.0f s: disconnected", self._path, self._timeout)
            self._gone.set()

    async def receive(self):
        if self._gone.is_set():
            return {"type": "http.disconnect"}
        reader = asyncio.ensure_future(self._receive())
        gone = asyncio.ensure_future(self._gone.wait())
        try:
            done, _ = await asyncio.wait({reader, gone}, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            reader.cancel()  # the application stopped listening: leave nothing pending
            raise
        finally:
            gone.cancel()
        if reader in done:
            return reader.result()
        reader.cancel()
        return {"type": "http.disconnect"}
