"""422 body shape, JSON-only errors, docs toggle."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_422_body_matches_fastapi_shape(api_client):
    response = api_client.post("/search", data={"query": "x", "top_k": 0}, content_type="application/json")
    assert response.status_code == 422
    assert response.json() == {
        "detail": [
            {"type": "greater_than", "loc": ["body", "top_k"], "msg": "Input should be greater than 0", "input": 0, "ctx": {"gt": 0}}
        ],
        "code": "validation_error",
    }


@pytest.mark.parametrize(
    "body,error_type,loc",
    [
        ({"query": ""}, "string_too_short", ["body", "query"]),
        ({}, "missing", ["body", "query"]),
        ({"query": "x", "mode": "fuzzy"}, "literal_error", ["body", "mode"]),
        ({"query": "x", "top_k": 51}, "less_than_equal", ["body", "top_k"]),
        ({"query": "x", "surprise": 1}, "extra_forbidden", ["body", "surprise"]),
        ({"query": "x", "document_ids": ["not-a-uuid"]}, "uuid_parsing", ["body", "document_ids", 0]),
    ],
)
def test_validation_errors_name_type_and_location(api_client, body, error_type, loc):
    response = api_client.post("/search", data=body, content_type="application/json")
    assert response.status_code == 422
    items = response.json()["detail"]
    assert [(item["type"], item["loc"]) for item in items] == [(error_type, loc)]
    assert set(items[0]) >= {"type", "loc", "msg", "input"}


def test_malformed_json_is_a_422_not_a_400(api_client):
    response = api_client.post("/search", data=b"{not json", content_type="application/json")
    assert response.status_code == 422
    assert response.json()["detail"][0]["type"] == "json_invalid"


@pytest.mark.parametrize(
    "method,path,status",
    [("GET", "/no/such/route", 404), ("GET", "/search", 405), ("PUT", "/search", 405), ("POST", "/healthz", 405)],
)
def test_routing_errors_are_json(api_client, method, path, status):
    response = api_client.generic(method, path)
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    assert isinstance(response.json()["detail"], str)


@pytest.mark.allows_500
def test_unhandled_error_is_json_500_without_traceback(api_client, monkeypatch):
    import retrieval.api

    def explode(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(retrieval.api, "chunk_search", explode)
    response = api_client.post("/search", data={"query": "anggaran"}, content_type="application/json")
    assert response.status_code == 500
    assert response.json() == {"detail": "Internal Server Error", "code": "internal_error"}
    assert b"secret internals" not in response.content and b"Traceback" not in response.content


def test_docs_are_served_when_enabled(client):
    assert client.get("/openapi.json").status_code == 200
    assert client.get("/docs").status_code == 200
    assert client.get("/redoc").status_code == 200


def test_docs_are_404_when_disabled(live_server_factory, transactional_db):
    import httpx

    server = live_server_factory(ACEH_RAG_API_DOCS_ENABLED="false")
    for path in ("/docs", "/redoc", "/openapi.json"):
        response = httpx.get(server.url + path)
        assert response.status_code == 404, path
        assert response.headers["content-type"].startswith("application/json")


def test_landing_page_links_the_docs_admin_and_widget_and_names_the_runtime(client):
    response = client.get("/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    for href in ('href="/docs"', 'href="/redoc"', 'href="/admin/"', 'href="/widget"'):
        assert href in page
    assert "deterministic extractive synthesiser" in page and "hashing embedder" in page
    refused = client.post("/")
    assert refused.status_code == 405 and refused["Content-Type"].startswith("application/json")


def test_admin_names_the_product_and_view_site_is_the_landing_page():
    from django.contrib import admin

    assert (admin.site.site_header, admin.site.site_title, admin.site.site_url) == (
        "Aceh RAG administration", "Aceh RAG", "/")
