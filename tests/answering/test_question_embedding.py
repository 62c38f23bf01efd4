"""An answer embeds its question once (every search arm and memory recall reuse the vector),
and /query stays within a bounded number of queries."""
from __future__ import annotations

import pytest

from answering.models import AnswerTrace
from conversations.models import Conversation
from memory.extraction import MemoryCandidate
from memory.services import memory_record
from retrieval import embedders
from tests.factories import make_document

pytestmark = pytest.mark.django_db

PAJAK = [
    "Pembebasan tunggakan pokok Pajak Kendaraan Bermotor sebesar 100% (seratus persen), kecuali masa pajak tahun berjalan.",
    "Pembebasan Pajak atas Kendaraan Bermotor berdasarkan Peraturan Gubernur ini berlaku sampai dengan 30 April 2026.",
]
ZAKAT = ["Baitul Mal Aceh mengelola zakat, infak dan harta wakaf di tingkat Aceh."]
FIRST = "Berapa persen pembebasan tunggakan pokok pajak kendaraan bermotor?"
FOLLOW = "yang tadi berlaku sampai kapan?"          # a follow-up: a carried arm and the main arm


class CountingEmbedder:
    """The configured embedder, unchanged, keeping every text it embeds as a query."""

    def __init__(self, inner):
        self.inner = inner
        self.queries: list[str] = []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def embed_queries(self, texts):
        texts = list(texts)
        self.queries += texts
        return self.inner.embed_queries(texts)

    def embed_passages(self, texts):
        return self.inner.embed_passages(texts)


@pytest.fixture
def counting(monkeypatch):
    """Every embedder the process builds from now on is a CountingEmbedder around the real one."""
    built: list[CountingEmbedder] = []
    real = embedders.build_embedder

    def build(config):
        built.append(CountingEmbedder(real(config)))
        return built[-1]

    monkeypatch.setattr(embedders, "build_embedder", build)
    embedders._cached_embedder.cache_clear()
    yield lambda: built[-1]
    embedders._cached_embedder.cache_clear()


@pytest.fixture(autouse=True)
def documents():
    make_document(title="Peraturan Gubernur Aceh Nomor 25 Tahun 2025 tentang Pembebasan Pajak Kendaraan Bermotor",
                  chunks=PAJAK)
    make_document(title="Qanun Aceh Nomor 10 Tahun 2018 tentang Baitul Mal", chunks=ZAKAT)


def ask(client, route, query, conversation_id=None):
    body = {"query": query, **({"conversation_id": conversation_id} if conversation_id else {})}
    response = client.post(route, data=body, content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.parametrize("route", ["/query", "/query/v2"])
def test_a_followup_with_memories_embeds_its_question_once(api_client, counting, route):
    first = ask(api_client, route, FIRST)
    owner = Conversation.objects.get(id=first["conversation_id"]).owner
    memory_record(owner=owner, candidate=MemoryCandidate("fact", "domisili", "Saya tinggal di Banda Aceh.", 0.5),
                  confidential=False)
    embedder = counting()
    embedder.queries.clear()

    body = ask(api_client, route, FOLLOW, first["conversation_id"])

    steps = AnswerTrace.objects.get(id=body["trace_id"]).steps
    assert [s["step"] for s in steps].count("search_documents") >= 2       # more than one arm ran
    assert "memory_recall" in [s["step"] for s in steps]
    assert embedder.queries == [FOLLOW]


def test_a_first_question_is_embedded_once(api_client, counting):
    ask(api_client, "/query", FIRST)        # builds the counting embedder
    embedder = counting()
    embedder.queries.clear()
    ask(api_client, "/query", "Kapan pembebasan pajak kendaraan bermotor berlaku?")
    assert embedder.queries == ["Kapan pembebasan pajak kendaraan bermotor berlaku?"]


def test_query_stays_within_its_query_budget(api_client, django_assert_max_num_queries):
    # Measured: 29 queries for a first turn (setup, sources, two search legs, the gate, the exchange
    # and its trace), 54 for a follow-up (history, a carried arm and the main arm). Headroom of ~10%.
    ask(api_client, "/query", FIRST)           # warm caches that a first request in a process fills
    with django_assert_max_num_queries(32):
        first = ask(api_client, "/query", FIRST)
    with django_assert_max_num_queries(60):
        ask(api_client, "/query", FOLLOW, first["conversation_id"])
