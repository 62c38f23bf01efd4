"""One label format on /query: the model path publishes the seed's ``[chunk:<uuid>]`` labels (a tool read its
stable ``[tool:<call>]``), as the deterministic path does; claim_map keeps its request-local keys. Against a real
server and the scripted model."""
from __future__ import annotations

import re

import httpx
import pytest

from tests.answering.scripted_model import ScriptedModel, completion, first_sentence, shown_passages, tool_call
from tests.conftest import TEST_API_KEY, purge_committed_corpus
from tests.http_fakes import FakeModelServer
from tests.sse_client import stream

pytestmark = pytest.mark.django_db

KEY = {"X-API-Key": TEST_API_KEY}
ZAKAT = ["Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh paling lambat akhir tahun berjalan.",
         "Zakat yang dibayarkan melalui Baitul Mal Aceh mengurangi penghasilan kena pajak muzakki."]
QUESTION = "Ke mana muzakki wajib membayar zakat dan apa manfaatnya bagi pajak?"
CHUNK_LABEL = re.compile(r"\[chunk:([0-9a-f-]{36})\]")


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    from tests.factories import make_document

    with django_db_blocker.unblock():
        make_document(title="Qanun Baitul Mal", chunks=ZAKAT)
    yield
    with django_db_blocker.unblock():
        purge_committed_corpus()


def two_label_agent(body):
    """Searches, then writes two sentences citing two shown passages by their request-local labels."""
    if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
        return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": "zakat muzakki"})])
    shown = shown_passages(body)
    sentences = [f"{first_sentence(text)} [{label}]." for label, text in shown if "muzakki" in text][:2]
    return completion(" ".join(sentences))


@pytest.fixture(scope="module")
def server(live_server_factory, corpus):
    model = ScriptedModel(agent=two_label_agent)
    with FakeModelServer(model) as fake:
        yield live_server_factory(ACEH_RAG_LLM__BASE_URL=fake.url, ACEH_RAG_LLM__MODEL="scripted",
                                  ACEH_RAG_LLM__MAX_RETRIES="0")


def test_the_model_path_publishes_chunk_labels_and_keeps_claim_map(server):
    response = httpx.post(server.url + "/query", json={"query": QUESTION}, headers=KEY, timeout=60)
    assert response.status_code == 200
    body = response.json()
    assert body["fallback_used"] is False, body
    assert not re.search(r"\[P\d+\]", body["answer"])
    labelled = CHUNK_LABEL.findall(body["answer"])
    assert len(set(labelled)) == 2 and set(labelled) == {c["chunk_id"] for c in body["citations"]}
    # claim_map is as it was: request-local keys, each joined to the chunk its label names.
    keys = [(c["citation_key"], c["chunk_id"]) for claim in body["claim_map"] for c in claim["citations"]]
    assert keys and all(re.fullmatch(r"P\d+", key) for key, _ in keys)
    assert {chunk for _, chunk in keys} == set(labelled)
    stored = httpx.get(f"{server.url}/conversations/{body['conversation_id']}", headers=KEY, timeout=30).json()
    assert stored["messages"][-1]["content"] == body["answer"]


def test_the_stream_reveals_the_same_labels(server):
    response, frames = stream(server.url + "/query/stream", {"query": QUESTION}, KEY)
    assert response.status_code == 200
    answer = "".join(data["text"] for name, data in frames if name == "answer.delta")
    cited = {data["chunk_id"] for name, data in frames if name == "citation"}
    assert not re.search(r"\[P\d+\]", answer) and set(CHUNK_LABEL.findall(answer)) == cited
