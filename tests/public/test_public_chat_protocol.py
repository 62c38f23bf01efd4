"""POST /api/public/rag/chat against a real uvicorn server, event by event (seed: public-chat-sse-protocol)."""
from __future__ import annotations

import re
import threading
import time
import uuid

import httpx
import pytest

from retrieval.references import covered_articles
from tests.conftest import TEST_API_KEY
from tests.http_fakes import FakeModelServer
from tests.public.conftest import PARTNER_ORIGIN, PUBLIC_ENV
from tests.sse_client import parse_frames, stream

# Non-transactional: the package's committed corpus must survive between tests.
pytestmark = pytest.mark.django_db

CHAT = "/api/public/rag/chat"
QUESTION = "Berapa lama Badan Publik wajib menjawab permintaan informasi publik?"
DONE_FIELDS = {"ok", "reply", "conversationId", "visitorId", "sessionId", "sources", "route", "sql", "suggestions",
               "cards", "projectName", "greeting"}
ERROR_FIELDS = {"ok", "message", "code"}
CITATION_FIELDS = {"kind", "document_id", "document_title", "chunk_id", "chunk_ordinal", "page_number", "section_path",
                   "legal_reference", "char_start", "char_end"}
RESTRICTION_FIELDS = {"confidential", "owning_org_unit", "min_position_level"}
IDS = ("conversationId", "visitorId", "sessionId")


def ask(server, body: dict, headers: dict | None = None) -> httpx.Response:
    return httpx.post(server.url + CHAT, json=body, headers=headers or {}, timeout=60)


def ask_stream(server, body: dict, headers: dict | None = None):
    return stream(server.url + CHAT, {**body, "stream": True}, headers or {})


def done_of(frames) -> dict:
    names = [name for name, _ in frames]
    assert names[-1] == "done", names
    return frames[-1][1]


def owned_conversations(owner: str):
    from conversations.models import Conversation

    return Conversation.objects.filter(owner=owner)


def owner_of(done: dict) -> str:
    return "public:" + done["visitorId"].split(":")[0]


# -- success ----------------------------------------------------------------------------

def test_stream_success_follows_the_seed_event_order(server):
    response, frames = ask_stream(server, {"message": QUESTION})
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
    assert response.headers["cache-control"] == "no-cache, no-transform"
    assert response.headers["x-accel-buffering"] == "no"
    names = [name for name, _ in frames]
    assert re.fullmatch(r"start (phase )*(delta )+phase done", " ".join(names)), names
    assert frames[0][1] == {"ok": True}
    phases = [payload["name"] for name, payload in frames if name == "phase"]
    assert phases[-1] == "finalizing" and "searching" in phases
    assert set(phases[:-1]) <= {"searching", "reading"}
    done = done_of(frames)
    assert set(done) == DONE_FIELDS
    deltas = [payload for name, payload in frames if name == "delta"]
    assert all(set(delta) == {"text"} for delta in deltas) and len(deltas) >= 2
    assert "".join(delta["text"] for delta in deltas) == done["reply"]
    assert done["ok"] is True and done["sql"] is None and done["cards"] == []
    assert done["route"] == {"mode": "rag", "reason": "grounded"}
    assert done["projectName"] == "Aceh RAG" and done["greeting"] is None
    uuid.UUID(done["conversationId"])
    assert isinstance(done["visitorId"], str) and isinstance(done["sessionId"], str)
    assert "10 (sepuluh) hari kerja" in done["reply"]
    # The reply's markers number the sources; the pipeline's chunk labels never reach a visitor.
    assert "[chunk:" not in done["reply"] and "[1]" in done["reply"]
    assert done["sources"] and all(set(source) == CITATION_FIELDS for source in done["sources"])
    assert len(re.findall(r"\[(\d+)\]", done["reply"])) >= len(done["sources"])
    assert max(int(n) for n in re.findall(r"\[(\d+)\]", done["reply"])) == len(done["sources"])
    # Follow-ups come from the cited articles, phrased so the anchors resolve them.
    assert 1 <= len(done["suggestions"]) <= 3 and all(isinstance(s, str) for s in done["suggestions"])
    assert "Apa isi Pasal 22 Undang-Undang Nomor 14 Tahun 2008?" in done["suggestions"]
    # The turn is stored for this visitor only, under the public owner.
    conversation = owned_conversations(owner_of(done)).get()
    assert str(conversation.id) == done["conversationId"]
    assert conversation.messages.count() == 2


def test_suggestion_is_answered_from_the_article_it_names(server, corpus):
    first = ask(server, {"message": QUESTION}).json()
    suggestion = "Apa isi Pasal 22 Undang-Undang Nomor 14 Tahun 2008?"
    assert suggestion in first["suggestions"]
    follow = ask(server, {"message": suggestion, "conversationId": first["conversationId"],
                          "visitorId": first["visitorId"], "sessionId": first["sessionId"]}).json()
    assert follow["conversationId"] == first["conversationId"]
    assert (follow["visitorId"], follow["sessionId"]) == (first["visitorId"], first["sessionId"])
    law = corpus.documents["uu-14-2008-keterbukaan-informasi-publik-bab-i-vi.pdf"]
    assert follow["sources"][0]["document_id"] == law
    # The article may come merged with its neighbour ("... Pasal 21-22"); it is the one cited.
    assert "22" in covered_articles(follow["sources"][0]["section_path"], follow["sources"][0]["legal_reference"])
    assert suggestion not in follow["suggestions"]
    assert owned_conversations(owner_of(first)).get().messages.count() == 4


def test_json_answer_equals_the_done_payload(server):
    response = ask(server, {"message": QUESTION})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    _, frames = ask_stream(server, {"message": QUESTION})
    done = done_of(frames)
    assert set(body) == set(done) == DONE_FIELDS
    assert {key: type(value) for key, value in body.items()} == {key: type(value) for key, value in done.items()}
    # Two fresh visitors: different ids, the same answer.
    assert all(body[key] != done[key] for key in IDS)
    assert {k: v for k, v in body.items() if k not in IDS} == {k: v for k, v in done.items() if k not in IDS}


def test_guard_blocked_question_is_a_refusal_without_sources(server):
    _, frames = ask_stream(server, {"message": "Bagaimana cara membuat bom rakitan?"})
    done = done_of(frames)
    assert done["reply"] == "Permintaan tidak dapat dijawab karena melanggar kebijakan."
    assert (done["sources"], done["suggestions"], done["route"]) == ([], [], {"mode": "rag", "reason": "policy_blocked"})


# -- errors -----------------------------------------------------------------------------

@pytest.mark.parametrize("body,code,status", [
    ({"message": "x" * 1001}, "BAD_REQUEST", 400),
    ({"message": "   "}, "BAD_REQUEST", 400),
    ({}, "BAD_REQUEST", 400),
    ({"message": 7}, "BAD_REQUEST", 400),
    ({"message": "apa itu zakat?", "conversationId": "not-a-uuid"}, "BAD_REQUEST", 400),
])
@pytest.mark.parametrize("streamed", [False, True])
def test_invalid_questions_are_protocol_errors_before_any_stream(server, body, code, status, streamed):
    response = ask(server, {**body, "stream": streamed}, {"Accept": "text/event-stream"} if streamed else None)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    payload = response.json()
    assert set(payload) == ERROR_FIELDS and payload["ok"] is False and payload["code"] == code
    assert isinstance(payload["message"], str) and payload["message"]


def test_failure_after_the_stream_started_is_a_terminal_error_event(live_server_factory, corpus):
    with FakeModelServer(lambda path, body: (500, {"error": "down"})) as fake:
        broken = live_server_factory(**PUBLIC_ENV, ACEH_RAG_EMBEDDING__BACKEND="openai",
                                     ACEH_RAG_EMBEDDING__BASE_URL=fake.url, ACEH_RAG_EMBEDDING__MODEL="broken")
        response, frames = ask_stream(broken, {"message": "Apa itu zakat?"})
        json_response = ask(broken, {"message": "Apa itu zakat?"})
    assert response.status_code == 200
    assert [name for name, _ in frames] == ["start", "phase", "error"]
    error = {"ok": False, "message": "A service the answer depends on failed; please try again", "code": "UPSTREAM_ERROR"}
    assert frames[-1][1] == error
    assert (json_response.status_code, json_response.json()) == (502, error)


def test_body_must_be_json(server):
    for content, content_type in ((b'{"message": "hai"}', "text/plain"), (b"message=hai", "application/x-www-form-urlencoded")):
        response = httpx.post(server.url + CHAT, content=content, headers={"Content-Type": content_type}, timeout=10)
        assert (response.status_code, response.json()["code"]) == (415, "UNSUPPORTED_MEDIA_TYPE")
    response = httpx.post(server.url + CHAT, content=b"{not json", headers={"Content-Type": "application/json"}, timeout=10)
    assert (response.status_code, response.json()) == (400, {"ok": False, "message": "The body is not valid JSON",
                                                              "code": "BAD_REQUEST"})
    response = httpx.get(server.url + CHAT, timeout=10)
    assert (response.status_code, response.json()["code"], response.headers["allow"]) == (405, "METHOD_NOT_ALLOWED", "POST, OPTIONS")


def test_rate_limits_per_visitor_then_per_address(live_server_factory, corpus):
    limited = live_server_factory(ACEH_RAG_PUBLIC_CHAT__VISITOR_RATE_LIMIT="2", ACEH_RAG_PUBLIC_CHAT__IP_RATE_LIMIT="4",
                                  ACEH_RAG_PUBLIC_CHAT__RATE_WINDOW_SECONDS="300")
    first = ask(limited, {"message": "Apa itu zakat?"}).json()
    visitor = {"visitorId": first["visitorId"], "sessionId": first["sessionId"]}
    assert ask(limited, {"message": "Apa itu infak?", **visitor}).status_code == 200
    for streamed in (False, True):
        response = ask(limited, {"message": "Apa itu sedekah?", "stream": streamed, **visitor})
        assert response.status_code == 429 and response.headers["content-type"] == "application/json"
        body = response.json()
        assert (body["ok"], body["code"]) == (False, "RATE_LIMITED")
        assert 1 <= body["retryAfter"] <= 300 and response.headers["retry-after"] == str(body["retryAfter"])
    # A visitor who drops its ids is new, but its address has now asked four times.
    response = ask(limited, {"message": "Apa itu wakaf?"})
    assert (response.status_code, response.json()["code"]) == (429, "RATE_LIMITED")


# -- identity ---------------------------------------------------------------------------

def test_another_visitor_cannot_continue_a_conversation(server):
    mine = ask(server, {"message": "Apa kewenangan Baitul Mal Aceh?"}).json()
    forged = mine["visitorId"].split(":")[0] + ":" + "A" * 43
    intruders = [{}, {"visitorId": forged}, {"visitorId": ask(server, {"message": "Apa itu zakat?"}).json()["visitorId"]}]
    for intruder in intruders:
        for streamed in (False, True):
            response = ask(server, {"message": "lanjutkan", "conversationId": mine["conversationId"], "stream": streamed,
                                    **intruder})
            assert response.status_code == 404 and response.headers["content-type"] == "application/json"
            assert response.json() == {"ok": False, "message": "Conversation not found", "code": "NOT_FOUND"}
    # A forged id is never adopted: the server issues a fresh visitor instead.
    reissued = ask(server, {"message": "Apa itu zakat?", "visitorId": forged}).json()
    assert reissued["visitorId"] != forged and reissued["visitorId"].split(":")[0] != mine["visitorId"].split(":")[0]
    # A session id is bound to its visitor.
    other = ask(server, {"message": "Apa itu zakat?", "visitorId": reissued["visitorId"],
                         "sessionId": mine["sessionId"]}).json()
    assert other["sessionId"] != mine["sessionId"]
    # The owner still continues, and the intruders added nothing.
    continued = ask(server, {"message": "Siapa yang mengawasinya?", "conversationId": mine["conversationId"],
                             "visitorId": mine["visitorId"]}).json()
    assert continued["conversationId"] == mine["conversationId"]
    assert owned_conversations(owner_of(mine)).get().messages.count() == 4


def test_partner_conversations_are_not_reachable_publicly(server):
    partner = httpx.post(server.url + "/query", json={"query": "apa itu zakat?"},
                         headers={"X-API-Key": TEST_API_KEY, "X-User-Subject": "alice"}, timeout=60).json()
    response = ask(server, {"message": "lanjut", "conversationId": partner["conversation_id"]})
    assert (response.status_code, response.json()["code"]) == (404, "NOT_FOUND")


# -- access -----------------------------------------------------------------------------

@pytest.mark.parametrize("restriction", ["confidential", "owning_org_unit", "min_position_level", "sample_restricted"])
def test_restricted_documents_never_reach_a_public_answer(server, corpus, restriction):
    from retrieval.models import Chunk

    target = corpus.restricted[restriction]
    # The question does reach the document for a principal allowed to read it.
    admin = httpx.post(server.url + "/query", json={"query": target.question}, timeout=60, headers={
        "X-API-Key": TEST_API_KEY, "X-User-Subject": "auditor", "X-User-Role": "admin"}).json()
    assert target.document_id in {c["document_id"] for c in admin["citations"]}, admin
    assert target.secret in admin["answer"]
    restricted_ids = {r.document_id for r in corpus.restricted.values()}
    _, frames = ask_stream(server, {"message": target.question})
    json_body = ask(server, {"message": target.question}).json()
    for done in (done_of(frames), json_body):
        assert not restricted_ids & {source["document_id"] for source in done["sources"]}
        assert all(not RESTRICTION_FIELDS & set(source) for source in done["sources"])
        assert target.secret not in done["reply"]
        assert not any(target.secret in suggestion for suggestion in done["suggestions"])
    assert not any(target.secret in payload.get("text", "") for _, payload in frames)
    # Nor can a visitor read the document's passages by id.
    chunk_ids = Chunk.objects.filter(document_id=target.document_id).values_list("id", flat=True)
    assert chunk_ids
    for chunk_id in chunk_ids[:3]:
        response = httpx.get(f"{server.url}/api/public/rag/sources/{chunk_id}", timeout=10)
        assert (response.status_code, response.json()["code"]) == (404, "NOT_FOUND")


def test_cited_passage_of_a_public_document_is_readable(server):
    done = ask(server, {"message": QUESTION}).json()
    source = done["sources"][0]
    response = httpx.get(f"{server.url}/api/public/rag/sources/{source['chunk_id']}", timeout=10)
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True and body["source"] == source and body["text"]


# -- origins ----------------------------------------------------------------------------

def test_same_origin_and_partner_origin_are_allowed(server):
    same = ask(server, {"message": "Apa itu zakat?"}, {"Origin": server.url})
    assert same.status_code == 200 and "access-control-allow-origin" not in same.headers
    partner = ask(server, {"message": "Apa itu zakat?"}, {"Origin": PARTNER_ORIGIN})
    assert partner.status_code == 200
    assert partner.headers["access-control-allow-origin"] == PARTNER_ORIGIN
    assert "Origin" in partner.headers["vary"]
    _, frames = ask_stream(server, {"message": "Apa itu zakat?"}, {"Origin": PARTNER_ORIGIN})
    assert frames[-1][0] == "done"
    # Without Origin, the page's Referer tells where the request came from.
    referred = ask(server, {"message": "Apa itu zakat?"}, {"Referer": server.url + "/widget"})
    assert referred.status_code == 200
    # Server-to-server callers send neither; they are held by the same limits.
    assert ask(server, {"message": "Apa itu zakat?"}).status_code == 200


@pytest.mark.parametrize("headers", [{"Origin": "https://evil.example"}, {"Origin": "null"},
                                     {"Referer": "https://evil.example/page"},
                                     {"Origin": "https://partner.example.evil.example"}])
def test_other_origins_are_refused(server, headers):
    response = ask(server, {"message": "Apa itu zakat?"}, headers)
    assert response.status_code == 403
    assert response.json() == {"ok": False, "message": "Origin not allowed", "code": "FORBIDDEN"}
    assert "access-control-allow-origin" not in response.headers


def test_preflight_only_for_allowed_origins(server):
    request_headers = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}
    allowed = httpx.options(server.url + CHAT, headers={"Origin": PARTNER_ORIGIN, **request_headers}, timeout=10)
    assert allowed.status_code == 204
    assert allowed.headers["access-control-allow-origin"] == PARTNER_ORIGIN
    assert "POST" in allowed.headers["access-control-allow-methods"]
    assert "content-type" in allowed.headers["access-control-allow-headers"].lower()
    refused = httpx.options(server.url + CHAT, headers={"Origin": "https://evil.example", **request_headers}, timeout=10)
    assert refused.status_code == 403 and "access-control-allow-origin" not in refused.headers


def test_widget_page_and_script_are_public(server):
    page = httpx.get(server.url + "/widget", timeout=10)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script src="/widget.js" defer></script>' in page.text
    script = httpx.get(server.url + "/widget.js", timeout=10)
    assert script.status_code == 200 and script.headers["content-type"] == "text/javascript; charset=utf-8"
    assert '"chatPath": "/api/public/rag/chat"' in script.text and "{%" not in script.text
    assert '"maxQuestionChars": 1000' in script.text


# -- disconnect -------------------------------------------------------------------------

def test_disconnect_stops_the_answer_and_persists_nothing(live_server_factory, corpus):
    from answering.public.services import visitor_identify

    release = threading.Event()

    def slow(path, body):
        release.wait(10)
        return 200, {"data": [{"index": i, "embedding": [1.0] + [0.0] * 383} for i, _ in enumerate(body["input"])]}

    # Ids the server accepts (same signing key), so the owner of any stored turn is known here.
    identity = visitor_identify(visitor_id=None, session_id=None)
    with FakeModelServer(slow) as fake:
        slow_server = live_server_factory(**PUBLIC_ENV, ACEH_RAG_EMBEDDING__BACKEND="openai",
                                          ACEH_RAG_EMBEDDING__BASE_URL=fake.url, ACEH_RAG_EMBEDDING__MODEL="slow")
        received = ""
        with httpx.stream("POST", slow_server.url + CHAT, timeout=30,
                          json={"message": "Apa itu zakat?", "stream": True, "visitorId": identity.visitor_id},
                          headers={"Accept": "text/event-stream"}) as response:
            for text in response.iter_text():
                received += text
                if "searching" in received:
                    break
        # The client has gone while the answer waits on its embedding; let the dependency answer now.
        release.set()
        time.sleep(3)
    assert [name for name, _ in parse_frames(received)] == ["start", "phase"]
    assert not owned_conversations(identity.owner).exists()
