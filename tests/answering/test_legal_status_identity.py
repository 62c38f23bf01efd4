"""ADR-0053 surfacing: every passage identity the agent reads states its legal status, "unknown" included
(seed, query-search-api: "A document no indexed regulation speaks about stays legal_status="unknown". That is
not a statement that it is in force."). /query/v2 with ACEH_RAG_LEGAL_RELATIONS__SURFACE_ENABLED=true, against
a real server and the scripted model, reading the passage blocks the server really sent."""
from __future__ import annotations

import json
import re

import httpx
import pytest

from tests.answering.scripted_model import ScriptedModel, completion, first_sentence, shown_passages, tool_call
from tests.conftest import TEST_API_KEY, purge_committed_corpus
from tests.http_fakes import FakeModelServer
from tests.retrieval.relations.regulations import pergub

pytestmark = pytest.mark.django_db

KEY = {"X-API-Key": TEST_API_KEY}
OLD = pergub("5", 2025, "Dasar Pengenaan Pajak Alat Berat", [
    "Dasar pengenaan pajak alat berat ditetapkan sebesar 0,2 persen dari nilai jual alat berat.",
])
NEW = pergub("33", 2025, "Dasar Pengenaan Pajak Alat Berat Baru", [
    "Dasar pengenaan pajak alat berat ditetapkan sebesar 0,4 persen dari nilai jual alat berat.",
    "Pada saat Peraturan Gubernur ini mulai berlaku, Peraturan Gubernur Aceh Nomor 05 Tahun 2025 tentang Dasar "
    "Pengenaan Pajak Alat Berat (Berita Daerah Aceh Tahun 2025 Nomor 05), dicabut dan dinyatakan tidak berlaku.",
], promulgated="16 Desember 2025")
BLOCK = re.compile(r'<passage key="(P\d+)" document_id="([^"]+)" source="([^"]*)"')


@pytest.fixture(scope="module")
def regulations(django_db_setup, django_db_blocker):
    from tests.factories import make_document

    with django_db_blocker.unblock():
        old = make_document(text=OLD, filename="pergub-5-2025.txt")
        new = make_document(text=NEW, filename="pergub-33-2025.txt")
    yield {"old": str(old.id), "new": str(new.id)}
    with django_db_blocker.unblock():
        purge_committed_corpus()


def agent(body):
    if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
        return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents",
                                                                           {"query": "dasar pengenaan pajak alat berat"})])
    label, text = shown_passages(body)[0]
    return completion(json.dumps({"segments": [{"text": first_sentence(text), "kind": "fact", "cites": [label],
                                                "layout": "paragraph"}]}))


@pytest.fixture(scope="module")
def model():
    scripted = ScriptedModel(agent=agent)
    with FakeModelServer(scripted) as fake:
        scripted.url = fake.url
        yield scripted


def identities(model) -> dict[str, set[str]]:
    """document_id → every identity the agent was shown for it."""
    found: dict[str, set[str]] = {}
    for body in model.bodies("agent"):
        for message in body["messages"]:
            for _, document_id, source in BLOCK.findall(message.get("content") or ""):
                found.setdefault(document_id, set()).add(source)
    return found


def test_a_document_no_regulation_speaks_about_states_unknown(live_server_factory, regulations, model):
    server = live_server_factory(ACEH_RAG_LLM__BASE_URL=model.url, ACEH_RAG_LLM__MODEL="scripted",
                                 ACEH_RAG_LLM__MAX_RETRIES="0", ACEH_RAG_LEGAL_RELATIONS__SURFACE_ENABLED="true")
    response = httpx.post(server.url + "/query/v2", json={"query": "Berapa persen dasar pengenaan pajak alat berat?"},
                          headers=KEY, timeout=60)
    assert response.status_code == 200, response.text
    shown = identities(model)
    assert shown[regulations["old"]] and all("legal_status: revoked (dicabut oleh" in s for s in shown[regulations["old"]])
    # Nothing indexed revokes or amends the newer regulation: its identity says so, with no basis.
    assert shown[regulations["new"]] and all(s.endswith("legal_status: unknown") for s in shown[regulations["new"]])
    # The response and citation shapes are unchanged (seed): no status field in a citation.
    assert all("legal_status" not in c for c in response.json()["citations"])
