"""Administrators can browse every model; actions go through the services."""
import pytest

from memory.models import Memory
from tests.factories import make_document

pytestmark = pytest.mark.django_db

PAGES = ["retrieval/document", "retrieval/chunk", "retrieval/collection", "retrieval/ingestion",
         "conversations/conversation", "memory/memory", "answering/answertrace", "acehrag/apikey"]


@pytest.mark.parametrize("page", PAGES)
def test_changelists_render(admin_client, page):
    response = admin_client.get(f"/admin/{page}/")
    assert response.status_code == 200


def test_document_page_shows_identity_card_and_chunks(admin_client):
    document = make_document(text="QANUN ACEH\nNOMOR 91 TAHUN 2024\nTENTANG\nTRANSPARANSI ANGGARAN\n\nPasal 1\nAnggaran diumumkan.\n")
    response = admin_client.get(f"/admin/retrieval/document/{document.id}/change/")
    assert response.status_code == 200
    assert b"Identity card" in response.content and b"Qanun Aceh Nomor 91 Tahun 2024 Pasal 1" not in response.content
    chunks = admin_client.get(f"/admin/retrieval/chunk/?document__id__exact={document.id}")
    assert b"Qanun Aceh Nomor 91 Tahun 2024 Pasal 1" in chunks.content and b"Anggaran diumumkan." in chunks.content
    search = admin_client.get("/admin/retrieval/chunk/?q=diumumkan")
    assert b"Pasal 1" in search.content


def test_conversation_transcript_is_read_only(admin_client, api_client):
    make_document(chunks=["PPID wajib menjawab permohonan informasi paling lambat 10 hari kerja."])
    answer = api_client.post("/query", data={"query": "Berapa hari PPID wajib menjawab permohonan?"},
                             content_type="application/json").json()
    page = admin_client.get(f"/admin/conversations/conversation/{answer['conversation_id']}/change/")
    assert page.status_code == 200 and "10 hari kerja".encode() in page.content
    assert b'name="_save"' not in page.content


def test_memory_erase_action_uses_the_erase_service(admin_client):
    memory = Memory.objects.create(owner="alice", memory_type="fact", text="Works at Bappeda.")
    response = admin_client.post("/admin/memory/memory/", {"action": "erase", "_selected_action": [memory.id]}, follow=True)
    assert response.status_code == 200
    memory.refresh_from_db()
    assert (memory.status, memory.text) == ("deleted", "")


@pytest.mark.django_db(transaction=True)
def test_upload_page_ingests_with_the_same_service(admin_client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from retrieval.models import Collection, Document, Ingestion

    Collection.objects.create(id="JDIH")
    text = b"QANUN ACEH\nNOMOR 92 TAHUN 2023\nTENTANG\nBAITUL MAL\n\nPasal 1\nBaitul Mal mengelola zakat.\n"
    response = admin_client.post("/admin/retrieval/document/upload/", {
        "file": SimpleUploadedFile("baitul-mal.txt", text), "collection": "JDIH"}, follow=True)
    assert response.status_code == 200
    document = Document.objects.get()
    assert (document.number, document.year) == ("92", 2023) and document.chunk_count >= 1
    # The upload is an Ingestion with who asked, and its page shows the outcome, not a server path.
    ingestion = Ingestion.objects.get()
    assert (ingestion.requested_by, ingestion.status, ingestion.outcome) == ("admin", "succeeded", "ingested")
    assert response.redirect_chain[-1][0].endswith(f"/admin/retrieval/ingestion/{ingestion.pk}/change/")
    assert b"succeeded" in response.content and ingestion.stored_path.encode() not in response.content
    # The original file is kept and downloadable from the document page.
    page = admin_client.get(f"/admin/retrieval/document/{document.pk}/change/")
    assert f"/admin/retrieval/document/{document.pk}/source/".encode() in page.content
    download = admin_client.get(f"/admin/retrieval/document/{document.pk}/source/")
    assert b"".join(download.streaming_content) == text


@pytest.mark.django_db(transaction=True)
def test_reindex_action_rebuilds_chunks_in_place(admin_client):
    from retrieval.models import Chunk, Ingestion

    document = make_document(chunks=["Zakat profesi dibayar bulanan.", "Infak bersifat sukarela."])
    old = set(Chunk.objects.filter(document=document).values_list("id", flat=True))
    admin_client.post("/admin/retrieval/document/", {"action": "reindex", "_selected_action": [document.id]}, follow=True)
    new = set(Chunk.objects.filter(document=document).values_list("id", flat=True))
    assert new and not (old & new) and len(new) == len(old)
    ingestion = Ingestion.objects.get()
    assert (ingestion.kind, ingestion.requested_by, ingestion.status, ingestion.outcome) == ("reindex", "admin", "succeeded", "replaced")
