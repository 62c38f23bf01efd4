"""The seeds' answer fields, claim_map kinds and statuses, against real daphne servers (issue #19).

Seeds: query-search-api ("Response fields", "Shared citation object", "Status and error behavior",
"Retrieval reuse within one answer", SSE ``error`` codes) and query-v2 ("Response": the kept fields;
"Errors": the 404 when the tools that ran returned nothing readable).
"""
from __future__ import annotations

import json
import uuid

import httpx
import pytest

from tests.answering.scripted_model import (
    ScriptedModel, allowing_guard, careful_agent, completion, first_sentence, shown_passages, supporting_judge, tool_call,
)
from tests.conftest import TEST_API_KEY, purge_committed_corpus
from tests.http_fakes import FakeModelServer
from tests.sse_client import stream

pytestmark = pytest.mark.django_db

KEY = {"X-API-Key": TEST_API_KEY}
ZAKAT = "Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh paling lambat akhir tahun berjalan."
PPID = ("PPID wajib memberikan pemberitahuan tertulis atas permohonan informasi publik paling lambat "
        "10 (sepuluh) hari kerja sejak permohonan diterima.")
QUESTION = "Ke mana muzakki wajib membayar zakat?"
GROUNDING_CHUNK_FIELDS = {"kind", "text", "chunk_id", "source_type", "score", "citation_key"}
AUDIT_FIELDS = {"call", "tool", "proposed_arguments", "executed_arguments", "ok", "ms", "result"}
OPT_INS = {"grounding", "used_docs", "tool_call_audit", "model_call_log"}
NOTHING_READABLE = "The tools that ran returned nothing readable for this question"


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    from tests.factories import make_document

    with django_db_blocker.unblock():
        zakat = make_document(title="Qanun Baitul Mal", chunks=[ZAKAT])
        ppid = make_document(title="Pergub PPID", chunks=[PPID])
    yield {"zakat": str(zakat.id), "ppid": str(ppid.id)}
    with django_db_blocker.unblock():
        purge_committed_corpus()


@pytest.fixture(scope="module")
def server(live_server_factory, corpus):
    return live_server_factory()


def post(server, path, headers=None, **body):
    return httpx.post(server.url + path, json=body, headers={**KEY, **(headers or {})}, timeout=60)


def stored_assistant(server, body, headers=None) -> dict:
    conversation = httpx.get(f"{server.url}/conversations/{body['conversation_id']}",
                             headers={**KEY, **(headers or {})}, timeout=30).json()
    return conversation["messages"][-1]


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


# -- 1 (model path). dropped_claim_reasons and the model call log -----------------------------------


@pytest.fixture(scope="module")
def scripted():
    model = ScriptedModel()
    with FakeModelServer(model) as fake:
        model.url = fake.url
        yield model


@pytest.fixture
def model(scripted):
    scripted.calls.clear()
    scripted.scripts.update(agent=careful_agent, judge=supporting_judge, framing=None, guard=allowing_guard)
    return scripted


@pytest.fixture(scope="module")
def modelled(live_server_factory, corpus, scripted):
    return live_server_factory(ACEH_RAG_LLM__BASE_URL=scripted.url, ACEH_RAG_LLM__MODEL="scripted",
                               ACEH_RAG_LLM__MAX_RETRIES="0")


def verdicts(reject: str):
    def judge(body):
        import re
        text = body["messages"][-1]["content"]
        return completion(json.dumps({"verdicts": [
            {"item": int(n), "verdict": "unsupported" if reject in statement else "supported"}
            for n, statement in re.findall(r"^Item (\d+)\nStatement: (.*)$", text, re.M)]}))
    return judge


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


# -- 3. statuses ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def broken_embedder(live_server_factory, corpus):
    with FakeModelServer(lambda path, body: (500, {"error": "down"})) as fake:
        yield live_server_factory(ACEH_RAG_EMBEDDING__BACKEND="openai", ACEH_RAG_EMBEDDING__BASE_URL=fake.url,
                                  ACEH_RAG_EMBEDDING__MODEL="broken-19")


def test_a_failed_embedder_is_502_on_query_and_search_and_404_on_v2(broken_embedder):
    assert post(broken_embedder, "/query", query=QUESTION).status_code == 502
    assert post(broken_embedder, "/search", query=QUESTION).status_code == 502
    v2 = post(broken_embedder, "/query/v2", query=QUESTION)
    assert (v2.status_code, v2.json()) == (404, {"detail": NOTHING_READABLE})
    response, frames = stream(broken_embedder.url + "/query/v2/stream", {"query": QUESTION}, KEY)
    assert frames[-1] == ("error", {"code": "http_404", "message": NOTHING_READABLE})


def test_a_search_stopped_at_its_time_bound_is_the_502_retrieval_failure():
    """The statement bound cannot be hit on demand against a real server (tiny statements finish in well under
    a millisecond), so the mapping is checked where it is made; the embedder test above shows the same error
    class answered 502 on /query and 404 on /query/v2."""
    from answering.answer.steps import StepRecorder
    from kernel.errors import RetrievalFailed
    from retrieval.search import SearchTimeout

    steps = StepRecorder()
    with pytest.raises(RetrievalFailed) as raised:
        with steps.tool("search_documents", {"query": "zakat"}):
            raise SearchTimeout("search statement timed out")
    assert (raised.value.http_status, raised.value.code) == (502, "retrieval_timeout")
    assert steps.calls[0].ok is False and steps.calls[0].summary == {"error": "timeout"}


def test_the_agent_may_search_again_after_a_failed_search(live_server_factory, corpus, scripted, model):
    """A failed read is not stored: the agent is told and searches again within its deadline."""
    failed: list[str] = []

    def embed(path, body):
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        if any("zakat" == t.split(": ", 1)[-1] for t in texts) and not failed:
            failed.append("zakat")
            return 500, {"error": "flaky"}
        return 200, {"data": [{"index": i, "embedding": [1.0] + [0.0] * 383} for i, _ in enumerate(texts)]}

    def agent(body):
        tool_messages = [m for m in body["messages"] if m["role"] == "tool"]
        if "tools" in body and len(tool_messages) < 2:
            return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": "zakat"},
                                                                                f"call_{len(tool_messages)}")])
        label, text = shown_passages(body)[0]
        return completion(f"{first_sentence(text)} [{label}].")

    model.scripts.update(agent=agent)
    with FakeModelServer(embed) as fake:
        flaky = live_server_factory(ACEH_RAG_LLM__BASE_URL=scripted.url, ACEH_RAG_LLM__MODEL="scripted",
                                    ACEH_RAG_LLM__MAX_RETRIES="0", ACEH_RAG_EMBEDDING__BACKEND="openai",
                                    ACEH_RAG_EMBEDDING__BASE_URL=fake.url, ACEH_RAG_EMBEDDING__MODEL="flaky-19")
        for path in ("/query", "/query/v2"):
            failed.clear()
            response = post(flaky, path, query=QUESTION, include_provenance=True)
            assert response.status_code == 200, response.text
            body = response.json()
            searches = [e for e in body["tool_call_audit"] if e["tool"] == "search_documents"
                        and e["executed_arguments"]["query"] == "zakat"]
            assert [e["ok"] for e in searches] == [False, True], searches
            told = [m["content"] for m in model.bodies("agent")[-1]["messages"] if m["role"] == "tool"]
            assert told[0].startswith("Error: this search could not be completed")


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
    from acehrag.auth import Principal

    anonymous = Principal()
    both = chunks_search(principal=anonymous, query="zakat", mode=SearchMode.HYBRID, top_k=5, scope=Scope())
    semantic_only = chunks_search(principal=anonymous, query="zakat", mode=SearchMode.HYBRID, top_k=5, scope=Scope(),
                                  keyword_leg=False)
    assert both.lexical_tier is not None and both.lexical_matches >= 1
    assert semantic_only.lexical_tier is None and semantic_only.lexical_matches is None and semantic_only.hits


# -- 5. documents and chats ----------------------------------------------------------------------


def test_a_follow_up_restores_the_earlier_cited_passages_and_reads_its_one_document(server, corpus):
    headers = {"X-User-Subject": f"follow-{uuid.uuid4().hex[:6]}"}
    first = post(server, "/query", headers, query=QUESTION).json()
    assert [c["document_id"] for c in first["citations"]] == [corpus["zakat"]]
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
    from acehrag.auth import Principal
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


def test_a_framing_failure_after_the_answer_is_the_seeds_stream_failed(corpus):
    """A pipeline failure is query_failed or http_<status>; the stream's own framing failing is stream_failed.
    No real server can be made to fail its framing on demand, so the route's generator runs in process
    (the pipeline really runs, in its worker thread, against the committed corpus)."""
    import asyncio

    from acehrag.auth import Principal
    from answering.answer.contracts import AnswerRequest
    from answering.api import stream_answer
    from retrieval.access import Scope

    def broken_frames(result):
        raise ValueError("cannot frame")

    async def frames():
        answer = AnswerRequest(question=QUESTION, principal=Principal(), owner=f"frame-{uuid.uuid4().hex[:6]}",
                               conversation_id=None, scope=Scope(), route="/query/stream")
        response = await stream_answer(answer, frames_of=broken_frames)
        return b"".join([chunk async for chunk in response.streaming_content]).decode()

    raw = asyncio.run(frames())
    events = [block.split("\n") for block in raw.strip().split("\n\n")]
    assert events[0][0] == "event: tool.started"
    assert events[-1] == ["event: error", 'data: {"code":"stream_failed","message":"The answer stream could not be completed"}']
    assert not any(line == "event: done" for event in events for line in event)
