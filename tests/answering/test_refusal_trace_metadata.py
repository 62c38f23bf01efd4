"""Refusal and trace metadata (seed, query-search-api): ``metadata.synthesis.prompt_budget`` on a
context-budget refusal, and the answer trace's ``followup_documents``. Against real servers, read back through
GET /conversations/{id} as a partner's operator would."""
from __future__ import annotations

import httpx
import pytest

from tests.answering.scripted_model import ScriptedModel, completion, tool_call
from tests.conftest import TEST_API_KEY, purge_committed_corpus
from tests.http_fakes import FakeModelServer

pytestmark = pytest.mark.django_db

KEY = {"X-API-Key": TEST_API_KEY}
LONG = "Zakat profesi dihitung dari penghasilan bersih pegawai setiap bulan. " * 20
PAJAK = [
    "Pembebasan tunggakan pokok Pajak Kendaraan Bermotor sebesar 100% (seratus persen), kecuali masa pajak tahun berjalan.",
    "Pembebasan Pajak atas Kendaraan Bermotor berdasarkan Peraturan Gubernur ini berlaku sampai dengan 30 April 2026.",
]
BUDGET_KEYS = {"initial_passages", "initial_source_chars", "grounding_char_limit", "grounding_chars_used",
               "token_pool", "initial_passages_dropped", "tool_passages_trimmed", "tool_results_dropped"}


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    from tests.factories import make_document

    with django_db_blocker.unblock():
        long = make_document(title="Pedoman Zakat Profesi", chunks=[LONG])
        pajak = make_document(title="Peraturan Gubernur Aceh Nomor 25 Tahun 2025 tentang Pembebasan Pajak Kendaraan "
                                    "Bermotor", chunks=PAJAK)
    yield {"long": str(long.id), "pajak": str(pajak.id)}
    with django_db_blocker.unblock():
        purge_committed_corpus()


def ask(server, route, **body):
    response = httpx.post(server.url + route, json=body, headers=KEY, timeout=60)
    assert response.status_code == 200, response.text
    return response.json()


def stored(server, body) -> dict:
    conversation = httpx.get(f"{server.url}/conversations/{body['conversation_id']}", headers=KEY, timeout=30).json()
    return conversation["messages"][-1]["metadata"]


def searching(body):
    if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
        return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": "zakat profesi"})])
    return completion("Tidak ada bukti.")


@pytest.mark.parametrize("route", ["/query", "/query/v2"])
def test_a_context_budget_refusal_stores_its_prompt_budget(live_server_factory, corpus, route):
    model = ScriptedModel(agent=searching)
    with FakeModelServer(model) as fake:
        server = live_server_factory(ACEH_RAG_LLM__BASE_URL=fake.url, ACEH_RAG_LLM__MODEL="scripted",
                                     ACEH_RAG_LLM__CONTEXT_WINDOW_TOKENS="1800", ACEH_RAG_LLM__ROUND_MAX_TOKENS="200")
        body = ask(server, route, query="Bagaimana zakat profesi dihitung?", document_ids=[corpus["long"]])
    assert (body["fallback_used"], body["fallback_reason"]) == (True, "context_budget_exhausted")
    budget = stored(server, body)["synthesis"]["prompt_budget"]
    assert set(budget) == BUDGET_KEYS
    assert budget["token_pool"]["context_window_tokens"] == 1800 and budget["token_pool"]["output_tokens"] == 200
    assert budget["token_pool"]["input_room_tokens"] == 1600
    # What was offered did not fit in what was free: the figures say so and by how much.
    assert budget["initial_passages"] >= 1 and budget["initial_source_chars"] >= len(LONG.strip())
    assert budget["grounding_char_limit"] < budget["initial_source_chars"]
    assert budget["initial_passages_dropped"] + budget["tool_results_dropped"] >= 1
    assert budget["grounding_chars_used"] <= budget["grounding_char_limit"]


def test_an_answer_stores_no_prompt_budget(live_server_factory, corpus):
    body = ask(live_server_factory(), "/query", query="Berapa persen pembebasan tunggakan pokok pajak kendaraan bermotor?")
    assert body["fallback_used"] is False and "prompt_budget" not in stored(live_server_factory(), body)["synthesis"]


def test_the_trace_records_each_carried_document(live_server_factory, corpus):
    server = live_server_factory()
    first = ask(server, "/query", query="Berapa persen pembebasan tunggakan pokok pajak kendaraan bermotor?")
    assert stored(server, first)["trace"]["followup_documents"] == []
    later = ask(server, "/query", query="yang tadi berlaku sampai kapan?", conversation_id=first["conversation_id"])
    assert "30 April 2026" in later["answer"]
    assert stored(server, later)["trace"]["followup_documents"] == [
        {"document_id": corpus["pajak"], "reached_rerank_pool": True, "cited": True}]
    other = ask(server, "/query", query="Bagaimana zakat profesi dihitung?", conversation_id=first["conversation_id"])
    assert stored(server, other)["trace"]["followup_documents"] == []
