"""claim_map kinds, agent rules by route and document follow-ups, against real uvicorn servers (issue #19).

Seeds: query-search-api ("Shared citation object" history and memory records, "Retrieval reuse within one
answer", "Document follow-ups", the v2-only search rules) and query-v2.
"""
from __future__ import annotations

import json
import uuid

import pytest

from tests.answering.scripted_model import completion, shown_passages, tool_call
from tests.answering.seed_contract import (  # noqa: F401  (fixtures)
    QUESTION, ZAKAT, corpus, model, modelled, post, scripted, server, stored_assistant,
)

pytestmark = pytest.mark.django_db

# -- 2. claim_map kinds --------------------------------------------------------------------------


def test_a_claim_restating_an_earlier_turn_is_a_history_record(modelled, model, corpus):
    headers = {"X-User-Subject": f"hist-{uuid.uuid4().hex[:6]}"}
    first = post(modelled, "/query", headers, query=QUESTION).json()
    assert first["fallback_used"] is False, first

    def agent(body):
        if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
            return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": "zakat"})])
        label, text = shown_passages(body)[0]
        return completion(f"Sebelumnya Anda bertanya ke mana zakat dibayar [H1]. {ZAKAT[:-1]} [{label}].")

    model.scripts.update(agent=agent)
    later = post(modelled, "/query", headers, query="Ulangi, ke mana muzakki membayar zakat?",
                 conversation_id=first["conversation_id"]).json()
    # The agent saw the earlier exchange under its label.
    history = [m["content"] for m in model.bodies("agent")[-1]["messages"] if m["role"] == "user"]
    assert history[0] == f"[H1] {QUESTION}"
    records = [c for claim in later["claim_map"] for c in claim["citations"]]
    history_records = [c for c in records if c["kind"] == "history"]
    assert history_records == [{"kind": "history", "turn_index": 0, "citation_key": "history",
                                "document_id": None, "chunk_id": None}]
    assert not {"document_title", "section_path"} & set(history_records[0])
    # Only chunk/tool sources are citations; the restated turn is in neither grounding count.
    assert later["citations"] and all(c["kind"] == "chunk" for c in later["citations"])
    assert (later["claims_supported"], later["claims_total"]) == (1, 1)
    stored = stored_assistant(modelled, later, headers)
    assert {"kind": "history", "turn_index": 0, "citation_key": "history", "document_id": None,
            "chunk_id": None} in [c for claim in stored["metadata"]["synthesis"]["claims"] for c in claim["citations"]]
    assert all(c["kind"] == "chunk" for c in stored["source_citations"])


def test_memory_records_carry_null_document_and_chunk_ids(server, corpus):
    headers = {"X-User-Subject": f"mem-{uuid.uuid4().hex[:6]}"}
    post(server, "/query", headers, query="Saya bekerja di Bappeda. Berapa hari PPID wajib memberikan pemberitahuan?")
    later = post(server, "/query", headers,
                 query="Di mana saya bekerja, dan berapa hari PPID wajib memberikan pemberitahuan?").json()
    records = [c for claim in later["claim_map"] for c in claim["citations"] if c["kind"] == "memory"]
    assert records, later
    assert set(records[0]) == {"kind", "memory_id", "citation_key", "document_id", "chunk_id"}
    assert (records[0]["document_id"], records[0]["chunk_id"], records[0]["citation_key"]) == (None, None, "memory")
    assert isinstance(records[0]["memory_id"], int)


# -- 4. agent rules by route -----------------------------------------------------------------------


def zero_match_agent(body):
    """Round 1: a nonsense search and a good one; told to rewrite, it searches again; then it answers."""
    messages = body["messages"]
    system = messages[0]["content"]
    searched = [m for m in messages if m["role"] == "tool"]
    if "tools" in body and not searched:
        return completion(None, finish="tool_calls", tool_calls=[
            tool_call("search_documents", {"query": "qwertyzzq"}, "call_a"),
            tool_call("search_documents", {"query": "zakat"}, "call_b")])
    if "tools" in body and "tidak cocok dengan satu pun istilahnya" in (messages[-1].get("content") or ""):
        return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": "muzakki"}, "call_c")])
    label = shown_passages(body)[0][0]
    if '"segments"' in system:
        return completion(json.dumps({"segments": [{"text": ZAKAT, "kind": "fact", "cites": [label], "layout": "paragraph"}]}))
    return completion(f"{ZAKAT[:-1]} [{label}].")


@pytest.mark.parametrize("path,rewritten", [("/query/v2", True), ("/query", False)])
def test_a_zero_match_search_is_rewritten_before_answering_on_v2_only(modelled, model, corpus, path, rewritten):
    model.scripts.update(agent=zero_match_agent, framing=lambda body: completion(json.dumps({"checkable": []})))
    response = post(modelled, path, query=QUESTION, include_provenance=True)
    assert response.status_code == 200, response.text
    queries = [e["executed_arguments"]["query"] for e in response.json()["tool_call_audit"]
               if e["tool"] == "search_documents"]
    agent_bodies = model.bodies("agent")
    nudges = [m["content"] for m in agent_bodies[-1]["messages"] if m["role"] == "user"
              and "tidak cocok dengan satu pun istilahnya" in m["content"]]
    if rewritten:
        assert "muzakki" in queries and len(agent_bodies) == 4     # search, answer (sent back), rewrite, answer
        assert nudges == ['Pencarian "qwertyzzq" tidak cocok dengan satu pun istilahnya. Tulis ulang pencarian itu '
                          'dengan istilah lain sebelum menjawab.']
    else:
        assert "muzakki" not in queries and len(agent_bodies) == 2 and nudges == []


def test_the_first_round_search_rule_is_asked_on_v2_only(modelled, model, corpus):
    model.scripts.update(agent=zero_match_agent, framing=lambda body: completion(json.dumps({"checkable": []})))
    rule = "for a topic in a place, send two or three different searches in your first round"
    for path, expected in (("/query/v2", True), ("/query", False)):
        model.calls.clear()
        post(modelled, path, query="What must a muzakki pay in Aceh?")
        system = model.bodies("agent")[0]["messages"][0]["content"]
        assert (rule in system) is expected, path


def test_the_original_question_arm_runs_once_without_its_keyword_leg(modelled, model, corpus):
    """Seed "Retrieval reuse within one answer": beside the agent's wording, the question's arm runs the
    hybrid path without its keyword leg, once per answer however many searches the agent sends."""
    def agent(body):
        searched = [m for m in body["messages"] if m["role"] == "tool"]
        if "tools" in body and len(searched) < 2:
            return completion(None, finish="tool_calls", tool_calls=[
                tool_call("search_documents", {"query": ["zakat", "muzakki"][len(searched)]}, f"call_{len(searched)}")])
        return completion(f"{ZAKAT[:-1]} [{shown_passages(body)[0][0]}].")

    model.scripts.update(agent=agent)
    body = post(modelled, "/query", query=QUESTION, include_provenance=True).json()
    arms = [e["executed_arguments"] for e in body["tool_call_audit"] if e["tool"] == "search_documents"]
    assert arms.count({"query": QUESTION, "mode": "hybrid", "top_k": 8, "keyword_leg": False}) == 1
    # The gatherer's own question arm (no other arm beside it) keeps its keyword leg.
    assert arms[0] == {"query": QUESTION, "mode": "hybrid", "top_k": 8}
    original = next(e for e in body["tool_call_audit"] if e["executed_arguments"].get("keyword_leg") is False)
    assert original["result"]["lexical_tier"] is None


def test_a_hybrid_search_without_its_keyword_leg_reports_no_tier(corpus):
    from retrieval.access import Scope
    from retrieval.facade import SearchMode, chunks_search
    from kernel.principal import Principal

    anonymous = Principal()
    both = chunks_search(principal=anonymous, query="zakat", mode=SearchMode.HYBRID, top_k=5, scope=Scope())
    semantic_only = chunks_search(principal=anonymous, query="zakat", mode=SearchMode.HYBRID, top_k=5, scope=Scope(),
                                  keyword_leg=False)
    assert both.lexical_tier is not None and both.lexical_matches >= 1
    assert semantic_only.lexical_tier is None and semantic_only.lexical_matches is None and semantic_only.hits


# -- 5. documents and chats ----------------------------------------------------------------------


def test_a_follow_up_restores_the_earlier_cited_passages_and_reads_its_one_document(server, corpus):
    headers = {"X-User-Subject": f"follow-{uuid.uuid4().hex[:6]}"}
    first = post(server, "/query", headers, query=QUESTION, include_provenance=True).json()
    assert [c["document_id"] for c in first["citations"]] == [corpus["zakat"]], (
        f"{first['answer']}\n{json.dumps(first['tool_call_audit'], ensure_ascii=False)}")   # a string: shown whole
    stored = stored_assistant(server, first, headers)["metadata"]["synthesis"]["source_passages"]
    assert [(p["document_id"], p["chunk_id"]) for p in stored] == [(corpus["zakat"], first["citations"][0]["chunk_id"])]
    assert isinstance(stored[0]["visible_chars"], int) and stored[0]["visible_chars"] > 0

    later = post(server, "/query", headers, query="lalu bagaimana dengan itu?", conversation_id=first["conversation_id"],
                 include_provenance=True).json()
    audit = later["tool_call_audit"]
    restore = [e for e in audit if e["tool"] == "restore_passages"]
    assert restore and restore[0]["result"] == {"restored": 1, "invalid": 0}
    assert restore[0]["executed_arguments"] == {"exchanges": [0]}
    # The carried document rides on every search's audit entry.
    searches = [e for e in audit if e["tool"] == "search_documents"]
    assert searches and all(e["followup_document_ids"] == [corpus["zakat"]] for e in searches)


def test_restored_bodies_stay_within_their_visible_prefix_and_access(corpus, django_db_blocker):
    from kernel.principal import Principal
    from answering.answer.restore import passage_packet
    from retrieval.access import Scope
    from retrieval.facade import PassagePacket, chunks_restored_visible
    from retrieval.models import Chunk

    chunk = Chunk.objects.get(document_id=corpus["zakat"])
    packets = [PassagePacket(uuid.UUID(corpus["zakat"]), chunk.id, 12),
               PassagePacket(uuid.UUID(corpus["ppid"]), chunk.id, 12)]           # moved document: left out
    hits = chunks_restored_visible(principal=Principal(), scope=Scope(), packets=packets)
    assert [(h.chunk_id, h.text) for h in hits] == [(chunk.id, chunk.text[:12])]
    outside = Scope(document_ids=(uuid.UUID(corpus["ppid"]),))
    assert chunks_restored_visible(principal=Principal(), scope=outside, packets=packets[:1]) == []
    valid = {"document_id": corpus["zakat"], "chunk_id": str(chunk.id)}
    assert passage_packet({**valid, "visible_chars": 40}) == PassagePacket(uuid.UUID(corpus["zakat"]), chunk.id, 40)
    for bad in (0, -3, True, "40", None, 4.5):
        assert passage_packet({**valid, "visible_chars": bad}) is None
    assert passage_packet({"chunk_id": str(chunk.id), "visible_chars": 4}) is None
