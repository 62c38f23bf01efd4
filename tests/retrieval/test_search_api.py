"""POST /search: the seed's scoping tables, access matrix, statuses."""
from __future__ import annotations

import uuid
from dataclasses import replace

import pytest
from django.conf import settings
from django.test import override_settings

from tests.factories import make_document
from tests.http_fakes import FakeModelServer

pytestmark = pytest.mark.django_db

MODES = ["hybrid", "semantic", "lexical"]


def search(client, **body):
    body.setdefault("top_k", 50)
    return client.post("/search", data=body, content_type="application/json")


def doc_ids(response) -> set[str]:
    assert response.status_code == 200, response.content
    return {result["document_id"] for result in response.json()["results"]}


@pytest.fixture
def corpus():
    """Three collections' worth of documents, all mentioning 'retribusi pasar'."""
    jdih = make_document(title="Qanun Retribusi Pasar", collection="JDIH", chunks=["Retribusi pasar dipungut setiap bulan."])
    ppid = make_document(title="Laporan PPID Retribusi", collection="PPID", chunks=["Laporan retribusi pasar tahunan."])
    data = make_document(title="Data Retribusi", collection="SatuData", chunks=["Tabel retribusi pasar per kabupaten."])
    return {"JDIH": str(jdih.id), "PPID": str(ppid.id), "SatuData": str(data.id)}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "collection_ids,expected",
    [
        ("omitted", {"JDIH", "PPID", "SatuData"}),
        (None, {"JDIH", "PPID", "SatuData"}),
        ([], {"JDIH", "PPID", "SatuData"}),
        (["  ", ""], {"JDIH", "PPID", "SatuData"}),
        ([" JDIH ", "PPID", "JDIH"], {"JDIH", "PPID"}),
        (["JDIH", "NoSuchCollection"], {"JDIH"}),
        (["NoSuchCollection"], set()),
    ],
)
def test_collection_scoping_table(api_client, corpus, mode, collection_ids, expected):
    body = {"query": "retribusi pasar", "mode": mode}
    if collection_ids != "omitted":
        body["collection_ids"] = collection_ids
    assert doc_ids(search(api_client, **body)) == {corpus[name] for name in expected}


@pytest.mark.parametrize("mode", MODES)
def test_document_scoping_table(api_client, corpus, mode):
    everything = set(corpus.values())
    for value in ("omitted", None, []):
        body = {"query": "retribusi pasar", "mode": mode}
        if value != "omitted":
            body["document_ids"] = value
        assert doc_ids(search(api_client, **body)) == everything
    upper = corpus["PPID"].upper()
    assert doc_ids(search(api_client, query="retribusi pasar", mode=mode, document_ids=[upper, corpus["PPID"]])) == {corpus["PPID"]}
    both = [corpus["JDIH"], corpus["PPID"]]
    assert doc_ids(search(api_client, query="retribusi pasar", mode=mode, document_ids=both, collection_ids=["PPID"])) == {corpus["PPID"]}
    assert doc_ids(search(api_client, query="retribusi pasar", mode=mode, document_ids=[str(uuid.uuid4())])) == set()


def test_malformed_document_id_is_422(api_client, corpus):
    response = search(api_client, query="retribusi", document_ids=["42"])
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "document_ids", 0]


@pytest.mark.parametrize("query", [" ", "\n\t "])
def test_whitespace_query_is_400(api_client, query):
    response = search(api_client, query=query)
    assert (response.status_code, response.json()) == (400, {"detail": "Query must not be empty", "code": "query_empty"})


def test_no_match_is_200_with_empty_results(api_client):
    response = search(api_client, query="retribusi", mode="lexical")
    assert response.status_code == 200 and response.json() == {"mode": "lexical", "results": []}


def test_response_fields_and_types(api_client, corpus):
    response = search(api_client, query="retribusi pasar", top_k=2)
    body = response.json()
    assert set(body) == {"mode", "results"} and body["mode"] == "hybrid"
    assert 1 <= len(body["results"]) <= 2
    for result in body["results"]:
        assert set(result) == {"chunk_id", "document_id", "ordinal", "text", "score", "citation"}
        citation = result["citation"]
        assert set(citation) == {
            "kind", "document_id", "document_title", "chunk_id", "chunk_ordinal", "page_number",
            "section_path", "legal_reference", "char_start", "char_end",
        }
        assert citation["kind"] == "chunk"
        assert citation["chunk_id"] == result["chunk_id"] and citation["document_id"] == result["document_id"]
        assert citation["chunk_ordinal"] == result["ordinal"]
        assert isinstance(result["score"], float) and isinstance(citation["section_path"], list)
        assert isinstance(citation["char_start"], int) and citation["char_end"] > citation["char_start"]
    scores = [r["score"] for r in body["results"]]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("mode", MODES)
def test_ordering_is_deterministic(api_client, corpus, mode):
    first = search(api_client, query="retribusi pasar", mode=mode).json()
    for _ in range(3):
        assert search(api_client, query="retribusi pasar", mode=mode).json() == first


# --- access matrix -----------------------------------------------------------


@pytest.fixture
def restricted_corpus():
    docs = {
        "public": make_document(title="Zakat Umum", chunks=["Ketentuan zakat profesi berlaku umum."]),
        "confidential": make_document(title="Zakat Rahasia", chunks=["Ketentuan zakat rahasia internal."], confidential=True),
        "unit": make_document(title="Zakat Bappeda", chunks=["Ketentuan zakat khusus Bappeda."], org_unit="Bappeda"),
        "level3": make_document(title="Zakat Eselon", chunks=["Ketentuan zakat untuk eselon."], min_level=3),
    }
    return {name: str(doc.id) for name, doc in docs.items()}


def headers(subject=None, role=None, unit=None, level=None):
    values = {"HTTP_X_USER_SUBJECT": subject, "HTTP_X_USER_ROLE": role, "HTTP_X_USER_UNIT": unit, "HTTP_X_USER_LEVEL": level}
    return {k: v for k, v in values.items() if v is not None}


ACCESS_MATRIX = [
    ("anonymous", {}, True, {"public"}),
    ("unverified, claims unit and level", headers("emp", unit="Bappeda", level="9"), False, {"public"}),
    ("verified, no claims", headers("emp"), True, {"public", "confidential"}),
    ("unit match", headers("emp", unit="Bappeda"), True, {"public", "confidential", "unit"}),
    ("unit mismatch", headers("emp", unit="Dinkes"), True, {"public", "confidential"}),
    ("level below", headers("emp", level="2"), True, {"public", "confidential"}),
    ("level at", headers("emp", level="3"), True, {"public", "confidential", "level3"}),
    ("level above", headers("emp", level="4"), True, {"public", "confidential", "level3"}),
    ("admin", headers("boss", role="admin"), True, {"public", "confidential", "unit", "level3"}),
    ("unverified admin", headers("boss", role="admin"), False, {"public"}),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case,request_headers,trusted,expected", ACCESS_MATRIX, ids=[row[0] for row in ACCESS_MATRIX])
def test_access_matrix(api_client, restricted_corpus, mode, case, request_headers, trusted, expected):
    config = replace(settings.ACEH_RAG, auth=replace(settings.ACEH_RAG.auth, trust_identity_headers=trusted))
    with override_settings(ACEH_RAG=config):
        response = api_client.post(
            "/search", data={"query": "ketentuan zakat", "mode": mode, "top_k": 50},
            content_type="application/json", **request_headers,
        )
    assert doc_ids(response) == {restricted_corpus[name] for name in expected}


def test_restricted_citation_carries_its_restrictions(api_client, restricted_corpus):
    response = api_client.post(
        "/search", data={"query": "ketentuan zakat", "top_k": 50}, content_type="application/json",
        **headers("boss", role="admin"),
    )
    citations = {r["document_id"]: r["citation"] for r in response.json()["results"]}
    assert "confidential" not in citations[restricted_corpus["public"]]
    assert "owning_org_unit" not in citations[restricted_corpus["public"]]
    assert citations[restricted_corpus["confidential"]]["confidential"] is True
    assert citations[restricted_corpus["unit"]]["owning_org_unit"] == "Bappeda"
    assert citations[restricted_corpus["level3"]]["min_position_level"] == 3


# --- dependency failures -------------------------------------------------------


def test_embedder_failure_is_502(api_client, corpus):
    with FakeModelServer(lambda path, body: (500, {"error": "model crashed"})) as fake:
        embedding = replace(settings.ACEH_RAG.embedding, backend="openai", base_url=fake.url, model="e5-remote")
        with override_settings(ACEH_RAG=replace(settings.ACEH_RAG, embedding=embedding)):
            response = search(api_client, query="retribusi pasar", mode="hybrid")
    assert response.status_code == 502
    assert "Embedding" in response.json()["detail"]
    assert fake.requests and fake.requests[0][0] == "/v1/embeddings"


def test_remote_embedder_speaks_openai_protocol(api_client):
    from retrieval.embedders import OpenAIEmbedder

    def reply(path, body):
        return 200, {"object": "list", "data": [{"object": "embedding", "index": i, "embedding": [1.0] + [0.0] * 383}
                                                 for i, _ in enumerate(body["input"])], "model": body["model"]}

    with FakeModelServer(reply) as fake:
        vectors = OpenAIEmbedder(fake.url, "e5-remote", None, 5.0, 2).embed_passages(["a", "b", "c"])
    assert vectors.shape == (3, 384)
    assert [body["input"] for _, body in fake.requests] == [["passage: a", "passage: b"], ["passage: c"]]
