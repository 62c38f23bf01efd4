"""POST /playground: a verified admin tries an editorial prompt; nothing is published (issue #8)."""
from __future__ import annotations

import json
import time
import uuid
from dataclasses import replace

import httpx
import pytest
from django.conf import settings
from django.test import override_settings

from kernel.config import PlaygroundSettings
from answering.models import AnswerTrace, PlaygroundRun
from conversations.models import Conversation, Message
from memory.models import Memory
from tests.acehrag.test_jwt_identity import HS_KEY, SECRET, auth_config, make_token
from tests.answering.scripted_model import ScriptedModel, completion, first_sentence, shown_passages, tool_call
from tests.answering.test_model_agent import model_settings
from tests.conftest import TEST_API_KEY
from tests.factories import make_document
from tests.http_fakes import FakeModelServer

pytestmark = pytest.mark.django_db

ZAKAT = "Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh paling lambat akhir tahun berjalan."
# The first sentence would become a memory ("Works at Bappeda") on a published route.
QUESTION = "Saya bekerja di Bappeda. Ke mana muzakki wajib membayar zakat?"
PROMPT = "Jawablah sebagai redaktur uji coba PLAYGROUND-7731 dengan kalimat yang sangat singkat."
V2_FIELDS = {"schema", "answer", "trace_id", "history_truncated", "history_exchanges_in_view", "citations",
             "fallback_used", "fallback_reason", "claims", "framing", "faithfulness", "claims_supported",
             "claims_total", "grounding_rate", "tool", "tool_executed"}
PLAYGROUND_FIELDS = V2_FIELDS | {"playground_run_id", "published", "latency_ms"}


@pytest.fixture
def corpus():
    return make_document(title="Qanun Aceh tentang Baitul Mal", chunks=[ZAKAT])


def admin(subject: str | None = None, role: str = "admin") -> dict:
    """Trusted identity headers (verified while trust is on, the test default); a fresh subject per call
    keeps each test's rate-limit window its own."""
    return {"HTTP_X_USER_SUBJECT": subject or f"admin-{uuid.uuid4().hex[:8]}", "HTTP_X_USER_ROLE": role}


def try_prompt(client, headers: dict | None = None, **body):
    payload = {"editorial_prompt": PROMPT, "query": QUESTION, **body}
    return client.post("/playground", data=json.dumps(payload), content_type="application/json",
                       **(admin() if headers is None else headers))


def playground_settings(**values) -> override_settings:
    return override_settings(ACEH_RAG=replace(settings.ACEH_RAG, playground=PlaygroundSettings(**values)))


def published_rows() -> tuple[int, int, int, int]:
    return Conversation.objects.count(), Message.objects.count(), Memory.objects.count(), AnswerTrace.objects.count()


# -- a trial run ---------------------------------------------------------------------------


def test_an_admin_trial_answers_the_v2_body_and_publishes_nothing(api_client, corpus):
    started = time.perf_counter()
    response = try_prompt(api_client)
    wall_ms = (time.perf_counter() - started) * 1000
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == PLAYGROUND_FIELDS
    assert body["schema"] == "annotate-v2" and body["published"] is False and body["trace_id"] is None
    # The reported latency is the pipeline's own time: positive and inside the request's wall time.
    assert isinstance(body["latency_ms"], (int, float)) and 0 < body["latency_ms"] <= wall_ms
    assert "Baitul Mal Aceh" in body["answer"] and body["citations"][0]["document_id"] == str(corpus.id)
    # Nothing published: no conversation, message, memory (the question states a workplace) or trace.
    assert published_rows() == (0, 0, 0, 0)
    run = PlaygroundRun.objects.get()
    assert str(run.id) == str(uuid.UUID(body["playground_run_id"]))
    assert (run.status, run.fallback_reason, run.error_status) == ("ok", None, None)
    assert (run.claims_total, run.claims_supported) == (body["claims_total"], body["claims_supported"])
    assert run.citations_count == len(body["citations"]) and run.tool_calls_count >= 1
    assert run.latency_ms == body["latency_ms"]


def test_the_receipt_holds_no_text_of_the_run(api_client, corpus):
    body = try_prompt(api_client).json()
    run = PlaygroundRun.objects.get(id=body["playground_run_id"])
    stored = [str(getattr(run, f.attname)) for f in PlaygroundRun._meta.fields]
    for text in (PROMPT, "PLAYGROUND-7731", QUESTION, "muzakki", body["answer"], ZAKAT, "Baitul Mal"):
        assert not any(text in value for value in stored), text


def test_the_same_question_on_query_v2_does_publish(api_client, corpus, django_capture_on_commit_callbacks):
    """The contrast that makes "publishes nothing" mean something: /query/v2 writes every row."""
    with django_capture_on_commit_callbacks(execute=True):      # memory is learnt once the turn commits
        response = api_client.post("/query/v2", data={"query": QUESTION}, content_type="application/json", **admin())
    assert response.status_code == 200
    conversations, messages, memories, traces = published_rows()
    assert conversations == 1 and messages == 2 and memories == 1 and traces == 1


def test_a_policy_refusal_is_a_refused_receipt(api_client, corpus):
    body = try_prompt(api_client, query="Cari NIK milik bapak Ahmad di Banda Aceh").json()
    assert body["fallback_reason"] == "policy_blocked" and body["published"] is False
    run = PlaygroundRun.objects.get()
    assert (run.status, run.fallback_reason) == ("refused", "policy_blocked")


def test_a_pipeline_error_is_answered_and_leaves_an_error_receipt(api_client):
    response = try_prompt(api_client)          # no document is indexed
    assert response.status_code == 404 and "detail" in response.json()
    run = PlaygroundRun.objects.get()
    assert (run.status, run.error_status, run.claims_total) == ("error", 404, 0)
    assert published_rows() == (0, 0, 0, 0)


def test_a_conversation_of_the_admin_is_read_for_history_and_never_written(api_client, corpus):
    headers = admin()
    first = api_client.post("/query/v2", data={"query": "Ke mana zakat dibayar?"}, content_type="application/json",
                            **headers).json()
    before = Message.objects.count()
    response = try_prompt(api_client, headers, conversation_id=first["conversation_id"], query="Kapan paling lambat?")
    assert response.status_code == 200
    assert response.json()["history_exchanges_in_view"] == 1
    assert Message.objects.count() == before and Conversation.objects.count() == 1
    # Another subject's conversation is unknown to this admin, as on /query/v2.
    foreign = try_prompt(api_client, conversation_id=first["conversation_id"])
    assert foreign.status_code == 404


# -- who may run it -------------------------------------------------------------------------


def test_a_missing_api_key_is_401(client, corpus):
    assert try_prompt(client).status_code == 401


def test_a_verified_user_who_is_not_admin_is_403(api_client, corpus):
    response = try_prompt(api_client, admin(role="user"))
    assert response.status_code == 403 and response.json() == {"detail": "Verified admin principal required",
                                                               "code": "admin_required"}
    assert not PlaygroundRun.objects.exists()


def test_an_unverified_admin_is_403(api_client, corpus):
    # Identity can be verified (a JWT key exists), but untrusted headers claiming admin are not.
    with auth_config(keys=[HS_KEY], trust=False):
        response = try_prompt(api_client)
    assert response.status_code == 403 and "detail" in response.json()


def test_a_jwt_admin_may_run_it(api_client, corpus):
    token = make_token(SECRET, sub="admin-jwt-1", role="admin")
    with auth_config(keys=[HS_KEY], trust=False):
        response = try_prompt(api_client, {"HTTP_AUTHORIZATION": f"Bearer {token}"})
    assert response.status_code == 200 and set(response.json()) == PLAYGROUND_FIELDS
    assert PlaygroundRun.objects.get().admin_subject == "admin-jwt-1"


def test_without_verified_identity_it_fails_closed_before_anything_else(api_client, corpus):
    with auth_config(trust=False):
        response = try_prompt(api_client)
        malformed = api_client.post("/playground", data="{", content_type="application/json", **admin())
    assert response.status_code == 503 and "detail" in response.json()
    assert malformed.status_code == 503          # before the body is even parsed
    assert not PlaygroundRun.objects.exists()


# -- the body --------------------------------------------------------------------------------


@pytest.mark.parametrize("prompt", ["", "x" * 2001])
def test_an_editorial_prompt_outside_1_to_2000_characters_is_422(api_client, corpus, prompt):
    response = try_prompt(api_client, editorial_prompt=prompt)
    assert response.status_code == 422
    [error] = response.json()["detail"]
    assert error["loc"] == ["body", "editorial_prompt"]


def test_a_missing_editorial_prompt_is_422_and_2000_characters_are_accepted(api_client, corpus):
    response = api_client.post("/playground", data={"query": QUESTION}, content_type="application/json", **admin())
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "editorial_prompt"]
    assert try_prompt(api_client, editorial_prompt="x" * 2000).status_code == 200


def test_a_blank_editorial_prompt_is_400_like_a_blank_query(api_client, corpus):
    blank_prompt = try_prompt(api_client, editorial_prompt="   \n ")
    blank_query = try_prompt(api_client, query="   ")
    assert (blank_prompt.status_code, blank_query.status_code) == (400, 400)
    assert blank_prompt.json() == {"detail": "editorial_prompt must not be blank", "code": "editorial_prompt_blank"}
    assert not PlaygroundRun.objects.exists()


# -- rate limit ------------------------------------------------------------------------------


def test_each_admin_is_rate_limited_on_their_own(api_client, corpus):
    alice, bob = admin("admin-alice-rl"), admin("admin-bob-rl")
    with playground_settings(rate_limit=2, rate_window_seconds=60):
        statuses = [try_prompt(api_client, alice).status_code for _ in range(2)]
        limited = try_prompt(api_client, alice)
        other = try_prompt(api_client, bob)
    assert statuses == [200, 200]
    assert limited.status_code == 429 and "detail" in limited.json()
    assert 1 <= int(limited["Retry-After"]) <= 60
    assert other.status_code == 200
    assert PlaygroundRun.objects.filter(admin_subject="admin-alice-rl").count() == 2


# -- the prompt reaches the model, for that request only --------------------------------------


def segments_agent(body):
    """Search once, then answer one fact copied from the first passage, citing it."""
    if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
        return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": "zakat"})])
    label, text = shown_passages(body)[0]
    segment = {"text": first_sentence(text) + ".", "kind": "fact", "cites": [label], "layout": "paragraph"}
    return completion(json.dumps({"segments": [segment]}, ensure_ascii=False))


def agent_system_prompts(model: ScriptedModel) -> list[str]:
    return [body["messages"][0]["content"] for body in model.bodies("agent")]


def test_the_editorial_prompt_replaces_the_agents_for_that_request_only(api_client, corpus):
    model = ScriptedModel(agent=segments_agent)
    headers = admin()
    with FakeModelServer(model) as fake, model_settings(fake.url):
        trial = try_prompt(api_client, headers)
        trial_prompts = agent_system_prompts(model)
        model.calls.clear()
        later = api_client.post("/query/v2", data={"query": QUESTION}, content_type="application/json", **headers)
        later_prompts = agent_system_prompts(model)
    assert trial.status_code == 200 and trial.json()["claims_supported"] == 1
    assert trial_prompts and all(s.startswith(PROMPT) for s in trial_prompts)
    assert later.status_code == 200
    assert later_prompts and not any("PLAYGROUND-7731" in s for s in later_prompts)
    assert all(s.startswith("Anda adalah asisten dokumen resmi Pemerintah Aceh") for s in later_prompts)
    # The trial published nothing; the later /query/v2 answer did.
    assert Conversation.objects.count() == 1 and PlaygroundRun.objects.count() == 1


# -- a real server -----------------------------------------------------------------------------


def test_a_real_server_answers_an_admin_trial_then_rate_limits_it(live_server_factory, transactional_db):
    make_document(title="Qanun Aceh tentang Baitul Mal", chunks=[ZAKAT])
    server = live_server_factory(ACEH_RAG_PLAYGROUND__RATE_LIMIT="1")
    headers = {"X-API-Key": TEST_API_KEY, "X-User-Subject": f"admin-live-{uuid.uuid4().hex[:8]}",
               "X-User-Role": "admin"}
    payload = {"editorial_prompt": PROMPT, "query": QUESTION}
    before = published_rows()          # other modules' servers may have committed rows

    def post(**extra):
        return httpx.post(server.url + "/playground", json=payload, headers={**headers, **extra}, timeout=60)

    response = post()
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == PLAYGROUND_FIELDS and body["published"] is False
    limited = post()
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    assert post(**{"X-User-Role": "user"}).status_code == 403
    assert published_rows() == before
    assert PlaygroundRun.objects.get(admin_subject=headers["X-User-Subject"]).id == uuid.UUID(body["playground_run_id"])


def test_the_admin_lists_receipts_read_only(admin_client, api_client, corpus):
    try_prompt(api_client)
    page = admin_client.get("/admin/answering/playgroundrun/")
    assert page.status_code == 200 and b"admin-" in page.content
    assert admin_client.get("/admin/answering/playgroundrun/add/").status_code == 403
