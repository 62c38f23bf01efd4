"""The seeds' answer fields on /query and /query/v2, against real uvicorn servers (issue #19).

Seeds: query-search-api ("Response fields", the passage frame's grounding object, "Document follow-ups"'
tool_call_audit) and query-v2 ("Response": the kept fields and the opt-ins).
"""
from __future__ import annotations

import httpx
import pytest

from tests.answering.scripted_model import completion, first_sentence, shown_passages, tool_call
from tests.answering.seed_contract import (  # noqa: F401  (fixtures)
    KEY, QUESTION, corpus, model, modelled, post, scripted, server, stored_assistant, verdicts,
)
from tests.sse_client import stream

pytestmark = pytest.mark.django_db

GROUNDING_CHUNK_FIELDS = {"kind", "text", "chunk_id", "source_type", "score", "citation_key"}
AUDIT_FIELDS = {"call", "tool", "proposed_arguments", "executed_arguments", "ok", "ms", "result"}
OPT_INS = {"grounding", "used_docs", "tool_call_audit", "model_call_log"}

# -- 1. response fields --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/query", "/query/v2"])
def test_tool_fields_always_and_opt_ins_only_when_asked(server, corpus, path):
    plain = post(server, path, query=QUESTION)
    assert plain.status_code == 200, plain.text
    body = plain.json()
    assert body["tool"] == "vector_search" and body["tool_executed"] is True
    assert not OPT_INS & set(body)
    if path == "/query":
        assert body["dropped_claim_reasons"] == {} and body["dropped_claims_count"] == 0
    else:
        assert "dropped_claim_reasons" not in body

    asked = post(server, path, query=QUESTION, include_grounding=True, include_provenance=True).json()
    assert OPT_INS <= set(asked)
    assert asked["grounding"], asked
    for item in asked["grounding"]:
        assert set(item) == GROUNDING_CHUNK_FIELDS and item["kind"] == "chunk" and item["source_type"] == "document"
        assert isinstance(item["score"], float) and item["text"]
    assert [g["chunk_id"] for g in asked["grounding"]] == [c["chunk_id"] for c in asked["citations"]]
    assert asked["used_docs"] == list(dict.fromkeys(c["document_id"] for c in asked["citations"]))
    assert corpus["zakat"] in asked["used_docs"]
    searches = [entry for entry in asked["tool_call_audit"] if entry["tool"] == "search_documents"]
    assert searches and all(set(entry) == AUDIT_FIELDS for entry in searches)
    assert all(entry["proposed_arguments"] == entry["executed_arguments"] for entry in asked["tool_call_audit"])
    assert searches[0]["executed_arguments"]["query"] == QUESTION and searches[0]["ok"] is True
    assert asked["model_call_log"] == []          # the deterministic path calls no model


def test_the_stored_message_keeps_the_fields(server, corpus):
    body = post(server, "/query", query=QUESTION).json()
    metadata = stored_assistant(server, body)["metadata"]
    synthesis = metadata["synthesis"]
    assert (synthesis["tool"], synthesis["tool_executed"]) == ("vector_search", True)
    assert synthesis["used_docs"] == [corpus["zakat"]]
    assert synthesis["tool_call_audit"][0]["proposed_arguments"] == synthesis["tool_call_audit"][0]["executed_arguments"]
    assert synthesis["faithfulness"]["dropped_claim_reasons"] == {}
    assert metadata["model_call_log"] == []


def test_stream_passage_frames_are_the_json_grounding_objects(server, corpus):
    """One serialiser: the JSON grounding items are exactly the stream's passage frames (opt-ins are JSON-only)."""
    asked = post(server, "/query", query=QUESTION, include_grounding=True).json()
    response, frames = stream(server.url + "/query/stream", {"query": QUESTION, "include_grounding": True}, KEY)
    assert response.status_code == 200
    assert [data for name, data in frames if name == "passage"] == asked["grounding"]
    assert not any("grounding" in data for _, data in frames)


def test_dropped_claim_reasons_count_each_dropped_claim(modelled, model, corpus):
    def agent(body):
        if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
            return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": "zakat"})])
        label, text = shown_passages(body)[0]
        return completion(f"{first_sentence(text)} [{label}]. Zakat juga dibayar ke kantor pos [{label}]. "
                          f"Baitul Mal Aceh menerima zakat setiap muzakki [{label}].")

    model.scripts.update(agent=agent, judge=verdicts("kantor pos"))
    body = post(modelled, "/query", query=QUESTION, include_provenance=True).json()
    assert body["dropped_claims_count"] == 1 and body["dropped_claim_reasons"] == {"no_support": 1}
    assert "kantor pos" not in body["answer"]
    purposes = [entry["purpose"] for entry in body["model_call_log"]]
    assert "agent" in purposes and "judge" in purposes
    agent_search = [e for e in body["tool_call_audit"] if e["tool"] == "search_documents"
                    and e["executed_arguments"]["query"] == "zakat"]
    assert agent_search and agent_search[0]["proposed_arguments"] == {"query": "zakat", "mode": "hybrid", "top_k": 8}
    stored = stored_assistant(modelled, body)["metadata"]["synthesis"]["faithfulness"]
    assert stored["dropped_claim_reasons"] == {"no_support": 1}


def test_openapi_lists_each_answer_routes_statuses_and_the_new_fields(server):
    schema = httpx.get(server.url + "/openapi.json", headers=KEY, timeout=30).json()
    components = schema["components"]["schemas"]
    for path in ("/query", "/query/stream", "/query/v2", "/query/v2/stream"):
        responses = schema["paths"][path]["post"]["responses"]
        assert {"200", "400", "401", "403", "404", "409", "413", "422", "502", "503"} <= set(responses), path
        assert "time bound" in responses["502"]["description"]
        assert "database" in responses["503"]["description"].lower()
    assert "nothing readable" in schema["paths"]["/query/v2"]["post"]["responses"]["404"]["description"]
    assert "time bound" in schema["paths"]["/search"]["post"]["responses"]["502"]["description"]
    v1 = components["QueryResponse"]["properties"]
    v2 = components["QueryV2Response"]["properties"]
    for fields in (v1, v2):
        assert {"tool", "tool_executed", "grounding", "used_docs", "tool_call_audit", "model_call_log"} <= set(fields)
        assert "include_grounding" in fields["grounding"]["description"]
        assert "include_provenance" in fields["tool_call_audit"]["description"]
    assert "dropped_claim_reasons" in v1 and "dropped_claim_reasons" not in v2
    request = components["QueryRequest"]["properties"]
    assert "grounding" in request["include_grounding"]["description"]
    assert "tool_call_audit" in request["include_provenance"]["description"]
