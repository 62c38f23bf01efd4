"""Limits under a real uvicorn server: body size before parsing, backpressure, disconnects.

Every request here goes through the ASGI edge (``acehrag/edge.py``) as a
partner's would.
"""
from __future__ import annotations

import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.conftest import TEST_API_KEY

pytestmark = pytest.mark.django_db
HEADERS = {"X-API-Key": TEST_API_KEY}
QUESTION = "Berapa lama Badan Publik wajib menjawab permintaan informasi publik?"
BUSY = "The service is busy; please retry shortly"
TIGHT = {
    "ACEH_RAG_LIMITS__MAX_CONCURRENT_ANSWERS": "1",
    "ACEH_RAG_LIMITS__ANSWER_QUEUE_SECONDS": "1",
    "ACEH_RAG_LIMITS__MAX_QUEUED_ANSWERS": "1",
    "ACEH_RAG_PUBLIC_CHAT__IP_RATE_LIMIT": "1000",
    "ACEH_RAG_PUBLIC_CHAT__VISITOR_RATE_LIMIT": "1000",
}


@pytest.fixture(scope="module")
def sample_corpus(django_db_setup, django_db_blocker):
    from retrieval.services import sample_corpus_ingest
    from tests.conftest import corpus_statistics_refresh, purge_committed_corpus

    with django_db_blocker.unblock():
        assert all(o.status == "ingested" for o in sample_corpus_ingest())
        corpus_statistics_refresh()
    yield
    with django_db_blocker.unblock():
        from answering.models import AnswerTrace
        from memory.models import Memory

        # The servers' answers committed traces and memories too.
        AnswerTrace.objects.all().delete()
        Memory.objects.all().delete()
        purge_committed_corpus()


@pytest.fixture(scope="module")
def server(live_server_factory, sample_corpus):
    return live_server_factory()


@pytest.fixture(scope="module")
def tight_server(live_server_factory, sample_corpus):
    return live_server_factory(**TIGHT)


def test_concurrent_searches_never_deadlock_on_a_small_pool(live_server_factory, sample_corpus):
    """Hybrid search needs a second connection for its lexical leg: a caller must not hold one while it waits."""
    small = live_server_factory(ACEH_RAG_DB__POOL_MAX="2", ACEH_RAG_DB__POOL_TIMEOUT_SECONDS="3")

    def search(_):
        started = time.monotonic()
        response = httpx.post(small.url + "/search", json={"query": QUESTION}, headers=HEADERS, timeout=60)
        return response.status_code, time.monotonic() - started  # (kept for reading a failure)

    with ThreadPoolExecutor(12) as pool:
        results = list(pool.map(search, range(36)))
    # A caller that held a connection while waiting for another would deadlock the two-connection pool
    # and wait out the 3 s pool timeout, which answers 503: every search answered is none did.
    assert [status for status, _ in results] == [200] * 36


def test_a_10_mb_body_is_413_json_at_once(server):
    started = time.monotonic()
    response = httpx.post(server.url + "/search", content=b"{" + b" " * (10 * 1024 * 1024) + b"}",
                          headers={**HEADERS, "Content-Type": "application/json"}, timeout=30)
    assert response.status_code == 413
    assert response.json() == {"detail": "Request body too large (limit 1048576 bytes)", "code": "request_too_large"}
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("path", ["/search", "/query", "/api/public/rag/chat"])
def test_a_client_that_writes_the_whole_10_mb_body_first_still_receives_the_413(server, path):
    # Python's http.client sends the whole body before it reads a byte of the answer; a server that
    # answered early and closed at once would reset the connection under it instead.
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request("POST", path, body=b"{" + b" " * (10 * 1024 * 1024) + b"}",
                           headers={**HEADERS, "Content-Type": "application/json"})
        response = connection.getresponse()
        assert response.status == 413 and b"too large" in response.read().lower()
    finally:
        connection.close()


def test_a_chunked_body_over_the_limit_is_413_without_reading_it_all(server):
    def chunks():
        for _ in range(40):
            yield b" " * 65536

    response = httpx.post(server.url + "/query", content=chunks(),
                          headers={**HEADERS, "Content-Type": "application/json"}, timeout=30)
    assert response.status_code == 413 and response.json()["detail"].startswith("Request body too large")


def test_the_public_chat_keeps_its_own_shape_for_a_huge_body(server):
    response = httpx.post(server.url + "/api/public/rag/chat", content=b"x" * (2 * 1024 * 1024),
                          headers={"Content-Type": "application/json"}, timeout=30)
    assert response.status_code == 413
    assert response.json()["ok"] is False and response.json()["code"] == "BAD_REQUEST"


def test_an_upload_over_the_json_limit_reaches_the_upload_route(server):
    """~1.5 MB passes the edge on /documents (its limit is the upload limit): the route itself answers."""
    files = {"file": ("tool.exe", b"MZ" + b"\0" * (1536 * 1024), "application/octet-stream")}
    response = httpx.post(server.url + "/documents", files=files, data={"collection_id": "edge"}, headers=HEADERS,
                          timeout=60)
    assert response.status_code == 415, response.text


def test_answers_beyond_the_bound_wait_then_get_503_with_retry_after(tight_server):
    """One answer slot, one waiting place, a one-second wait: a burst of 10 sees 200s and 503s only."""
    def ask(_):
        return httpx.post(tight_server.url + "/query", json={"query": QUESTION}, headers=HEADERS, timeout=60)

    with ThreadPoolExecutor(10) as pool:
        responses = list(pool.map(ask, range(10)))
    statuses = sorted(r.status_code for r in responses)
    assert set(statuses) == {200, 503}, statuses
    for response in responses:
        if response.status_code == 503:
            assert response.json() == {"detail": BUSY, "code": "overloaded"}
            assert int(response.headers["Retry-After"]) >= 1


def test_streams_and_public_chat_are_refused_in_their_own_shapes_when_busy(tight_server):
    hold = threading.Event()

    def occupy():
        # A stream that holds the only slot while the client reads slowly.
        with httpx.stream("POST", tight_server.url + "/query/stream", json={"query": QUESTION}, headers=HEADERS,
                          timeout=60) as response:
            hold.set()
            for _ in response.iter_bytes():
                time.sleep(0.5)

    def burst(path, body, headers):
        with ThreadPoolExecutor(6) as pool:
            return list(pool.map(lambda _: httpx.post(tight_server.url + path, json=body, headers=headers, timeout=60),
                                 range(6)))

    threading.Thread(target=occupy, daemon=True).start()
    assert hold.wait(30)
    streams = burst("/query/stream", {"query": QUESTION}, HEADERS)
    busy = [r for r in streams if r.status_code == 503]
    assert busy and all(r.json() == {"detail": BUSY, "code": "overloaded"} and r.headers["Retry-After"] for r in busy)
    public = burst("/api/public/rag/chat", {"message": QUESTION}, {})
    refused = [r for r in public if r.status_code == 503]
    assert refused, [r.status_code for r in public]
    for response in refused:
        body = response.json()
        assert (body["ok"], body["code"], body["message"]) == (False, "UNAVAILABLE", BUSY)
        assert int(response.headers["Retry-After"]) == body["retryAfter"] >= 1
    assert {r.status_code for r in streams + public} <= {200, 503}


def test_probes_never_queue_behind_answers(tight_server):
    with ThreadPoolExecutor(8) as pool:
        answers = [pool.submit(httpx.post, tight_server.url + "/query", json={"query": QUESTION}, headers=HEADERS,
                               timeout=60) for _ in range(8)]
        time.sleep(0.2)
        worst = 0.0
        for _ in range(5):
            started = time.monotonic()
            assert httpx.get(tight_server.url + "/healthz", timeout=5).status_code == 200
            worst = max(worst, time.monotonic() - started)
        assert all(a.result().status_code in (200, 503) for a in answers)
    assert worst < 1.0


def _open_stalled_stream(server, owner: str) -> socket.socket:
    """A client that sends a stream request and then never reads a byte."""
    host, port = server.url.removeprefix("http://").split(":")
    body = ('{"query": "%s", "user_id": "%s"}' % (QUESTION, owner)).encode()
    sock = socket.create_connection((host, int(port)))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    sock.sendall(b"POST /query/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: " + TEST_API_KEY.encode()
                 + b"\r\nContent-Type: application/json\r\nContent-Length: " + str(len(body)).encode()
                 + b"\r\n\r\n" + body)
    return sock


def test_stalled_and_departed_stream_clients_hold_no_worker_and_leave_nothing_half_written(server, django_db_blocker):
    import uuid

    from conversations.models import Conversation

    stalled_owner, departed_owner = str(uuid.uuid4()), str(uuid.uuid4())
    stalled = [_open_stalled_stream(server, stalled_owner) for _ in range(6)]
    try:
        # Clients that leave after the first frame.
        for _ in range(6):
            with httpx.stream("POST", server.url + "/query/stream", json={"query": QUESTION, "user_id": departed_owner},
                              headers=HEADERS, timeout=60) as response:
                next(response.iter_bytes())
        # While the stalled readers stay connected the server answers others at once.
        started = time.monotonic()
        assert httpx.get(server.url + "/healthz", timeout=5).status_code == 200
        assert time.monotonic() - started < 1.0
        answer = httpx.post(server.url + "/query", json={"query": QUESTION}, headers=HEADERS, timeout=60)
        assert answer.status_code == 200
        time.sleep(2)  # let every pipeline finish or stop
        with django_db_blocker.unblock():
            for owner in (stalled_owner, departed_owner):
                turns = [c.messages.count() for c in Conversation.objects.filter(owner=owner)]
                # A turn is stored whole (question + answer) or not at all, never half.
                assert all(count == 2 for count in turns), (owner, turns)
            stored_stalled = Conversation.objects.filter(owner=stalled_owner).count()
        # The stalled readers' answers were handed to their connections whole, so they are kept.
        assert stored_stalled == len(stalled)
    finally:
        for sock in stalled:
            sock.close()
