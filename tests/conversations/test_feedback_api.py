"""POST /messages/{message_id}/feedback and the public widget's feedback route."""
from __future__ import annotations

import uuid

import pytest

from conversations.models import Feedback, Message
from tests.factories import make_document

pytestmark = pytest.mark.django_db

QUESTION = "Berapa hari PPID wajib menjawab permohonan informasi?"


def as_user(subject: str) -> dict:
    return {"HTTP_X_USER_SUBJECT": subject}


@pytest.fixture
def answer(api_client):
    make_document(chunks=["PPID wajib menjawab permohonan informasi paling lambat 10 hari kerja."])

    def ask(subject: str = "alice") -> Message:
        body = api_client.post("/query", data={"query": QUESTION}, content_type="application/json", **as_user(subject)).json()
        return Message.objects.get(conversation_id=body["conversation_id"], role="assistant")

    return ask


def rate(api_client, message_id, subject="alice", **body):
    return api_client.post(f"/messages/{message_id}/feedback", data=body, content_type="application/json", **as_user(subject))


def test_first_rating_is_201_and_re_posting_replaces_it_with_200(api_client, answer):
    message = answer()
    first = rate(api_client, message.id, rating="down", comment="  Menyebut pasal yang salah. ")
    assert first.status_code == 201
    assert first.json()["rating"] == "down" and first.json()["comment"] == "Menyebut pasal yang salah."
    assert first.json()["message_id"] == str(message.id)
    again = rate(api_client, message.id, rating="up")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    stored = Feedback.objects.get()
    assert (stored.rating, stored.comment, stored.subject) == ("up", "", "alice")


def test_foreign_and_unknown_messages_are_404_and_leave_nothing(api_client, answer):
    message = answer("alice")
    foreign = rate(api_client, message.id, subject="mallory", rating="down")
    assert foreign.status_code == 404 and foreign.json() == {"detail": f"Message {message.id} not found",
                                                                  "code": "message_not_found"}
    unknown_id = uuid.uuid4()
    unknown = rate(api_client, unknown_id, rating="up")
    assert unknown.status_code == 404 and unknown.json() == {"detail": f"Message {unknown_id} not found",
                                                                  "code": "message_not_found"}
    # The question itself is not an answer one can rate.
    question = Message.objects.get(conversation=message.conversation, role="user")
    assert rate(api_client, question.id, rating="up").status_code == 404
    assert not Feedback.objects.exists()


def test_owners_rate_only_their_own_answers(api_client, answer):
    alice, bob = answer("alice"), answer("bob")
    assert rate(api_client, alice.id, subject="alice", rating="up").status_code == 201
    assert rate(api_client, bob.id, subject="bob", rating="down").status_code == 201
    assert rate(api_client, bob.id, subject="alice", rating="up").status_code == 404
    assert dict(Feedback.objects.values_list("subject", "rating")) == {"alice": "up", "bob": "down"}


@pytest.mark.parametrize("body,field", [
    ({"rating": "meh"}, "rating"),
    ({}, "rating"),
    ({"rating": "up", "comment": "x" * 2001}, "comment"),
    ({"rating": "up", "extra": 1}, "extra"),
])
def test_bad_bodies_are_422_in_the_fastapi_shape(api_client, answer, body, field):
    message = answer()
    response = rate(api_client, message.id, **body)
    assert response.status_code == 422
    assert any(field in item["loc"] for item in response.json()["detail"]), response.json()
    assert not Feedback.objects.exists()


def test_malformed_message_id_is_422(api_client):
    assert rate(api_client, "not-a-uuid", rating="up").status_code == 422


@pytest.mark.django_db(transaction=True)
def test_a_visitor_rates_their_own_public_answer_only(client):
    make_document(chunks=["PPID wajib menjawab permohonan informasi paling lambat 10 hari kerja."])
    done = client.post("/api/public/rag/chat", data={"message": QUESTION}, content_type="application/json").json()
    body = {"visitorId": done["visitorId"], "conversationId": done["conversationId"], "turn": 0, "rating": "down",
            "comment": "Kurang jelas"}

    def post(payload):
        return client.post("/api/public/rag/feedback", data=payload, content_type="application/json")

    assert post(body).status_code == 201
    assert post({**body, "rating": "up"}).status_code == 200
    stored = Feedback.objects.get()
    assert stored.rating == "up" and stored.subject == "public:" + done["visitorId"].split(":")[0]
    # Another (freshly issued or forged) visitor, an unknown turn, a bad rating.
    stranger = client.post("/api/public/rag/chat", data={"message": QUESTION}, content_type="application/json").json()
    assert post({**body, "visitorId": stranger["visitorId"]}).json() == {"ok": False, "message": "Answer not found", "code": "NOT_FOUND"}
    assert post({**body, "visitorId": "v_forged:signature"}).status_code == 404
    assert post({**body, "turn": 3}).status_code == 404
    bad = post({**body, "rating": "meh"})
    assert bad.status_code == 400 and bad.json()["code"] == "BAD_REQUEST"
    assert Feedback.objects.count() == 1
