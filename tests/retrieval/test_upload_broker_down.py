"""POST /documents with the Redis broker gone: 503, and the upload is not kept half-stored."""
from __future__ import annotations

import time

import httpx
import pytest

from tests.conftest import TEST_API_KEY
from tests.retrieval.celery_processes import redis_server

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_failing_broker_refuses_the_upload_cleanly(live_server_factory, settings, django_db_blocker):
    from retrieval.models import Ingestion
    from kernel.files import files_walk

    with redis_server() as broker:
        server = live_server_factory(CELERY_BROKER_URL=broker)

        def upload(name: str) -> httpx.Response:
            files = {"file": (name, b"Pasal 1\nRetribusi pasar dipungut setiap hari.\n", "text/plain")}
            return httpx.post(server.url + "/documents", files=files, data={"collection_id": "broker"},
                              headers={"X-API-Key": TEST_API_KEY}, timeout=60)

        # Given a broker that takes tasks, an upload is queued
        accepted = upload("queued.txt")
        assert accepted.status_code == 202 and accepted.json()["status"] == "queued"
        before = set(files_walk("uploads"))
        assert any(name.endswith("/queued.txt") for name in before)

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
    assert set(files_walk("uploads")) == before
    assert "Traceback" not in server.log_text()
