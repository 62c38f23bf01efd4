"""Model prose is text, never markup: HTML a model writes never reaches a published answer, on any route.

A real server answers with the scripted model on loopback; the model wraps a
supported sentence in script, an event-handler image, an iframe and inline
tags, on /query, /query/stream, /query/v2 and the public chat. Markdown
stays as written.
"""
from __future__ import annotations

import json

import httpx
import pytest

from tests.answering.scripted_model import ScriptedModel, careful_agent, completion, first_sentence, shown_passages
from tests.conftest import TEST_API_KEY, purge_committed_corpus
from tests.http_fakes import FakeModelServer
from tests.public.conftest import PARTNER_ORIGIN, PUBLIC_ENV
from tests.sse_client import stream

pytestmark = pytest.mark.django_db

KEY = {"X-API-Key": TEST_API_KEY}
ZAKAT = "Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh paling lambat akhir tahun berjalan."
QUESTION = "Ke mana muzakki wajib membayar zakat?"
HOSTILE = ('<script>alert("x")</script><img src=x onerror=alert(1)><iframe src="https://evil.example"></iframe>'
           '<!-- ignore the gate -->')
MARKUP_FREE = ("<", "script", "onerror", "iframe", "alert", "evil.example", "ignore the gate")


def marked_up_agent(body: dict):
    """Searches once, then answers from the first passage with HTML around and inside the Markdown."""
    if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
        return careful_agent(body)
    label, text = shown_passages(body)[0]
    sentence = first_sentence(text)
    if "segments" in body["messages"][0]["content"]:
        return completion(json.dumps({"segments": [
            {"text": f"{HOSTILE}Berikut **jawabannya**.", "kind": "framing", "cites": [], "layout": "paragraph"},
            {"text": f"<b>{sentence}</b>.<script>fetch('/x')</script>", "kind": "fact", "cites": [label],
             "layout": "paragraph"}]}))
    return completion(f"{HOSTILE}Berikut **jawabannya**. <b>{sentence}</b> [{label}].<script>fetch('/x')</script>")


@pytest.fixture(scope="module")
def server(live_server_factory, django_db_setup, django_db_blocker):
    from tests.factories import make_document

    with django_db_blocker.unblock():
        make_document(title="Qanun Baitul Mal", chunks=[ZAKAT])
    model = ScriptedModel(agent=marked_up_agent)
    with FakeModelServer(model) as fake:
        yield live_server_factory(ACEH_RAG_LLM__BASE_URL=fake.url, ACEH_RAG_LLM__MODEL="scripted",
                                  ACEH_RAG_LLM__MAX_RETRIES="0", **PUBLIC_ENV)
    with django_db_blocker.unblock():
        purge_committed_corpus()


def assert_published_as_text(answer: str):
    assert "muzakki wajib membayar zakat melalui Baitul Mal Aceh" in answer, answer
    assert "Berikut **jawabannya**." in answer                       # Markdown stays Markdown
    assert not [marker for marker in MARKUP_FREE if marker in answer], answer


def test_query_publishes_the_supported_sentence_without_markup(server):
    body = httpx.post(f"{server.url}/query", json={"query": QUESTION}, headers=KEY, timeout=60).json()
    assert body["fallback_used"] is False, body
    assert_published_as_text(body["answer"])
    assert all("<" not in claim["claim"] for claim in body["claim_map"])


def test_query_stream_reveals_the_same_markup_free_text(server):
    response, frames = stream(f"{server.url}/query/stream", {"query": QUESTION}, KEY)
    assert response.status_code == 200
    assert_published_as_text("".join(data["text"] for name, data in frames if name == "answer.delta"))


def test_query_v2_segments_are_text(server):
    body = httpx.post(f"{server.url}/query/v2", json={"query": QUESTION}, headers=KEY, timeout=60).json()
    assert_published_as_text(body["answer"])
    [claim] = [c for c in body["claims"] if "muzakki" in c["text"]]
    assert claim["verdict"] == "supported" and body["answer"][claim["start"]:claim["end"]] == claim["text"]


def test_public_chat_reply_is_text(server):
    response = httpx.post(f"{server.url}/api/public/rag/chat", json={"message": QUESTION},
                          headers={"Origin": PARTNER_ORIGIN}, timeout=60)
    assert response.status_code == 200, response.text
    assert_published_as_text(response.json()["reply"])


@pytest.mark.parametrize("written, published", [
    ("a < b dan c > d, nilai <5%", "a < b dan c > d, nilai <5%"),           # comparisons are text
    ("Lihat <https://jdih.acehprov.go.id/q/1> [P1].", "Lihat <https://jdih.acehprov.go.id/q/1> [P1]."),  # autolink
    ("[klik](javascript:alert(1)) dan [JDIH](https://jdih.acehprov.go.id)", "klik dan [JDIH](https://jdih.acehprov.go.id)"),
    ("Pasal <i>1</i> <a href=\"x\" onclick=\"y\">Qanun</a>", "Pasal 1 Qanun"),
    ("teks <img src=x onerror=alert(1)", "teks &lt;img src=x onerror=alert(1)"),  # an unclosed tag is shown, not parsed
    ("<tool_call>{\"name\": \"x\"}</tool_call>", "{\"name\": \"x\"}"),       # still JSON: the agent regenerates
])
def test_prose_text_removes_markup_and_keeps_text_and_markdown(written, published):
    from answering.llm.markup import prose_text

    assert prose_text(written) == published
