"""A scanned regulation uploaded by a partner is read by OCR: its ingestion counts the pages, the document
says how its text was read, chunks carry their pages, and a scan over the page limit stores nothing while
the next file still ingests."""
from dataclasses import replace
from pathlib import Path

import pytest

from retrieval.ingestion import IngestOptions, document_ingest_bytes
from retrieval.models import Chunk, Document
from tests.retrieval.ocr_marks import needs_ocr
from tests.retrieval.test_ingestion import upload

pytestmark = [pytest.mark.django_db, needs_ocr]

SCAN = (Path(__file__).parent / "parsing" / "scans" / "scan.pdf").read_bytes()


def test_an_uploaded_scan_is_read_by_ocr_with_its_pages(api_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(api_client, SCAN, "qanun-air-bersih-scan.pdf")
    status = api_client.get(f"/ingestions/{response.json()['ingestion_id']}").json()
    assert status["status"] == "succeeded", status
    assert (status["ocr_pages_done"], status["ocr_pages_total"]) == (3, 3)
    document = api_client.get(f"/documents/{status['stored_document_id']}").json()
    assert document["extraction"] == "ocr" and document["identity"]["number"] == "7"
    stored = Document.objects.get(pk=status["stored_document_id"])
    assert [page for page, _ in stored.ocr_pages] == [1, 2, 3]
    assert all(confidence >= 80 for _, confidence in stored.ocr_pages)
    tariff = Chunk.objects.get(document=stored, text__contains="Rp2.500")
    assert tariff.page_number == 2
    search = api_client.post("/search", data={"query": "tarif air bersih rumah tangga miskin", "top_k": 3},
                             content_type="application/json").json()
    assert any("Rp2.500" in hit["text"] for hit in search["results"])


def test_a_scan_over_the_page_limit_stores_nothing_and_the_next_file_ingests(settings):
    settings.ACEH_RAG = replace(settings.ACEH_RAG, ingestion=replace(settings.ACEH_RAG.ingestion, ocr_max_pages=2))
    refused = document_ingest_bytes(data=SCAN, filename="scan.pdf", source_key="test:scan",
                                    options=IngestOptions("JDIH"))
    assert refused.status == "failed"
    assert refused.reason == "PDF needs OCR on 3 pages, more than the limit of 2"
    assert not Document.objects.exists()
    after = document_ingest_bytes(data=b"Pasal 1\nSetiap penduduk berhak atas air bersih yang layak dan cukup.",
                                  filename="qanun.txt", source_key="test:next", options=IngestOptions("JDIH"))
    assert after.status == "ingested"


def test_ocr_switched_off_refuses_a_scan_as_before(settings):
    settings.ACEH_RAG = replace(settings.ACEH_RAG, ingestion=replace(settings.ACEH_RAG.ingestion, ocr_enabled=False))
    refused = document_ingest_bytes(data=SCAN, filename="scan.pdf", source_key="test:scan",
                                    options=IngestOptions("JDIH"))
    assert refused.status == "failed" and refused.reason == "PDF has no extractable text layer (scanned document?)"


def test_the_admin_lists_low_confidence_ocr_pages_for_review(admin_client):
    for key, pages in (("test:clear", [[1, 93.0], [2, 95.6]]), ("test:faint", [[1, 91.0], [2, 52.5]])):
        outcome = document_ingest_bytes(data=f"Pasal 1\nKetentuan {key} tentang air bersih.".encode(),
                                        filename="qanun.txt", source_key=key, options=IngestOptions("JDIH"))
        Document.objects.filter(pk=outcome.document_id).update(extraction="ocr", ocr_pages=pages)
    faint = Document.objects.get(source_key="test:faint")
    listing = admin_client.get("/admin/retrieval/document/?ocr_review=low")
    assert listing.status_code == 200
    assert list(listing.context["cl"].result_list) == [faint]
    page = admin_client.get(f"/admin/retrieval/document/{faint.pk}/change/").content.decode()
    assert "2 pages read by OCR; to review (confidence under 70): page 2 (52)" in page
