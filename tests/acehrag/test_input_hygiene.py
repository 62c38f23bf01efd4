"""Hostile input at the edge: control characters, huge numbers and deep JSON are 4xx, never 500.

The control-character cases are generated from the OpenAPI document: every
string field of every request body, every query and form parameter of every
route, with a NUL (and other C0 characters) in it.
"""
from __future__ import annotations

import json
import uuid

import pytest

from tests.conftest import TEST_API_KEY

ADMIN = {"HTTP_X_USER_SUBJECT": "hygiene-admin", "HTTP_X_USER_ROLE": "admin"}
CONTROL = "\u0000"


def _openapi() -> dict:
    from acehrag.api import api

    return api.get_openapi_schema()


def _resolve(spec: dict, schema: dict) -> dict:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    if "anyOf" in schema:  # Optional[X]: the non-null branch
        schema = next(s for s in schema["anyOf"] if s.get("type") != "null")
        return _resolve(spec, schema)
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return _resolve(spec, schema["allOf"][0])
    return schema


def _valid(spec: dict, schema: dict):
    """A minimal value that passes ``schema``."""
    schema = _resolve(spec, schema)
    if "default" in schema:
        return schema["default"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "string":
        return str(uuid.uuid4()) if schema.get("format") == "uuid" else "retribusi pasar"
    if kind == "integer":
        return max(1, schema.get("minimum", 1))
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if kind == "object":
        return {name: _valid(spec, sub) for name, sub in schema.get("properties", {}).items()
                if name in schema.get("required", [])}
    return "x"


def _string_fields(spec: dict, schema: dict) -> list[tuple[str, object]]:
    """(field, hostile value) for every field that takes a string (alone or in a list)."""
    schema = _resolve(spec, schema)
    cases = []
    for name, sub in schema.get("properties", {}).items():
        sub = _resolve(spec, sub)
        if sub.get("type") == "string" or "enum" in sub or "const" in sub:
            cases.append((name, f"retribusi{CONTROL}pasar"))
        elif sub.get("type") == "array" and _resolve(spec, sub.get("items", {})).get("type") == "string":
            cases.append((name, [f"a{CONTROL}b"]))
    return cases


def _cases() -> list:
    spec = _openapi()
    cases = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if not operation.get("security"):
                continue  # the public chat answers in its own {"ok": false, "code"} shape (tested below)
            params = operation.get("parameters", [])
            url = path
            for param in params:
                if param["in"] == "path":
                    value = "1" if _resolve(spec, param["schema"]).get("type") == "integer" else str(uuid.uuid4())
                    url = url.replace("{" + param["name"] + "}", value)
            for param in params:
                if param["in"] == "query" and _resolve(spec, param["schema"]).get("type") == "string":
                    cases.append(pytest.param(method, url, "query", param["name"], f"a{CONTROL}b", None,
                                              id=f"{method} {path} ?{param['name']}"))
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                schema = content["application/json"]["schema"]
                base = _valid(spec, schema)
                for name, value in _string_fields(spec, schema):
                    cases.append(pytest.param(method, url, "body", name, value, base,
                                              id=f"{method} {path} body.{name}"))
            if "multipart/form-data" in content:
                for name, value in _string_fields(spec, content["multipart/form-data"]["schema"]):
                    if name != "file":
                        cases.append(pytest.param(method, url, "form", name, value, None,
                                                  id=f"{method} {path} form.{name}"))
    return cases


CASES = _cases()


def test_the_generated_cases_cover_every_route_with_string_input():
    covered = {case.values[1].split("/")[1] for case in CASES}
    assert {"search", "query", "conversations", "documents", "memories", "playground"} <= covered
    assert len(CASES) >= 30


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "url", "where", "name", "value", "base"), CASES)
def test_control_characters_are_422_everywhere(api_client, method, url, where, name, value, base):
    headers = {**ADMIN}
    if where == "query":
        response = api_client.generic(method.upper(), f"{url}?{name}={value}", **headers)
    elif where == "form":
        from django.core.files.uploadedfile import SimpleUploadedFile

        form = {"collection_id": "hygiene", name: value,
                "file": SimpleUploadedFile("a.txt", b"Pasal 1\nisi", content_type="text/plain")}
        response = api_client.post(url, form, **headers)
    else:
        body = {**base, name: value}
        response = api_client.generic(method.upper(), url, json.dumps(body), content_type="application/json", **headers)
    assert response.status_code == 422, response.content
    detail = response.json()["detail"]
    assert detail[0]["type"] == "string_control_characters" and detail[0]["loc"][-1] == name, detail


@pytest.mark.django_db
@pytest.mark.parametrize("character", ["\u0000", "\u0001", "\u0008", "\u000b", "\u000c", "\u001b", "\u001f"])
def test_every_forbidden_c0_character_is_refused(api_client, character):
    response = api_client.post("/search", {"query": f"retribusi{character}pasar"}, content_type="application/json")
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "query"]


@pytest.mark.django_db
def test_tab_newline_and_carriage_return_stay_allowed(api_client):
    response = api_client.post("/search", {"query": "retribusi\tpasar\r\nAceh"}, content_type="application/json")
    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("message", ["halo\u0000dunia", "halo\u001bdunia"])
def test_public_chat_refuses_control_characters_in_its_own_shape(client, message):
    response = client.post("/api/public/rag/chat", {"message": message}, content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert body["ok"] is False and body["code"] == "BAD_REQUEST" and body["message"].startswith("message:")


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["offset=99999999999999999999", "offset=1000001", "offset=-1", "limit=0", "limit=201",
                                   "limit=99999999999999999999"])
def test_out_of_range_paging_is_422(api_client, query):
    response = api_client.get(f"/documents?{query}")
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"][:1] == ["query"]


@pytest.mark.django_db
def test_the_largest_allowed_offset_is_an_empty_page(api_client):
    response = api_client.get("/documents?offset=1000000")
    assert response.status_code == 200 and response.json()["items"] == []


@pytest.mark.django_db
def test_huge_memory_id_is_422(api_client):
    response = api_client.delete("/memories/99999999999999999999")
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["path", "memory_id"]


@pytest.mark.django_db
def test_a_50000_character_search_query_is_413(api_client):
    response = api_client.post("/search", {"query": "retribusi pasar " * 3125}, content_type="application/json")
    assert response.status_code == 413
    assert response.json() == {"detail": "The query is too long (49999 > 8000 characters)", "code": "query_too_long"}


@pytest.mark.django_db
def test_a_long_query_builds_the_lexical_query_from_a_bounded_number_of_terms(api_client):
    from retrieval.search.lexical import MAX_QUERY_TERMS, query_terms

    words = " ".join(f"kata{n}" for n in range(500))
    assert query_terms(words) == [f"kata{n}" for n in range(MAX_QUERY_TERMS)]
    response = api_client.post("/search", {"query": words[:7999], "mode": "lexical"}, content_type="application/json")
    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/search", "/query", "/conversations"])
def test_ten_thousand_deep_json_gets_the_422_shape(api_client, path):
    response = api_client.post(path, "[" * 10000 + "]" * 10000, content_type="application/json")
    assert response.status_code == 422
    assert response.json()["detail"][0]["type"] == "json_invalid"


def test_api_key_header_is_still_required_first(client):
    response = client.post("/search", {"query": "a\u0000b"}, content_type="application/json")
    assert response.status_code == 401 and TEST_API_KEY not in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["message", "visitorId", "sessionId"])
def test_control_characters_in_the_public_chat_are_its_bad_request(client, field):
    body = {"message": "Apa itu zakat?", "stream": False, field: f"a{CONTROL}b"}
    response = client.post("/api/public/rag/chat", json.dumps(body), content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["ok"] is False and response.json()["code"] == "BAD_REQUEST"
def test_a_multipart_body_without_boundary_is_a_4xx(api_client):
    response = api_client.generic("POST", "/documents", b"--x\r\n", content_type="multipart/form-data")
    assert 400 <= response.status_code < 500
