"""Named documents' signature evidence (query-search-api "Named regulations"; "Document follow-ups").

Two regulations signed with byte-identical closing blocks, asked about together, each keep their own
closing read, passages and citation labels; a follow-up that resolves to one earlier document reads
that document's anchors.
"""
from __future__ import annotations

import pytest

from answering.models import AnswerTrace
from conversations.models import Message
from tests.factories import make_document

pytestmark = pytest.mark.django_db

CLOSING = ("Ditetapkan di Banda Aceh\npada tanggal 12 Juni 2024\n\nGUBERNUR ACEH,\n\nttd\n\nMUZAKIR MANAF\n")
SUBJECTS = {31: "Tata Kelola Arsip Dinamis", 32: "Standar Pelayanan Perpustakaan Daerah"}


def pergub(number: int):
    title = f"Peraturan Gubernur Aceh Nomor {number} Tahun 2024 tentang {SUBJECTS[number]}"
    text = (f"{title}\n\nBAB I\nKETENTUAN UMUM\n\nPasal 1\nDalam Peraturan Gubernur ini yang dimaksud dengan "
            f"{SUBJECTS[number].lower()} adalah urusan yang diatur dalam Peraturan Gubernur ini.\n\n"
            f"Pasal 2\nPeraturan Gubernur ini mulai berlaku pada tanggal diundangkan.\n\n"
            f"Pasal 3\nKepala Dinas melaksanakan {SUBJECTS[number].lower()} setiap tahun.\n\n{CLOSING}")
    return make_document(title=title, text=text)


@pytest.fixture
def pergubs():
    return pergub(31), pergub(32)


def ask(client, query, conversation_id=None):
    body = {"query": query, "include_provenance": True,
            **({"conversation_id": conversation_id} if conversation_id else {})}
    response = client.post("/query", data=body, content_type="application/json")
    assert response.status_code == 200
    return response.json()


def closing_chunks(document) -> set[str]:
    return {str(c.id) for c in document.chunks.filter(text__contains="MUZAKIR MANAF")}


def reads(body, tool: str) -> list[str]:
    return [c["executed_arguments"].get("document_id") for c in body["tool_call_audit"] if c["tool"] == tool]


def test_two_named_documents_with_identical_closings_keep_separate_signature_evidence(api_client, pergubs):
    first, second = pergubs
    assert closing_chunks(first) and closing_chunks(second)
    assert ({c.text for c in first.chunks.filter(text__contains="MUZAKIR MANAF")}
            == {c.text for c in second.chunks.filter(text__contains="MUZAKIR MANAF")})
    body = ask(api_client, "Siapa yang menandatangani Pergub Aceh Nomor 31 Tahun 2024 dan "
                           "Peraturan Gubernur Aceh Nomor 32 Tahun 2024?")
    assert body["fallback_used"] is False and "MUZAKIR MANAF" in body["answer"]

    # One closing read per named document, each its own step.
    assert reads(body, "read_closing") == [str(first.id), str(second.id)]
    steps = AnswerTrace.objects.get(id=body["trace_id"]).steps
    assert [s["chunks"] >= 1 for s in steps if s["step"] == "read_closing"] == [True, True]

    # Each document's closing chunk is cited under its own label, on the same claim.
    cited = {c["chunk_id"]: c["document_id"] for c in body["citations"]}
    assert closing_chunks(first) & set(cited) and closing_chunks(second) & set(cited)
    signed = next(c for c in body["claim_map"] if "MUZAKIR MANAF" in c["claim"])
    assert {c["document_id"] for c in signed["citations"]} == {str(first.id), str(second.id)}
    labels = [c["citation_key"] for c in signed["citations"]]
    assert len(labels) == len(set(labels)) == 2
    for chunk_id in cited:
        assert f"[chunk:{chunk_id}]" in body["answer"]


def test_one_named_document_reads_only_its_own_closing(api_client, pergubs):
    first, second = pergubs
    body = ask(api_client, "Siapa yang menandatangani Pergub Aceh Nomor 32 Tahun 2024?")
    assert reads(body, "read_closing") == [str(second.id)]
    assert {c["document_id"] for c in body["citations"]} == {str(second.id)}


@pytest.mark.parametrize("question, tool", [("bagaimana dengan pasal 3?", "read_article"),
                                             ("siapa penandatangannya?", "read_closing"),
                                             # Wordings a citizen types: a detached "nya", the enclitic on
                                             # the signing verb, "isinya apa" after the article.
                                             ("pasal 3 nya bagaimana?", "read_article"),
                                             ("siapa yang menandatanganinya?", "read_closing"),
                                             ("lalu pasal 3 isinya apa?", "read_article")])
def test_a_followup_on_one_earlier_document_reads_its_anchors(api_client, pergubs, question, tool):
    first, second = pergubs
    opening = ask(api_client, "Apa yang dimaksud dengan tata kelola arsip dinamis?")
    assert {c["document_id"] for c in opening["citations"]} == {str(first.id)}
    body = ask(api_client, question, opening["conversation_id"])
    record = Message.objects.get(id=body["message_id"]).metadata["retrieval"]["followup"]
    assert record["decision"] == "carried" and record["followup_document_ids"] == [str(first.id)]
    assert reads(body, tool) == [str(first.id)]
    read = {str(c.id) for c in first.chunks.filter(text__contains="MUZAKIR MANAF" if tool == "read_closing"
                                                    else "Kepala Dinas melaksanakan")}
    cited = {c["chunk_id"] for c in body["citations"]}
    assert cited and read & cited and {c["document_id"] for c in body["citations"]} == {str(first.id)}
    assert body["fallback_used"] is False
    assert ("MUZAKIR MANAF" if tool == "read_closing" else "Kepala Dinas melaksanakan") in body["answer"]


def test_a_named_document_whose_text_has_no_closing_block_says_so_when_asked_who_signed(api_client):
    title = "Peraturan Gubernur Aceh Nomor 33 Tahun 2024 tentang Pengelolaan Taman Baca"
    text = (f"{title}\n\nBAB I\nKETENTUAN UMUM\n\nPasal 1\nTaman baca dikelola oleh Dinas Perpustakaan.\n\n"
            "Pasal 2\nKepala Dinas melaksanakan pengelolaan taman baca setiap tahun.\n")   # the text ends here
    make_document(title=title, text=text)
    body = ask(api_client, "Siapa yang menandatangani Peraturan Gubernur Aceh Nomor 33 Tahun 2024?")
    assert body["fallback_used"] is True
    assert f"Teks {title} yang tersedia tidak memuat bagian penutupnya" in body["answer"]
    # A document with its closing block is answered, not pointed at its missing end.
    pergub(31)
    signed = ask(api_client, "Siapa yang menandatangani Peraturan Gubernur Aceh Nomor 31 Tahun 2024?")
    assert signed["fallback_used"] is False and "tidak memuat bagian penutupnya" not in signed["answer"]
