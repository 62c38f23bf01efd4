"""Long-term memory: extraction, recall in claim_map, supersession, deletion, forget-me."""
from __future__ import annotations

from dataclasses import replace

import httpx
import pytest
from django.conf import settings
from django.test import TestCase, override_settings

from memory.extraction import extract_memories
from memory.models import Memory
from tests.conftest import TEST_API_KEY
from tests.factories import make_document

pytestmark = pytest.mark.django_db

PPID = ("Pejabat Pengelola Informasi dan Dokumentasi wajib memberikan pemberitahuan tertulis atas permohonan "
        "informasi publik paling lambat 10 (sepuluh) hari kerja sejak permohonan diterima.")
ALICE = {"HTTP_X_USER_SUBJECT": "alice"}


@pytest.fixture(autouse=True)
def corpus():
    make_document(chunks=[PPID])


def ask(client, query, headers=ALICE, **body):
    # The test's transaction never commits; run what the answer queued on commit (memory learning) as a commit would.
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post("/query", data={"query": query, **body}, content_type="application/json", **headers)
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.parametrize(
    "question,slot,text",
    [
        ("Tolong jawab dalam bahasa Inggris ya", "answer_language", "Prefers answers in English."),
        ("Saya bekerja di Bappeda Aceh, apa tugas PPID?", "workplace", "Works at Bappeda Aceh."),
        ("I work at the Baitul Mal office, what is zakat?", "workplace", "Works at Baitul Mal office."),
        ("saya lebih suka jawaban singkat", "answer_length", "Prefers short answers."),
    ],
)
def test_extraction_patterns(question, slot, text):
    assert [(m.slot, m.text) for m in extract_memories(question)] == [(slot, text)]


def test_nothing_is_extracted_from_an_ordinary_question():
    assert extract_memories("Berapa hari PPID wajib menjawab permohonan?") == []


def test_a_memory_from_one_turn_is_recalled_in_a_later_one(api_client):
    ask(api_client, "Saya bekerja di Bappeda. Berapa hari PPID wajib memberikan pemberitahuan?")
    listed = api_client.get("/memories", **ALICE).json()
    assert [(m["type"], m["text"], m["status"], m["confidential"]) for m in listed] == [
        ("fact", "Works at Bappeda.", "active", False)]
    assert set(listed[0]) == {"id", "type", "text", "importance", "status", "confidential", "last_accessed_at"}
    assert listed[0]["last_accessed_at"] is None

    later = ask(api_client, "Di mana saya bekerja, dan berapa hari PPID wajib memberikan pemberitahuan?")
    memory_claims = [c for c in later["claim_map"] if c["citations"][0]["kind"] == "memory"]
    assert memory_claims and memory_claims[0]["citations"][0]["memory_id"] == listed[0]["id"]
    assert "Bappeda" in memory_claims[0]["claim"] and "Bappeda" in later["answer"]
    # Memories are never sources.
    assert all(c["kind"] == "chunk" for c in later["citations"])
    stored = api_client.get(f"/conversations/{later['conversation_id']}", **ALICE).json()["messages"][1]
    assert all(c["kind"] == "chunk" for c in stored["source_citations"])
    assert api_client.get("/memories", **ALICE).json()[0]["last_accessed_at"] is not None


def test_a_language_preference_changes_the_answer(api_client):
    indonesian = ask(api_client, "Apakah PPID wajib memberikan pemberitahuan tertulis?")
    assert indonesian["answer"].startswith("Ya. ")
    ask(api_client, "Tolong jawab dalam bahasa Inggris. Berapa hari PPID wajib memberikan pemberitahuan?")
    english = ask(api_client, "Apakah PPID wajib memberikan pemberitahuan tertulis?")
    assert english["answer"].startswith("Yes. ")


def test_a_contradicting_memory_supersedes_the_old_one(api_client):
    ask(api_client, "Saya bekerja di Bappeda. Apa tugas PPID?")
    ask(api_client, "Saya bekerja di Diskominsa. Apa tugas PPID?")
    rows = {m["text"]: m["status"] for m in api_client.get("/memories", **ALICE).json()}
    assert rows == {"Works at Diskominsa.": "active", "Works at Bappeda.": "superseded"}


def test_repeating_a_memory_reinforces_instead_of_duplicating(api_client):
    ask(api_client, "Saya bekerja di Bappeda. Apa tugas PPID?")
    before = Memory.objects.get().importance
    ask(api_client, "Saya bekerja di Bappeda. Berapa hari PPID menjawab?")
    assert Memory.objects.count() == 1 and Memory.objects.get().importance > before


def test_deleting_a_memory_erases_it_and_prevents_recall(api_client):
    ask(api_client, "Saya bekerja di Bappeda. Apa tugas PPID?")
    memory_id = api_client.get("/memories", **ALICE).json()[0]["id"]
    response = api_client.delete(f"/memories/{memory_id}", **ALICE)
    assert response.status_code == 204 and response.content == b""
    assert api_client.get("/memories", **ALICE).json() == []
    tombstone = Memory.objects.get(id=memory_id)
    assert (tombstone.status, tombstone.text, tombstone.embedding) == ("deleted", "", None)
    later = ask(api_client, "Di mana saya bekerja, dan berapa hari PPID wajib memberikan pemberitahuan?")
    assert not any(c["citations"][0]["kind"] == "memory" for c in later["claim_map"])
    assert "Bappeda" not in later["answer"]
    again = api_client.delete(f"/memories/{memory_id}", **ALICE)
    assert (again.status_code, again.json()) == (404, {"detail": f"Memory {memory_id} not found", "code": "memory_not_found"})


def test_memories_are_isolated_between_subjects(api_client):
    ask(api_client, "Saya bekerja di Bappeda. Apa tugas PPID?")
    memory_id = api_client.get("/memories", **ALICE).json()[0]["id"]
    bob = {"HTTP_X_USER_SUBJECT": "bob"}
    assert api_client.get("/memories", **bob).json() == []
    assert api_client.delete(f"/memories/{memory_id}", **bob).status_code == 404
    assert api_client.delete("/memories", **bob).json() == {"removed_count": 0}
    assert len(api_client.get("/memories", **ALICE).json()) == 1


def test_forget_me_counts_and_keeps_conversations(api_client):
    first = ask(api_client, "Saya bekerja di Bappeda. Apa tugas PPID?")
    ask(api_client, "Tolong jawab dalam bahasa Inggris. Apa tugas PPID?")
    response = api_client.delete("/memories", **ALICE)
    assert response.status_code == 200 and response.json() == {"removed_count": 2}
    assert api_client.get("/memories", **ALICE).json() == []
    assert api_client.delete("/memories", **ALICE).json() == {"removed_count": 0}
    assert api_client.get(f"/conversations/{first['conversation_id']}", **ALICE).status_code == 200


def test_a_memory_from_confidential_sources_is_recalled_only_for_verified_identities(api_client):
    Memory.objects.all().delete()
    make_document(chunks=["Prosedur rahasia pengamanan server data kependudukan diatur oleh Diskominsa."], confidential=True)
    ask(api_client, "Saya bekerja di Diskominsa. Bagaimana prosedur rahasia pengamanan server data kependudukan?")
    memory = Memory.objects.get()
    assert memory.confidential is True
    question = "Di mana saya bekerja, dan bagaimana prosedur pengamanan server?"
    verified = ask(api_client, question)
    assert any(c["citations"][0]["kind"] == "memory" for c in verified["claim_map"])
    untrusted = replace(settings.ACEH_RAG, auth=replace(settings.ACEH_RAG.auth, trust_identity_headers=False))
    with override_settings(ACEH_RAG=untrusted):
        unverified = ask(api_client, question)
    assert not any(c["citations"][0]["kind"] == "memory" for c in unverified["claim_map"])


@pytest.mark.django_db(transaction=True)
def test_a_memory_from_a_unit_and_level_restricted_source_is_recalled_only_for_who_may_see_it(live_server_factory):
    """Against a real server: verified identities of another unit or a lower level do not recall it."""
    Memory.objects.all().delete()
    source = make_document(chunks=["Prosedur rahasia pengamanan server data kependudukan diatur oleh Diskominsa."],
                           org_unit="Diskominsa", min_level=3)
    server = live_server_factory()

    def ask_live(query, headers):
        response = httpx.post(server.url + "/query", json={"query": query}, timeout=60,
                              headers={"X-API-Key": TEST_API_KEY, "X-User-Subject": "alice", **headers})
        assert response.status_code == 200, response.text
        return response.json()

    insider = {"X-User-Unit": "Diskominsa", "X-User-Level": "4"}
    first = ask_live("Saya bekerja di Diskominsa. Bagaimana prosedur rahasia pengamanan server data kependudukan?",
                     insider)
    assert any(c["document_id"] == str(source.id) and c["owning_org_unit"] == "Diskominsa"
               and c["min_position_level"] == 3 for c in first["citations"])
    memory = Memory.objects.get()
    # Not confidential (the source is not), yet bound to the restricted source it was learnt beside.
    assert (memory.confidential, memory.source_document_ids) == (False, [str(source.id)])
    question = "Di mana saya bekerja, dan bagaimana prosedur pengamanan server?"

    def recalled(headers) -> bool:
        claims = ask_live(question, headers)["claim_map"]
        return any(c["citations"][0]["kind"] == "memory" and c["citations"][0]["memory_id"] == memory.id
                   for c in claims)

    assert recalled(insider) is True
    # Verified, but another unit, or too low a position level: the source is invisible, so is the memory.
    assert recalled({"X-User-Unit": "Bappeda", "X-User-Level": "4"}) is False
    assert recalled({"X-User-Unit": "Diskominsa", "X-User-Level": "2"}) is False
    assert recalled({}) is False


def test_a_memory_is_learnt_only_once_the_turn_commits(api_client):
    with TestCase.captureOnCommitCallbacks(execute=False) as queued:
        response = api_client.post("/query", data={"query": "Saya bekerja di Bappeda. Apa tugas PPID?"},
                                   content_type="application/json", **ALICE)
    assert response.status_code == 200
    assert not Memory.objects.exists() and queued        # queued for after the commit, not learnt inside it
    for callback in queued:
        callback()
    assert list(Memory.objects.values_list("text", flat=True)) == ["Works at Bappeda."]
