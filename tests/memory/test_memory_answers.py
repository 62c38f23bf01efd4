"""A question about the user answered from their long-term memory alone (seed, query-search-api: "A verified
pure-memory answer returns citations: [] with provenance_complete: true"; kind "memory" claims live in
claim_map). Against real servers: the deterministic default and the scripted model."""
from __future__ import annotations

import json
import re
import time
import uuid

import httpx
import pytest

from tests.answering.scripted_model import ScriptedModel, completion
from tests.conftest import TEST_API_KEY, purge_committed_corpus
from tests.http_fakes import FakeModelServer

pytestmark = pytest.mark.django_db

PPID = ("Pejabat Pengelola Informasi dan Dokumentasi wajib memberikan pemberitahuan tertulis atas permohonan "
        "informasi publik paling lambat 10 (sepuluh) hari kerja sejak permohonan diterima.")
WORK = "Lingkungan kerja Badan Publik meliputi wilayah kerja yang ditetapkan dalam peraturan ini."


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    from tests.factories import make_document

    with django_db_blocker.unblock():
        make_document(title="Pergub PPID", chunks=[PPID, WORK])
    yield
    with django_db_blocker.unblock():
        purge_committed_corpus()


def headers(subject: str) -> dict:
    return {"X-API-Key": TEST_API_KEY, "X-User-Subject": subject}


def ask(server, subject, query, route="/query"):
    response = httpx.post(server.url + route, json={"query": query}, headers=headers(subject), timeout=60)
    assert response.status_code == 200, response.text
    return response.json()


def remember_workplace(server) -> tuple[str, int]:
    subject = f"dsi-{uuid.uuid4().hex[:8]}"
    ask(server, subject, "Saya bekerja di Dinas Syariat Islam Aceh. Berapa hari PPID wajib memberikan pemberitahuan?")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        memories = httpx.get(server.url + "/memories", headers=headers(subject), timeout=30).json()
        if memories:
            assert memories[0]["text"] == "Works at Dinas Syariat Islam Aceh."
            return subject, memories[0]["id"]
        time.sleep(0.2)
    raise AssertionError("the memory was never learnt")


def memory_agent(workplace: str):
    """A model that answers from the remembered fact shown to it, citing its label (prose on /query, segments on
    /query/v2); ``workplace`` is what it says the user's workplace is."""
    def agent(body):
        text = "\n".join(m.get("content") or "" for m in body["messages"])
        label = re.search(r'<memory key="(M\d+)"', text)
        cites = [label.group(1)] if label else []
        sentence = f"Anda bekerja di {workplace}."
        if '"segments"' in body["messages"][0]["content"]:
            return completion(json.dumps({"segments": [{"text": sentence, "kind": "fact", "cites": cites,
                                                        "layout": "paragraph"}]}))
        return completion(f"{sentence[:-1]} [{cites[0]}]." if cites else "Tidak tahu.")
    return agent


@pytest.fixture(scope="module")
def scripted():
    model = ScriptedModel(agent=memory_agent("Dinas Syariat Islam Aceh"))
    with FakeModelServer(model) as fake:
        model.url = fake.url
        yield model


@pytest.fixture(params=["deterministic", "model"])
def server(request, live_server_factory, corpus, scripted):
    scripted.scripts["agent"] = memory_agent("Dinas Syariat Islam Aceh")
    if request.param == "deterministic":
        return live_server_factory()
    return live_server_factory(ACEH_RAG_LLM__BASE_URL=scripted.url, ACEH_RAG_LLM__MODEL="scripted",
                               ACEH_RAG_LLM__MAX_RETRIES="0")


def test_a_question_about_the_user_is_the_verified_pure_memory_answer(server):
    subject, memory_id = remember_workplace(server)
    body = ask(server, subject, "Di mana saya bekerja?")
    assert (body["fallback_used"], body["fallback_reason"]) == (False, None), body
    assert "Dinas Syariat Islam Aceh" in body["answer"]
    assert body["citations"] == [] and body["provenance_complete"] is True
    assert [c["citations"] for c in body["claim_map"]] == [[{"kind": "memory", "memory_id": memory_id,
                                                             "citation_key": "memory", "document_id": None,
                                                             "chunk_id": None}]]
    assert body["grounding_rate"] is None     # nothing checked against a document: "—", never 0%
    stored = httpx.get(f"{server.url}/conversations/{body['conversation_id']}", headers=headers(subject),
                       timeout=30).json()["messages"][-1]
    assert stored["source_citations"] == []
    assert [c["citations"][0]["kind"] for c in stored["metadata"]["synthesis"]["claims"]] == ["memory"]


def test_on_v2_the_memory_claim_is_from_the_conversation(server):
    subject, _ = remember_workplace(server)
    body = ask(server, subject, "Di mana saya bekerja?", route="/query/v2")
    assert body["fallback_used"] is False and body["citations"] == []
    assert [(c["verdict"], c["citation_keys"]) for c in body["claims"]] == [("from_conversation", ["memory"])]
    assert "Dinas Syariat Islam Aceh" in body["answer"]


def test_the_model_path_publishes_the_memory_not_the_models_wording(live_server_factory, corpus, scripted):
    server = live_server_factory(ACEH_RAG_LLM__BASE_URL=scripted.url, ACEH_RAG_LLM__MODEL="scripted",
                                 ACEH_RAG_LLM__MAX_RETRIES="0")
    subject, _ = remember_workplace(server)
    scripted.scripts["agent"] = memory_agent("Bappeda Aceh")      # a model misquoting the memory it cites
    body = ask(server, subject, "Di mana saya bekerja?")
    assert "Dinas Syariat Islam Aceh" in body["answer"] and "Bappeda" not in body["answer"]
    # A question about the documents is not answered by a memory alone.
    body = ask(server, subject, "Berapa hari PPID wajib memberikan pemberitahuan tertulis?")
    assert body["fallback_used"] is True and body["claim_map"] == []


