"""The follow-up judge's failure leaves the question alone, against a real model-backed server.

Seed (query-search-api, "Document follow-ups"): the judge "must return a strict boolean true and known exchange
IDs before sources are carried"; "Unavailable, malformed, nonboolean, or timed out classification leaves the
original query unchanged". Nothing is carried then: no follow-up search arm, no carried document ids.
"""
from __future__ import annotations

import json
import re
import time

import httpx
import pytest

from tests.answering.scripted_model import ScriptedModel, careful_agent, completion, first_sentence, shown_passages
from tests.conftest import TEST_API_KEY, purge_committed_corpus
from tests.http_fakes import FakeModelServer

pytestmark = pytest.mark.django_db

KEY = {"X-API-Key": TEST_API_KEY}
PAJAK = [
    "Pembebasan tunggakan pokok Pajak Kendaraan Bermotor sebesar 100% (seratus persen), kecuali masa pajak tahun berjalan.",
    "Pembebasan Pajak atas Kendaraan Bermotor berdasarkan Peraturan Gubernur ini berlaku sampai dengan 30 April 2026.",
]
FIRST = "Berapa persen pembebasan tunggakan pokok pajak kendaraan bermotor?"
FOLLOW_UP = "yang tadi berlaku sampai kapan?"


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    from tests.factories import make_document

    with django_db_blocker.unblock():
        pajak = make_document(title="Peraturan Gubernur Aceh Nomor 25 Tahun 2025 tentang Pembebasan Pajak Kendaraan "
                                    "Bermotor", chunks=PAJAK)
    yield {"pajak": str(pajak.id)}
    with django_db_blocker.unblock():
        purge_committed_corpus()


def agent(body):
    """Searches once, then answers from the first passage: prose on /query, segments on /query/v2."""
    passages = shown_passages(body)
    searched = any(m["role"] == "tool" for m in body["messages"])
    if '"segments"' not in body["messages"][0]["content"] or not passages or ("tools" in body and not searched):
        return careful_agent(body, query="pajak kendaraan")
    label, text = passages[0]
    return completion(json.dumps({"segments": [{"text": first_sentence(text), "kind": "fact", "cites": [label],
                                                "layout": "paragraph"}]}))


@pytest.fixture(scope="module")
def model():
    scripted = ScriptedModel(agent=agent)
    with FakeModelServer(scripted) as fake:
        scripted.url = fake.url
        yield scripted


@pytest.fixture(scope="module")
def server(live_server_factory, corpus, model):
    return live_server_factory(ACEH_RAG_LLM__BASE_URL=model.url, ACEH_RAG_LLM__MODEL="scripted",
                               ACEH_RAG_LLM__MAX_RETRIES="0")


def ask(server, route, **body):
    response = httpx.post(server.url + route, json={"include_provenance": True, **body}, headers=KEY, timeout=60)
    assert response.status_code == 200, response.text
    return response.json()


def followup_record(server, body) -> dict:
    stored = httpx.get(f"{server.url}/conversations/{body['conversation_id']}", headers=KEY, timeout=30).json()
    return stored["messages"][-1]["metadata"]["retrieval"]["followup"]


def judge(reply, delay: float = 0.0):
    def script(body):
        time.sleep(delay)
        if reply == "down":
            return 500, {"error": {"message": "judge down"}}
        shown = [int(n) for n in re.findall(r"^Exchange (\d+)$", body["messages"][-1]["content"], re.M)]
        return completion(reply(shown) if callable(reply) else reply)
    return script


FAILURES = {
    "unavailable": judge("down"),
    "malformed": judge("ya, ini pertanyaan lanjutan"),
    "non_boolean": judge(lambda shown: json.dumps({"followup": "true", "exchanges": shown})),
    "unknown_exchange": judge(json.dumps({"followup": True, "exchanges": [99]})),
    "timed_out": judge(lambda shown: json.dumps({"followup": True, "exchanges": shown}), delay=6.0),
}


@pytest.mark.parametrize("route", ["/query", "/query/v2"])
@pytest.mark.parametrize("failure", list(FAILURES))
def test_a_failed_judge_carries_nothing_and_searches_the_question_as_asked(server, model, corpus, route, failure):
    model.scripts["followup"] = None
    first = ask(server, route, query=FIRST)
    assert first["citations"], first
    model.scripts["followup"] = FAILURES[failure]
    calls = len(model.calls)
    body = ask(server, route, query=FOLLOW_UP, conversation_id=first["conversation_id"])
    assert [kind for kind, _ in model.calls[calls:]].count("followup") == 1
    record = followup_record(server, body)
    assert (record["decision"], record["followup_document_ids"]) == ("not_carried", [])
    searches = [entry for entry in body["tool_call_audit"] if entry.get("tool") == "search_documents"]
    assert searches and not any(entry.get("followup_document_ids") for entry in searches)
    assert all(entry["executed_arguments"] == entry["proposed_arguments"] for entry in searches)


def test_a_strict_true_with_known_exchanges_still_carries(server, model, corpus):
    model.scripts["followup"] = None
    first = ask(server, "/query", query=FIRST)
    model.scripts["followup"] = judge(lambda shown: json.dumps({"followup": True, "exchanges": shown}))
    body = ask(server, "/query", query=FOLLOW_UP, conversation_id=first["conversation_id"])
    record = followup_record(server, body)
    assert (record["decision"], record["followup_document_ids"], record["mechanism"]) == (
        "carried", [corpus["pajak"]], "model")
