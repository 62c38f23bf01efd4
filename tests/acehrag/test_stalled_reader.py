"""A stream client that stops reading is disconnected within the send timeout (real server, real socket).

The server (``acehrag/serving.py``: uvicorn) applies flow control, so once
the connection's buffers are full the edge's ``send`` waits, and the send
timeout ends the exchange as a disconnect. The answer here is large: one
passage of ~6 MB, beyond what the kernel buffers for a connection (its send
buffer grows to ``net.ipv4.tcp_wmem``'s 4 MiB at most) plus the server's 64 kB
write buffer, so its frames cannot all be handed to a client that reads nothing.
A smaller answer is handed over whole and its stream ends at once: a stalled
reader then holds no worker either, only the kernel's buffer.
"""
from __future__ import annotations

import socket
import time
import uuid
from dataclasses import replace

import pytest

from tests.conftest import TEST_API_KEY
from tests.factories import make_document

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
SEND_TIMEOUT = 2
QUESTION = "Berapa lama masa berlaku izin usaha tambak udang vaname?"
RULE = "Izin usaha tambak udang vaname berlaku selama lima tahun dan dapat diperpanjang."
FILLER = ("Pemegang izin tambak wajib menjaga kualitas air, mencatat hasil panen dan melaporkan "
          "penggunaan pakan kepada dinas kelautan dan perikanan kabupaten setiap bulan. ")


@pytest.fixture(scope="module")
def large_answer(django_db_setup, django_db_blocker):
    from django.conf import settings

    from tests.conftest import purge_committed_corpus

    original = settings.ACEH_RAG
    settings.ACEH_RAG = replace(original, ingestion=replace(original.ingestion, chunk_max_chars=10_000_000))
    try:
        with django_db_blocker.unblock():
            make_document(title="Qanun Perizinan Tambak Udang", chunks=[RULE + " " + FILLER * 36000])
    finally:
        settings.ACEH_RAG = original
    yield
    with django_db_blocker.unblock():
        from answering.models import AnswerTrace
        from memory.models import Memory

        AnswerTrace.objects.all().delete()
        Memory.objects.all().delete()
        purge_committed_corpus()


@pytest.fixture(scope="module")
def server(live_server_factory, large_answer):
    return live_server_factory(ACEH_RAG_LIMITS__SSE_SEND_TIMEOUT_SECONDS=str(SEND_TIMEOUT))


def _stalled_stream(server, owner: str) -> socket.socket:
    """Send a stream request, then read nothing (a 1 kB receive buffer, set before connecting)."""
    host, port = server.url.removeprefix("http://").split(":")
    body = ('{"query": "%s", "user_id": "%s"}' % (QUESTION, owner)).encode()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    sock.connect((host, int(port)))
    sock.sendall(b"POST /query/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: " + TEST_API_KEY.encode()
                 + b"\r\nContent-Type: application/json\r\nContent-Length: " + str(len(body)).encode()
                 + b"\r\n\r\n" + body)
    return sock


def _read_to_end(sock: socket.socket, seconds: float) -> tuple[bytes, bool]:
    """Everything the server sent, and whether it closed the connection within ``seconds``."""
    sock.settimeout(seconds)
    received, deadline = [], time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            data = sock.recv(65536)
            if not data:
                return b"".join(received), True
            received.append(data)
    except TimeoutError:
        pass
    return b"".join(received), False


def test_a_reader_that_stops_is_disconnected_within_the_send_timeout(server, django_db_blocker):
    import httpx

    from conversations.models import Conversation

    # A reader that reads: the whole large answer arrives, ending in done.
    began = time.monotonic()
    with httpx.stream("POST", server.url + "/query/stream", json={"query": QUESTION},
                      headers={"X-API-Key": TEST_API_KEY}, timeout=60) as response:
        whole = b"".join(response.iter_bytes())
    answered = time.monotonic() - began      # what the answer itself takes on this machine, now
    assert b"event: done" in whole and len(whole) > 5_000_000, whole[-500:]

    owner = str(uuid.uuid4())
    stalled = _stalled_stream(server, owner)
    try:
        started = time.monotonic()
        deadline = started + answered + SEND_TIMEOUT + 30
        while "read nothing for" not in server.log_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        noticed = time.monotonic() - started
        assert "client on /query/stream read nothing for 2 s: disconnected" in server.log_text()
        # The answer takes what the reading request took (measured in this run, so machine load falls on both);
        # the stall is noticed within the send timeout after it, with a margin for the server's write buffer.
        assert noticed < answered + SEND_TIMEOUT + 10, (noticed, answered)
        # Reading again, the client gets what was buffered and then the end of the connection: no done.
        partial, closed = _read_to_end(stalled, 20)
        assert closed
        assert partial.startswith(b"HTTP/1.1 200") and b"event: done" not in partial
        assert len(partial) < len(whole)
        # An expected outcome, logged once as the edge's warning, not as a server error.
        log = server.log_text()
        assert "returned without completing response" not in log and "Traceback" not in log
        assert '"level": "error"' not in log
    finally:
        stalled.close()
    # Meanwhile (and after) the server answers others.
    assert httpx.get(server.url + "/healthz", timeout=5).status_code == 200
    with django_db_blocker.unblock():
        turns = [c.messages.count() for c in Conversation.objects.filter(owner=owner)]
    # Nothing half-written: the turn is stored whole (it committed before its frames were sent) or not at all.
    assert all(count == 2 for count in turns), turns
