"""Liveness and readiness, against real servers."""
from __future__ import annotations

import httpx
import pytest

pytestmark = pytest.mark.django_db


def test_healthz_needs_no_key(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_readyz_reports_every_check(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ready"
    assert body["checks"] == {name: "ok" for name in ("database", "migrations", "pgvector", "embedder", "embedding_model")}


def test_readyz_fails_when_the_database_is_down(live_server_factory, transactional_db):
    # Nothing listens on port 9 of loopback: the database is unreachable.
    server = live_server_factory(DATABASE_URL="postgresql://postgres@127.0.0.1:9/acehrag")
    live = httpx.get(server.url + "/healthz")
    ready = httpx.get(server.url + "/readyz", timeout=30)
    assert live.status_code == 200
    assert ready.status_code == 503
    body = ready.json()
    assert body["status"] == "unavailable"
    assert "database" in body["failing"]
    assert body["checks"]["database"] != "ok"


def test_readyz_reports_an_embedding_model_mismatch(client, django_db_blocker):
    from retrieval.models import Chunk
    from tests.factories import make_document

    document = make_document(chunks=["Pasal 1 isi."])
    Chunk.objects.filter(document=document).update(embedding_model="some-other-model")
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["embedding_model"]
    assert "some-other-model" in response.json()["checks"]["embedding_model"]
