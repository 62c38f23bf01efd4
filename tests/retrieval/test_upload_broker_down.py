"""POST /documents with the Redis broker gone: 503, and the upload is not kept half-stored."""
from __future__ import annotations

import shutil
import socket
import subprocess
import time

import httpx
import pytest

from tests.conftest import TEST_API_KEY

pytestmark = pytest.mark.django_db(transaction=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_failing_broker_refuses_the_upload_cleanly(live_server_factory, settings, django_db_blocker):
    from retrieval.models import Ingestion
    from retrieval.services import upload_dir

    binary = shutil.which("redis-server")
    assert binary, "redis-server is required (apt-get install redis-server)"
    port = _free_port()
    redis = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        server = live_server_factory(CELERY_BROKER_URL=f"redis://127.0.0.1:{port}/0")

        def upload(name: str) -> httpx.Response:
            files = {"file": (name, b"Pasal 1\nRetribusi pasar dipungut setiap hari.\n", "text/plain")}
            return httpx.post(server.url + "/documents", files=files, data={"collection_id": "broker"},
                              headers={"X-API-Key": TEST_API_KEY}, timeout=60)

        # Given a broker that takes tasks, an upload is queued
        accepted = upload("queued.txt")
        assert accepted.status_code == 202 and accepted.json()["status"] == "queued"
        before = set(upload_dir().iterdir()) if upload_dir().exists() else set()
    finally:
        redis.terminate()
        redis.wait(10)

    # When the broker is gone, the upload is refused with a JSON 503 ...
    started = time.monotonic()
    refused = upload("refused.txt")
    assert refused.status_code == 503, refused.text
    assert refused.json() == {"detail": "The ingestion queue is unavailable; the upload was not kept",
                              "code": "ingestion_queue_unavailable"}
    assert time.monotonic() - started < 30
    # ... and nothing of it stays behind: no ingestion row, no stored bytes
    with django_db_blocker.unblock():
        names = set(Ingestion.objects.filter(collection_id="broker").values_list("source_name", flat=True))
        Ingestion.objects.filter(collection_id="broker").delete()
    assert names == {"queued.txt"}
    assert set(upload_dir().iterdir()) == before
    assert "Traceback" not in server.log_text()
