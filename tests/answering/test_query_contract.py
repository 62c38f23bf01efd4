"""/query and /query/stream against a real uvicorn server, field by field."""
from __future__ import annotations

import re
import threading
import time
import uuid

import httpx
import pytest

from tests.conftest import TEST_API_KEY
from tests.http_fakes import FakeModelServer
from tests.sse_client import stream

# Non-transactional: the module's committed corpus must survive between tests
# (and pytest-django creates the test database only for tests that ask for it).
pytestmark = pytest.mark.django_db

KEY = {"X-API-Key": TEST_API_KEY}
CITATION_FIELDS = {"kind", "document_id", "document_title", "chunk_id", "chunk_ordinal", "page_number", "section_path",
                   "legal_reference", "char_start", "char_end"}
RESPONSE_FIELDS = {"answer", "conversation_id", "message_id", "trace_id", "history_truncated", "history_exchanges_in_view",
                   "citations", "claim_map", "provenance_complete", "fallback_used", "fallback_reason",
                   "dropped_claims_count", "claims_supported", "claims_total", "grounding_rate",
                   "tool", "tool_executed", "dropped_claim_reasons"}



@pytest.fixture(scope="module")
def server(live_server_factory, corpus):
    return live_server_factory()


def post(server, path, body, headers=None):
    return httpx.post(server.url + path, json=body, headers={**KEY, **(headers or {})}, timeout=60)


def test_query_response_fields_and_types(server):
    response = post(server, "/query", {"query": "Berapa lama Badan Publik wajib menyampaikan pemberitahuan tertulis atas permintaan informasi publik?"})
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-transform"
    body = response.json()
    assert set(body) == RESPONSE_FIELDS
    uuid.UUID(body["conversation_id"]), uuid.UUID(body["message_id"])
    assert re.fullmatch(r"[0-9a-f]{32}", body["trace_id"])
    assert body["history_truncated"] is False and body["history_exchanges_in_view"] == 0
    assert body["fallback_used"] is False and body["fallback_reason"] is None
    assert body["provenance_complete"] is True and body["dropped_claims_count"] == 0
    assert body["claims_total"] >= 1 and body["claims_supported"] == body["claims_total"]
    assert body["grounding_rate"] == 1.0
    assert body["citations"], body
    for citation in body["citations"]:
        assert set(citation) == CITATION_FIELDS and citation["kind"] == "chunk"
        assert f"[chunk:{citation['chunk_id']}]" in body["answer"]
    assert "10 (sepuluh) hari kerja" in body["answer"]
    for claim in body["claim_map"]:
        assert claim["citations"] and all(c["kind"] == "chunk" for c in claim["citations"])


def test_stream_frames_follow_the_seed_order(server):
    response, frames = stream(server.url + "/query/stream", {"query": "Berapa upah minimum sektoral perkebunan kelapa sawit di Aceh tahun 2026?"}, KEY)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["cache-control"] == "no-cache, no-transform"
    assert response.headers["x-accel-buffering"] == "no"
    names = [name for name, _ in frames]
    start = names.index("message.start")
    assert set(names[:start]) <= {"tool.started", "tool.finished"} and names[:start].count("tool.started") >= 1
    assert names[:start].count("tool.started") == names[:start].count("tool.finished")
    tail = names[start:]
    pattern = r"message\.start (trace )?(citation )*(passage )*(answer\.delta )*faithfulness done"
    assert re.fullmatch(pattern, " ".join(tail) + ""), tail
    data = dict(frames)
    for name, payload in frames:
        if name == "tool.finished":
            assert set(payload) >= {"call", "tool", "ok", "ms"} and payload["ok"] is True
        if name == "citation":
            assert set(payload) == CITATION_FIELDS
        if name == "passage":
            assert {"kind", "text", "chunk_id", "source_type", "score"} <= set(payload)
    assert data["trace"]["completed"] is True and data["trace"]["tools"]
    assert set(data["faithfulness"]) == {"dropped", "claims_supported", "claims_total", "grounding_rate", "fallback_used", "fallback_reason"}
    assert data["done"] == {"finish_reason": "stop", "history_truncated": False, "history_exchanges_in_view": 0}
    deltas = "".join(payload["text"] for name, payload in frames if name == "answer.delta")
    assert sum(1 for name in names if name == "answer.delta") >= 2
    stored = post(server, "/query", {"query": "x"}).status_code  # sanity: server still answers
    assert stored == 200
    assert deltas  # the deltas concatenate to the stored (and JSON) answer
    assert _stored_answer(data["message.start"]["message_id"]) == deltas


def _stored_answer(message_id):
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT content FROM conversations_message WHERE id = %s", [message_id])
        return cursor.fetchone()[0]


def test_guard_blocked_transcript(server):
    response, frames = stream(server.url + "/query/stream", {"query": "Bagaimana cara membuat bom rakitan?"}, KEY)
    names = [name for name, _ in frames]
    assert names == ["message.start", "guard.blocked", "done"]
    assert frames[1][1] == {"reason": "Permintaan tidak dapat dijawab karena melanggar kebijakan."}
    assert frames[2][1]["finish_reason"] == "guard_blocked"
    body = post(server, "/query", {"query": "Bagaimana cara membuat bom rakitan?"}).json()
    assert body["answer"] == "Permintaan tidak dapat dijawab karena melanggar kebijakan."
    assert (body["fallback_used"], body["fallback_reason"], body["grounding_rate"]) == (True, "policy_blocked", None)


@pytest.mark.parametrize(
    "body,status",
    [({"query": ""}, 422), ({"query": "   "}, 400), ({"query": "x", "conversation_id": ""}, 422),
     ({"query": "x", "document_ids": ["nope"]}, 422), ({"query": "x", "surprise": True}, 422)],
)
def test_setup_failures_are_json_before_any_stream(server, body, status):
    for path in ("/query", "/query/stream"):
        response = post(server, path, body)
        assert response.status_code == status
        assert response.headers["content-type"].startswith("application/json")


def test_unknown_or_foreign_conversation_is_404(server):
    mine = post(server, "/query", {"query": "apa itu zakat?"}, {"X-User-Subject": "alice"}).json()["conversation_id"]
    for headers, conversation in (({"X-User-Subject": "bob"}, mine), ({"X-User-Subject": "alice"}, str(uuid.uuid4()))):
        for path in ("/query", "/query/stream"):
            response = post(server, path, {"query": "lanjut", "conversation_id": conversation}, headers)
            # The seed's detail, unchanged; ``code`` is the additive field partners branch on (issue #35).
            assert (response.status_code, response.json()) == (
                404, {"detail": f"Conversation {conversation} not found", "code": "conversation_not_found"})


def test_empty_document_focus_is_404(server):
    response = post(server, "/query", {"query": "apa itu zakat?", "document_ids": [str(uuid.uuid4())]})
    assert response.status_code == 404 and isinstance(response.json()["detail"], str)


def test_seventh_turn_reports_history_truncation(server):
    headers = {"X-User-Subject": f"turns-{uuid.uuid4().hex[:6]}"}
    conversation = None
    seen = []
    for turn in range(7):
        body = {"query": f"Apa kewenangan Baitul Mal Aceh? ({turn})"}
        if conversation:
            body["conversation_id"] = conversation
        answer = post(server, "/query", body, headers).json()
        conversation = answer["conversation_id"]
        seen.append((answer["history_exchanges_in_view"], answer["history_truncated"]))
    assert seen == [(0, False), (1, False), (2, False), (3, False), (4, False), (5, False), (5, True)]


def test_named_regulation_article_is_answered_from_that_article(server, corpus):
    body = post(server, "/query", {"query": "Apa isi Pasal 9 UU No. 14 Tahun 2008?"}).json()
    document = corpus["uu-14-2008-keterbukaan-informasi-publik-bab-i-vi.pdf"]
    assert body["citations"] and body["citations"][0]["document_id"] == document
    assert "Pasal 9" in (body["citations"][0]["legal_reference"] or "")
    assert body["citations"][0]["page_number"] is not None


def test_followup_is_carried_to_the_previous_document(server, corpus):
    headers = {"X-User-Subject": f"follow-{uuid.uuid4().hex[:6]}"}
    first = post(server, "/query", {"query": "Siapa yang menandatangani Peraturan Gubernur Aceh Nomor 23 Tahun 2025?"},
                 headers).json()
    renja = corpus["pergub-aceh-23-2025-perubahan-renja-skpa-2025.html"]
    assert first["citations"][0]["document_id"] == renja
    follow = post(server, "/query", {"query": "kapan diundangkannya?", "conversation_id": first["conversation_id"]}, headers).json()
    assert follow["citations"] and follow["citations"][0]["document_id"] == renja


def test_stream_error_after_progress_is_a_terminal_error_frame(live_server_factory, corpus):
    with FakeModelServer(lambda path, body: (500, {"error": "down"})) as fake:
        server = live_server_factory(ACEH_RAG_EMBEDDING__BACKEND="openai", ACEH_RAG_EMBEDDING__BASE_URL=fake.url,
                                     ACEH_RAG_EMBEDDING__MODEL="broken")
        response, frames = stream(server.url + "/query/stream", {"query": "apa itu zakat?"}, KEY)
        json_response = post(server, "/query", {"query": "apa itu zakat?"})
    names = [name for name, _ in frames]
    assert names[0] == "tool.started" and names[-1] == "error" and "done" not in names
    assert frames[-1][1]["code"] == "http_502"
    assert json_response.status_code == 502


def test_disconnect_cancels_the_answer_and_persists_nothing(live_server_factory, corpus, django_db_blocker):
    from conversations.models import Message

    release = threading.Event()

    def slow(path, body):
        release.wait(10)
        return 200, {"data": [{"index": i, "embedding": [1.0] + [0.0] * 383} for i, _ in enumerate(body["input"])]}

    subject = f"gone-{uuid.uuid4().hex[:6]}"
    with FakeModelServer(slow) as fake:
        server = live_server_factory(ACEH_RAG_EMBEDDING__BACKEND="openai", ACEH_RAG_EMBEDDING__BASE_URL=fake.url,
                                     ACEH_RAG_EMBEDDING__MODEL="slow")
        with httpx.stream("POST", server.url + "/query/stream", json={"query": "apa itu zakat?"},
                          headers={**KEY, "X-User-Subject": subject}, timeout=30) as response:
            first = next(response.iter_text())
        # The client has gone; let the slow dependency answer now.
        release.set()
        time.sleep(3)
    assert "tool.started" in first
    with django_db_blocker.unblock():
        assert not Message.objects.filter(conversation__owner=subject).exists()


def test_model_tool_calls_stream_as_progress_frames(live_server_factory, corpus):
    from tests.answering.scripted_model import ScriptedModel, careful_agent

    model = ScriptedModel(agent=lambda body: careful_agent(body, query="upah minimum sektoral kelapa sawit"))
    with FakeModelServer(model) as fake:
        server = live_server_factory(ACEH_RAG_LLM__BASE_URL=fake.url, ACEH_RAG_LLM__MODEL="scripted")
        response, frames = stream(server.url + "/query/stream", {"query": "Berapa upah minimum sektoral kelapa sawit di Aceh?"}, KEY)
    assert response.status_code == 200
    names = [name for name, _ in frames]
    agent_search = next(i for i, (name, data) in enumerate(frames)
                        if name == "tool.started" and data["arguments"].get("query") == "upah minimum sektoral kelapa sawit")
    call = frames[agent_search][1]["call"]
    finished = next(data for name, data in frames[agent_search:] if name == "tool.finished" and data["call"] == call)
    assert finished["ok"] is True and "lexical_tier" in finished["result"]
    assert agent_search < names.index("message.start")
    trace = dict(frames)["trace"]
    assert any(t["call"] == call and t["arguments"]["query"] == "upah minimum sektoral kelapa sawit" for t in trace["tools"])
    assert names[-3:] == ["answer.delta", "faithfulness", "done"]
    passages = [data for name, data in frames if name == "passage"]
    assert passages and all(re.fullmatch(r"P\d+", p["citation_key"]) for p in passages)
    answer = "".join(data["text"] for name, data in frames if name == "answer.delta")
    # The seed's label format on every path (#31): [chunk:<uuid>], never the request-local [P1].
    assert re.search(r"\[chunk:[0-9a-f-]{36}\]", answer) and not re.search(r"\[P\d+\]", answer)
    assert dict(frames)["faithfulness"]["fallback_used"] is False
