"""Seed "Retrieval reuse within one answer": identical arms retrieve once, concurrent calls share one in flight.

The store is exercised with real threads; the server test runs a real model-backed
server whose scripted agent sends one round of three searches, two of them identical,
and reads the answer's tool-call audit and its exported ``search_documents.arm`` spans.
"""
from __future__ import annotations

import json
import threading
import time

import pytest

from answering.answer.arms import ArmStore
from kernel.errors import RetrievalFailed
from tests.acehrag.test_tracing import EXPORT_FAST, exported
from tests.answering.scripted_model import completion, first_sentence, shown_passages, tool_call
from tests.answering.seed_contract import QUESTION, corpus, model, post, scripted  # noqa: F401 (fixtures)
from tests.http_fakes import OtlpReceiver

pytestmark = pytest.mark.django_db


def test_a_caller_asking_for_an_arm_in_flight_waits_for_that_retrieval_instead_of_starting_another():
    store: ArmStore[str] = ArmStore()
    entered, release = threading.Event(), threading.Event()
    runs: list[str] = []

    def slow():
        runs.append("ran")
        entered.set()
        release.wait(5)
        return "ranked"

    results: list[tuple[str, bool]] = []
    owner = threading.Thread(target=lambda: results.append(store.get("arm", slow)))
    owner.start()
    assert entered.wait(5)
    waiter = threading.Thread(target=lambda: results.append(store.get("arm", slow)))
    waiter.start()
    time.sleep(0.1)
    assert waiter.is_alive()            # it waits on the owner's retrieval...
    release.set()
    owner.join(5), waiter.join(5)
    assert runs == ["ran"]              # ...which ran once
    assert sorted(results) == [("ranked", False), ("ranked", True)]
    assert store.get("arm", slow) == ("ranked", True) and store.retrievals == 1


def test_a_failed_retrieval_reaches_its_waiters_and_is_not_stored():
    store: ArmStore[str] = ArmStore()
    entered, release = threading.Event(), threading.Event()

    def failing():
        entered.set()
        release.wait(5)
        raise RetrievalFailed("timed out", code="retrieval_timeout")

    outcomes: list[object] = []

    def call():
        try:
            outcomes.append(store.get("arm", failing))
        except RetrievalFailed as exc:
            outcomes.append(exc.code)

    owner = threading.Thread(target=call)
    owner.start()
    assert entered.wait(5)
    waiter = threading.Thread(target=call)
    waiter.start()
    time.sleep(0.1)
    release.set()
    owner.join(5), waiter.join(5)
    assert outcomes == ["retrieval_timeout", "retrieval_timeout"]
    # Not stored: a later call searches again.
    assert store.get("arm", lambda: "found later") == ("found later", False) and store.retrievals == 2


def test_different_arms_do_not_wait_on_each_other():
    store: ArmStore[str] = ArmStore()
    release = threading.Event()
    slow = threading.Thread(target=lambda: store.get("a", lambda: release.wait(5) and "a"))
    slow.start()
    time.sleep(0.05)
    assert store.get("b", lambda: "b") == ("b", False)   # not blocked behind "a"
    release.set()
    slow.join(5)


def three_searches(body):
    """One round of three searches (two identical), then an answer from the first passage shown.

    In /query/v2's segment format when the system prompt asks for it, else /query's prose.
    """
    if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
        return completion(None, finish="tool_calls", tool_calls=[
            tool_call("search_documents", {"query": "zakat"}, "call_a"),
            tool_call("search_documents", {"query": "zakat"}, "call_b"),
            tool_call("search_documents", {"query": "Baitul Mal"}, "call_c"),
        ])
    label, text = shown_passages(body)[0]
    if '"segments"' in body["messages"][0]["content"]:
        return completion(json.dumps({"segments": [
            {"text": first_sentence(text) + ".", "kind": "fact", "cites": [label], "layout": "paragraph"}]}))
    return completion(f"{first_sentence(text)} [{label}].")


@pytest.fixture(scope="module")
def receiver():
    with OtlpReceiver() as running:
        yield running


@pytest.fixture(scope="module")
def traced_model_server(live_server_factory, corpus, scripted, receiver):  # noqa: F811
    return live_server_factory(ACEH_RAG_LLM__BASE_URL=scripted.url, ACEH_RAG_LLM__MODEL="scripted",
                               ACEH_RAG_LLM__MAX_RETRIES="0", OTEL_EXPORTER_OTLP_ENDPOINT=receiver.url, **EXPORT_FAST)


@pytest.mark.parametrize("route", ["/query", "/query/v2"])
def test_identical_searches_of_one_round_retrieve_once_and_every_consumed_arm_is_a_span(
        traced_model_server, model, receiver, route):
    model.scripts["agent"] = three_searches
    response = post(traced_model_server, route, query=QUESTION, include_provenance=True)
    assert response.status_code == 200, response.text
    body = response.json()
    searches = [entry for entry in body["tool_call_audit"] if entry["tool"] == "search_documents"]
    queries = [entry["executed_arguments"]["query"] for entry in searches]
    # "zakat" asked twice, retrieved once; the question's own agent arm (no keyword leg) once per answer,
    # beside the evidence search made before the agent's first round.
    assert queries.count("zakat") == 1 and queries.count("Baitul Mal") == 1, queries
    question_arms = [e["executed_arguments"].get("keyword_leg", True) for e in searches
                     if e["executed_arguments"]["query"] == QUESTION]
    assert sorted(question_arms) == [False, True], queries
    assert body["citations"] if route == "/query" else [c["verdict"] for c in body["claims"]] == ["supported"]

    tree = exported(receiver, body["trace_id"])
    arms = tree.named("search_documents.arm")
    agent_arms = [a for a in arms if a.attributes["aceh_rag.arm.origin"] == "agent"]
    assert len(agent_arms) == 3                       # every consumed arm, the reused one included
    # The round's calls ran on the tool-call threads, still inside the answer's trace.
    assert {tree.parent(a).name for a in agent_arms} == {"answer.agent"}
    assert sorted(a.attributes["aceh_rag.arm.reused"] for a in agent_arms) == [False, False, True]
    for arm in agent_arms:                            # a fresh arm holds its retrieval; a reused one has none
        assert tree.children(arm) == ([] if arm.attributes["aceh_rag.arm.reused"] else ["tool.search_documents"])
    question_arms = [a for a in arms if a.attributes["aceh_rag.arm.origin"] == "question"]
    assert [a.attributes["aceh_rag.arm.reused"] for a in question_arms].count(False) == 1
    assert len(tree.named("tool.search_documents")) == len(searches) == 4
