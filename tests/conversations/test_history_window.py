"""The history window (seed: history_truncated / history_exchanges_in_view), on a real server and in the selector."""
from __future__ import annotations

import uuid

import httpx
import pytest

from conversations.selectors import history_window
from conversations.services import ExchangeRecord, exchange_persist
from tests.conftest import TEST_API_KEY
from tests.factories import make_document

KEY = {"X-API-Key": TEST_API_KEY, "X-User-Subject": "history-reader"}
PPID = ("Pejabat Pengelola Informasi dan Dokumentasi wajib memberikan pemberitahuan tertulis atas permohonan "
        "informasi publik paling lambat 10 (sepuluh) hari kerja sejak permohonan diterima.")


def ask_seven(server) -> list[dict]:
    """Seven questions in one chat; the bodies of every answer."""
    bodies, conversation = [], None
    for turn in range(7):
        body = {"query": f"Berapa hari PPID wajib memberi pemberitahuan tertulis? (pertanyaan {turn + 1})"}
        if conversation:
            body["conversation_id"] = conversation
        response = httpx.post(server.url + "/query", json=body, headers=KEY, timeout=60)
        assert response.status_code == 200, response.text
        bodies.append(response.json())
        conversation = bodies[-1]["conversation_id"]
    return bodies


@pytest.mark.django_db(transaction=True)
def test_the_seed_example_sixth_sees_five_seventh_truncates_and_raised_caps_do_not(live_server_factory):
    make_document(title="Peraturan Keterbukaan Informasi", chunks=[PPID])
    default = ask_seven(live_server_factory())
    assert [(b["history_truncated"], b["history_exchanges_in_view"]) for b in default] == [
        (False, 0), (False, 1), (False, 2), (False, 3), (False, 4), (False, 5), (True, 5)]
    assert all(type(b["history_exchanges_in_view"]) is int for b in default)
    raised = ask_seven(live_server_factory(ACEH_RAG_HISTORY__MAX_MESSAGES="20"))
    assert (raised[6]["history_truncated"], raised[6]["history_exchanges_in_view"]) == (False, 6)


def chat(turns: int, *, answer: str = "Jawaban.") -> object:
    conversation = None
    for index in range(turns):
        conversation, _, _ = exchange_persist(
            owner="o", conversation_id=conversation.id if conversation else None, new_title="t", route_family="query",
            record=ExchangeRecord(question=f"pertanyaan {index}", answer=answer, source_citations=[]),
            assistant_message_id=uuid.uuid4())
    return conversation


@pytest.mark.django_db
def test_the_first_exchange_stays_pinned_and_counts_in_view():
    eighth = history_window(conversation=chat(7))
    assert [t.exchange_index for t in eighth.turns] == [0, 3, 4, 5, 6] and eighth.truncated is True
    seventh = history_window(conversation=chat(6))
    assert [t.exchange_index for t in seventh.turns] == [0, 2, 3, 4, 5]
    assert (seventh.exchanges_in_view, seventh.truncated) == (5, True)
    sixth = history_window(conversation=chat(5))
    assert [t.exchange_index for t in sixth.turns] == [0, 1, 2, 3, 4] and sixth.truncated is False


@pytest.mark.django_db
def test_character_and_token_caps_drop_the_oldest_unpinned_exchange_first():
    conversation = chat(4, answer="x" * 100)
    by_chars = history_window(conversation=conversation, max_chars=200)
    assert [t.exchange_index for t in by_chars.turns] == [3]          # not full: nothing pinned
    pinned = history_window(conversation=chat(6, answer="x" * 100), max_messages=6, max_chars=230)
    assert [t.exchange_index for t in pinned.turns] == [0, 5] and pinned.truncated is True
    # 12 + 100 characters: 12/3 + 4 + 100/3 + 4 = 45 estimated tokens an exchange: 100 tokens hold two of them.
    by_tokens = history_window(conversation=conversation, max_tokens=100)
    assert [t.exchange_index for t in by_tokens.turns] == [2, 3] and by_tokens.exchanges_in_view == 2
