"""/conversations routes: creation, listing, read-back, ownership in both modes."""
from __future__ import annotations

import uuid
from dataclasses import replace

import pytest
from django.conf import settings
from django.test import override_settings

from tests.factories import make_document

pytestmark = pytest.mark.django_db

PPID = ("Pejabat Pengelola Informasi dan Dokumentasi wajib memberikan pemberitahuan tertulis atas permohonan "
        "informasi publik paling lambat 10 (sepuluh) hari kerja sejak permohonan diterima.")


def enforced():
    return override_settings(ACEH_RAG=replace(settings.ACEH_RAG, auth=replace(settings.ACEH_RAG.auth, require_principal=True)))


def as_user(subject):
    return {"HTTP_X_USER_SUBJECT": subject}


def create(client, body=None, **headers):
    return client.post("/conversations", data=body or {}, content_type="application/json", **headers)


def test_create_returns_201_with_the_seed_fields(api_client):
    response = create(api_client, {"title": "Aceh budget follow-up"}, **as_user("employee-123"))
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "user_id", "title", "metadata"}
    uuid.UUID(body["id"])
    assert (body["user_id"], body["title"], body["metadata"]) == ("employee-123", "Aceh budget follow-up", {"mode": "explicit-create"})


def test_create_defaults_to_the_anonymous_owner_and_a_null_title(api_client):
    body = create(api_client).json()
    assert (body["user_id"], body["title"]) == ("anonymous", None)


def test_user_id_is_a_fallback_only_without_a_trusted_subject(api_client):
    assert create(api_client, {"user_id": "dev-user"}).json()["user_id"] == "dev-user"
    assert create(api_client, {"user_id": "dev-user"}, **as_user("emp-9")).json()["user_id"] == "emp-9"


@pytest.mark.parametrize("body", [{"user_id": ""}, {"title": ""}, {"title": 5}, {"metadata": {}}, {"surprise": 1}])
def test_invalid_create_bodies_are_422(api_client, body):
    response = create(api_client, body)
    assert response.status_code == 422 and isinstance(response.json()["detail"], list)


def test_list_is_the_owners_newest_first(api_client):
    assert api_client.get("/conversations", **as_user("nobody")).json() == []
    first = create(api_client, {"title": "satu"}, **as_user("alice")).json()
    second = create(api_client, {"title": "dua"}, **as_user("alice")).json()
    create(api_client, {"title": "punya bob"}, **as_user("bob"))
    listed = api_client.get("/conversations", **as_user("alice")).json()
    assert [c["id"] for c in listed] == [second["id"], first["id"]]


@pytest.mark.parametrize("mode", ["off", "on"])
def test_subjects_are_isolated(api_client, mode):
    make_document(chunks=[PPID])
    if mode == "off":
        alice, bob = {}, {}
        alice_q, bob_q = "?user_id=alice", "?user_id=bob"
        alice_body = {"user_id": "alice"}
    else:
        alice, bob = as_user("alice"), as_user("bob")
        alice_q = bob_q = ""
        alice_body = {}
    context = enforced() if mode == "on" else override_settings()
    with context:
        conversation = create(api_client, {"title": "rahasia alice", **alice_body}, **alice).json()["id"]
        assert api_client.get(f"/conversations{bob_q}", **bob).json() == []
        response = api_client.get(f"/conversations/{conversation}{bob_q}", **bob)
        assert (response.status_code, response.json()) == (404, {"detail": f"Conversation {conversation} not found",
                                                              "code": "conversation_not_found"})
        if mode == "on":
            resumed = api_client.post("/query", data={"query": "berapa hari PPID menjawab?", "conversation_id": conversation},
                                      content_type="application/json", **bob)
            assert resumed.status_code == 404
        assert api_client.get(f"/conversations/{conversation}{alice_q}", **alice).status_code == 200


def test_unknown_conversation_is_404(api_client):
    missing = uuid.uuid4()
    response = api_client.get(f"/conversations/{missing}")
    assert (response.status_code, response.json()) == (404, {"detail": f"Conversation {missing} not found",
                                                          "code": "conversation_not_found"})


def test_read_back_has_every_message_oldest_first_with_citations(api_client):
    make_document(chunks=[PPID])
    answer = api_client.post("/query", data={"query": "Berapa hari PPID wajib memberikan pemberitahuan tertulis?"},
                             content_type="application/json", **as_user("reader")).json()
    detail = api_client.get(f"/conversations/{answer['conversation_id']}", **as_user("reader")).json()
    assert set(detail) == {"id", "user_id", "title", "metadata", "messages"}
    assert detail["title"] == "Berapa hari PPID wajib memberikan pemberitahuan tertulis?"
    assert detail["metadata"] == {"mode": "m1-agentic"}
    user, assistant = detail["messages"]
    assert (user["role"], user["source_citations"], user["metadata"]) == ("user", [], {})
    assert assistant["id"] == answer["message_id"] and assistant["role"] == "assistant"
    assert assistant["content"] == answer["answer"]
    assert assistant["source_citations"] == answer["citations"]
    assert set(assistant["metadata"]) >= {"conversation", "retrieval", "synthesis", "policy_guard"}
    assert assistant["metadata"]["policy_guard"]["action"] == "allowed"


def test_an_explicit_conversation_is_resumed_by_the_anonymous_query_owner(api_client):
    """DESIGN.md: /conversations' default owner and /query's nil-UUID user_id are one owner."""
    make_document(chunks=[PPID])
    conversation = create(api_client, {"title": "baru"}).json()["id"]
    answer = api_client.post("/query", data={"query": "Berapa hari PPID menjawab?", "conversation_id": conversation},
                             content_type="application/json")
    assert answer.status_code == 200 and answer.json()["conversation_id"] == conversation
    assert len(api_client.get(f"/conversations/{conversation}").json()["messages"]) == 2
