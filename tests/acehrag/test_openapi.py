"""The OpenAPI document a partner integrates from: routes, descriptions, examples, security, errors."""
from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import jsonschema
import pytest
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
# Pages that are the documentation or the admin UI themselves, not API operations.
NOT_OPERATIONS = {"GET /", "GET /docs", "GET /redoc", "GET /openapi.json", "GET /admin/", "GET /static/…",
                  "GET /admin/dashboard/", "GET /admin/exports/", "GET /admin/retrieval-test/"}
BODIES = {"/query": "QueryRequest", "/query/v2": "QueryV2Request", "/search": "SearchRequest"}


@pytest.fixture(scope="module")
def spec():
    from acehrag.api import api

    return json.loads(json.dumps(api.get_openapi_schema()))


def readme_routes(page: str = "README.md") -> set[str]:
    """The routes of a page's "## Routes" table: README's map, or the full table in docs/api.md."""
    readme = (ROOT / page).read_text()
    table = readme.split("## Routes", 1)[1].split("\n\n", 2)[2].split("\n\n", 1)[0]
    routes = set()
    for row in table.splitlines()[2:]:
        first_cell = row.split("|")[1]
        for method, path in re.findall(r"`(?:(GET|POST|DELETE|PUT|PATCH) )?(/[^`]*)`", first_cell):
            routes.add(f"{method or 'GET'} {path}")
    return routes


def spec_routes(spec) -> set[str]:
    return {f"{method.upper()} {re.sub(r'{[^}]+}', '{id}', path)}" for path, item in spec["paths"].items()
            for method in item}


def resolve(spec, schema: dict) -> dict:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def validator(spec, schema: dict):
    registry = Registry().with_resource("urn:spec", Resource.from_contents(spec, default_specification=DRAFT202012))
    rewritten = json.loads(json.dumps(schema).replace('"#/components/', '"urn:spec#/components/'))
    return jsonschema.Draft202012Validator(rewritten, registry=registry)


def examples_of(operation: dict):
    """(where, media type, schema, example) for every example an operation shows."""
    media_items = [("request", operation.get("requestBody", {}).get("content", {}))]
    media_items += [(f"response {code}", response.get("content", {}))
                    for code, response in operation.get("responses", {}).items()]
    for where, content in media_items:
        for media, body in content.items():
            values = ([body["example"]] if "example" in body else []) + [
                e["value"] for e in body.get("examples", {}).values()]
            for value in values:
                yield where, media, body.get("schema", {}), value


@pytest.mark.parametrize("page", ["README.md", "docs/api.md"])
def test_every_readme_route_is_in_the_spec_including_the_public_chat(spec, page):
    listed = readme_routes(page)
    assert {"POST /query", "POST /api/public/rag/chat", "GET /api/public/rag/sources/{chunk_id}"} <= listed
    documented = spec_routes(spec)
    missing = {re.sub(r"{[^}]+}", "{id}", route) for route in listed - NOT_OPERATIONS} - documented
    assert not missing, f"{page} routes missing from /openapi.json: {sorted(missing)}"


def test_readme_route_map_lists_every_route_of_the_full_table():
    assert readme_routes("docs/api.md") <= readme_routes("README.md")


@pytest.mark.parametrize("path", sorted(BODIES))
def test_every_body_property_of_query_v2_and_search_is_described(spec, path):
    operation = spec["paths"][path]["post"]
    request = resolve(spec, operation["requestBody"]["content"]["application/json"]["schema"])
    assert request["title"] == BODIES[path]
    response = resolve(spec, operation["responses"]["200"]["content"]["application/json"]["schema"])
    citation = spec["components"]["schemas"]["Citation"]
    for schema in (request, response, citation):
        undescribed = [name for name, prop in schema["properties"].items() if len(prop.get("description", "")) < 12]
        assert not undescribed, f"{schema['title']}: {undescribed}"
    if path != "/search":
        assert "78% · 7/9 klaim" in response["properties"]["grounding_rate"]["description"]


def test_every_route_has_an_example_and_every_example_fits_its_schema(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            shown = list(examples_of(operation)) + [p for p in operation.get("parameters", []) if "example" in p]
            assert shown, f"{method.upper()} {path} shows no example"
            for where, media, schema, value in examples_of(operation):
                if media == "application/json" or media == "multipart/form-data":
                    errors = [e.message for e in validator(spec, schema).iter_errors(value)]
                    assert not errors, f"{method.upper()} {path} {where}: {errors}"
                elif media == "text/event-stream":
                    frames = [f for f in value.split("\n\n") if f]
                    assert frames and all(re.fullmatch(r"event: [a-z.]+\ndata: .+", f) for f in frames), path
                    assert all(json.loads(f.split("data: ", 1)[1]) is not None for f in frames)
                    assert re.search(r"event: done\n", frames[-1]), f"{path}: the example stream must end with done"


def test_the_default_answer_bodies_start_a_new_conversation(spec):
    for path in ("/query", "/query/stream", "/query/v2", "/query/v2/stream"):
        example = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["example"]
        assert "conversation_id" not in example, path


def test_security_schemes_name_the_key_the_jwt_and_the_identity_headers(spec):
    schemes = spec["components"]["securitySchemes"]
    assert schemes["ApiKeyAuth"] == {**schemes["ApiKeyAuth"], "type": "apiKey", "in": "header", "name": "X-API-Key"}
    assert schemes["PartnerJWT"] == {**schemes["PartnerJWT"], "type": "http", "scheme": "bearer", "bearerFormat": "JWT"}
    headers = {s["name"] for s in schemes.values() if s["type"] == "apiKey"}
    assert headers == {"X-API-Key", "X-User-Subject", "X-User-Role", "X-User-Unit", "X-User-Level"}
    query = spec["paths"]["/query"]["post"]["security"]
    assert {"ApiKeyAuth": [], "PartnerJWT": []} in query and {"ApiKeyAuth": []} in query
    assert any("UserSubject" in requirement and "UserLevel" in requirement for requirement in query)
    assert spec["paths"]["/playground"]["post"]["security"] == query
    assert spec["paths"]["/api/public/rag/chat"]["post"]["security"] == []


def test_error_bodies_have_the_real_shapes(spec):
    query = spec["paths"]["/query"]["post"]["responses"]
    assert set(query) >= {"200", "400", "401", "404", "409", "413", "422", "502"}
    unauthorized = {e["value"]["detail"] for e in query["401"]["content"]["application/json"]["examples"].values()}
    assert {"Invalid or missing API key", "Authenticated principal required", "Invalid authenticated principal"} <= unauthorized
    validation = resolve(spec, query["422"]["content"]["application/json"]["schema"])
    assert validation["properties"]["detail"]["type"] == "array"
    assert "not found" in query["404"]["content"]["application/json"]["example"]["detail"]
    assert "another answer route" in spec["paths"]["/query/v2"]["post"]["responses"]["409"]["content"][
        "application/json"]["example"]["detail"]
    chat = spec["paths"]["/api/public/rag/chat"]["post"]["responses"]
    assert chat["429"]["content"]["application/json"]["example"]["code"] == "RATE_LIMITED"
    assert "422" not in chat  # the public chat answers bad bodies with 400 BAD_REQUEST


def test_stream_routes_document_their_event_order(spec):
    for path, events in (("/query/stream", ["message.start", "citation", "answer.delta", "faithfulness", "done"]),
                         ("/query/v2/stream", ["message.start", "citation", "annotations", "answer.delta", "done"]),
                         ("/api/public/rag/chat", ["start", "phase", "delta", "done"])):
        operation = spec["paths"][path]["post"]
        stream = operation["responses"]["200"]["content"]["text/event-stream"]["example"]
        names = re.findall(r"^event: (\S+)$", stream, flags=re.M)
        assert [n for n in dict.fromkeys(names) if n in events] == events, (path, names)
        for event in events + ["error"]:
            assert f"`{event}`" in operation["description"], (path, event)


def test_real_answers_fit_the_documented_schemas_and_the_examples_answer(api_client, spec):
    from retrieval.services import sample_corpus_ingest
    from tests.conftest import corpus_statistics_refresh

    sample_corpus_ingest()
    corpus_statistics_refresh()   # the term shares of this corpus, not of whatever autovacuum last sampled
    for path in ("/search", "/query", "/query/v2", "/conversations"):
        operation = spec["paths"][path]["post"]
        body = operation["requestBody"]["content"]["application/json"]["example"]
        response = api_client.post(path, data=body, content_type="application/json")
        code = "201" if path == "/conversations" else "200"
        assert response.status_code == int(code), (path, response.content[:300])
        schema = operation["responses"][code]["content"]["application/json"]["schema"]
        errors = [e.message for e in validator(spec, schema).iter_errors(response.json())]
        assert not errors, (path, errors)
    answer = api_client.post("/query", data={"query": "Berapa lama Badan Publik wajib menjawab permintaan informasi publik?"},
                             content_type="application/json").json()
    assert answer["citations"] and answer["grounding_rate"] is not None


def test_docs_name_the_answerer_and_embedder_this_server_runs(live_server_factory):
    default = httpx.get(live_server_factory().url + "/openapi.json").json()["info"]["description"]
    assert "Answerer: embedded default: deterministic" in default
    assert "Embedder: deterministic hashing embedder" in default
    model = live_server_factory(ACEH_RAG_LLM__BASE_URL="http://127.0.0.1:9", ACEH_RAG_LLM__MODEL="qwen2.5:7b-instruct")
    described = httpx.get(model.url + "/openapi.json").json()["info"]["description"]
    assert "Answerer: model server: agent `qwen2.5:7b-instruct`" in described


def test_top_k_is_documented_as_one_to_fifty(client):
    # The 422 for 0 stays the seed's "greater_than" body; the schema says what that means for an integer.
    top_k = client.get("/openapi.json").json()["components"]["schemas"]["SearchRequest"]["properties"]["top_k"]
    assert (top_k["minimum"], top_k["maximum"]) == (1, 50) and "exclusiveMinimum" not in top_k


def test_the_reason_table_names_every_selection_reason_and_the_uuid_note(spec):
    description = spec["info"]["description"]
    table = description.split("**Refusal and notice reasons**", 1)[1]
    for reason in ("source_scope_empty", "source_out_of_scope", "source_scope_unavailable", "mcp_source_unavailable",
                   "context_budget_exhausted"):
        assert f"| `{reason}` |" in table
    assert "UUID strings" in description and "`42`" in description and "422" in description
    assert "`[chunk:<uuid>]` label after each claim on every path" in description and "`[tool:<call>]`" in description


@pytest.mark.parametrize("method, path, body", [
    ("POST", "/query", {"query": "zakat", "conversation_id": 42}),
    ("POST", "/query/v2", {"query": "zakat", "conversation_id": "42"}),
    ("GET", "/conversations/42", None),
])
def test_an_integer_conversation_id_is_a_422(client, method, path, body):
    from tests.conftest import TEST_API_KEY

    response = (client.post(path, body, content_type="application/json", HTTP_X_API_KEY=TEST_API_KEY)
                if method == "POST" else client.get(path, HTTP_X_API_KEY=TEST_API_KEY))
    assert response.status_code == 422 and response.json()["code"] == "validation_error"
