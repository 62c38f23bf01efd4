"""POST /v1/chat/stream, the agent route behind the public chat (seed: public-chat-sse-protocol, "Agent route
(internal)"), against a real uvicorn server: the API key, the same body and events, disconnect cancellation."""
from __future__ import annotations

import re
import threading
import time

import httpx
import pytest

from tests.conftest import TEST_API_KEY
from tests.http_fakes import FakeModelServer
from tests.public.conftest import PUBLIC_ENV
from tests.public.test_public_chat_protocol import DONE_FIELDS, QUESTION, owned_conversations, owner_of
from tests.sse_client import parse_frames, stream

pytestmark = pytest.mark.django_db

AGENT = "/v1/chat/stream"
KEY = {"X-API-Key": TEST_API_KEY}


def test_the_key_is_required(server):
    response = httpx.post(server.url + AGENT, json={"message": QUESTION}, timeout=30)
    assert response.status_code == 401 and response.json()["code"] == "invalid_api_key"


def test_the_agent_route_streams_the_public_protocol_and_continues_the_chat(server):
    response, frames = stream(server.url + AGENT, {"message": QUESTION}, KEY)
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
    assert response.headers["x-accel-buffering"] == "no"
    names = [name for name, _ in frames]
    assert re.fullmatch(r"start (phase )*(delta )+phase done", " ".join(names)), names
    done = frames[-1][1]
    assert set(done) == DONE_FIELDS and done["ok"] is True
    assert "".join(data["text"] for name, data in frames if name == "delta") == done["reply"]
    assert "10 (sepuluh) hari kerja" in done["reply"] and "[1]" in done["reply"] and done["sources"]
    assert owned_conversations(owner_of(done)).count() == 1
    _, later = stream(server.url + AGENT, {"message": "Apakah jangka waktu itu dapat diperpanjang?",
                                           "conversationId": done["conversationId"], "visitorId": done["visitorId"],
                                           "sessionId": done["sessionId"]}, KEY)
    assert later[-1][0] == "done" and later[-1][1]["conversationId"] == done["conversationId"]


@pytest.mark.parametrize("body, status", [({"message": "   "}, 400), ({"message": "x", "conversationId": "42"}, 422)])
def test_bad_bodies_are_json_errors_before_any_stream(server, body, status):
    response = httpx.post(server.url + AGENT, json=body, headers=KEY, timeout=30)
    assert response.status_code == status and "detail" in response.json()


def test_a_confidential_document_stays_out_of_reach(server, corpus):
    restricted = corpus.restricted["confidential"]
    _, frames = stream(server.url + AGENT, {"message": restricted.question}, KEY)
    assert restricted.secret not in str(frames)


def test_disconnect_cancels_the_answer_and_persists_nothing(live_server_factory, corpus):
    from answering.public.services import visitor_identify

    release = threading.Event()

    def slow(path, body):
        release.wait(10)
        return 200, {"data": [{"index": i, "embedding": [1.0] + [0.0] * 383} for i, _ in enumerate(body["input"])]}

    identity = visitor_identify(visitor_id=None, session_id=None)
    with FakeModelServer(slow) as fake:
        slow_server = live_server_factory(**PUBLIC_ENV, ACEH_RAG_EMBEDDING__BACKEND="openai",
                                          ACEH_RAG_EMBEDDING__BASE_URL=fake.url, ACEH_RAG_EMBEDDING__MODEL="slow")
        received = ""
        with httpx.stream("POST", slow_server.url + AGENT, timeout=30, headers={**KEY, "Accept": "text/event-stream"},
                          json={"message": "Apa itu zakat?", "visitorId": identity.visitor_id}) as response:
            for text in response.iter_text():
                received += text
                if "searching" in received:
                    break
        release.set()
        time.sleep(3)
    assert [name for name, _ in parse_frames(received)] == ["start", "phase"]
    assert not owned_conversations(identity.owner).exists()


def test_on_the_model_path_the_reply_numbers_its_sources(live_server_factory, corpus):
    """The model path publishes [chunk:<uuid>] labels (#31); the reply still numbers them [n], none is lost."""
    from tests.answering.scripted_model import ScriptedModel, careful_agent

    model = ScriptedModel(agent=lambda body: careful_agent(body, query="jangka waktu pemberitahuan tertulis permintaan informasi"))
    with FakeModelServer(model) as fake:
        server = live_server_factory(**PUBLIC_ENV, ACEH_RAG_LLM__BASE_URL=fake.url, ACEH_RAG_LLM__MODEL="scripted")
        _, frames = stream(server.url + AGENT, {"message": QUESTION}, KEY)
    done = frames[-1][1]
    assert frames[-1][0] == "done" and done["route"]["reason"] == "grounded", done
    assert "[1]" in done["reply"] and len(done["sources"]) >= 1
    assert not re.search(r"\[(chunk:|P\d)", done["reply"])
