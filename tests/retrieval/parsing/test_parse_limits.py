"""Each file is parsed in a child process bounded in time and memory, and a PDF's nesting depth is bounded.

A parse over its time bound, one that needs more memory than its bound, and a
PDF whose objects nest 100,000 deep are refused with the reason; nothing is
stored and the next file ingests in the same process (the worker's). The bounds
are the ingestion settings (``ACEH_RAG_INGESTION__PARSE_TIMEOUT_SECONDS``,
``..._PARSE_MEMORY_MB``, ``..._PDF_MAX_DEPTH``), set small here.
"""
from __future__ import annotations

import io
import time
from dataclasses import replace

import pytest

from kernel.archives import FileBounds
from kernel.isolation import ParseOutOfMemory, ParseTimedOut
from retrieval.ingestion import IngestOptions, document_ingest_bytes
from retrieval.models import Document
from retrieval.parsing import ExtractionError, extract_bytes, extract_bytes_bounded

# About 100 MB of plain text: seconds to decode and normalise, and several copies of itself in memory.
LARGE_TEXT = ("Pasal 1 Zakat dibayar melalui Baitul Mal Aceh setiap tahun. " * 1_650_000).encode()
NEXT = b"Pasal 1\nSetiap penduduk berhak atas air bersih yang layak dan cukup."


def deep_pdf(depth: int) -> bytes:
    """A one-page PDF with readable text whose page dictionary carries an array nested ``depth`` deep."""
    content = b"BT /F1 12 Tf 10 100 Td (Pasal 1 Zakat dibayar melalui Baitul Mal Aceh setiap tahun.) Tj ET"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Resources << /Font << /F1 5 0 R >> >> "
               b"/Contents 4 0 R /Deep " + b"[" * depth + b"1" + b"]" * depth + b" >>",
               b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    out.write(b"trailer << /Root 1 0 R /Size %d >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def bounded(settings, **values) -> None:
    settings.ACEH_RAG = replace(settings.ACEH_RAG, ingestion=replace(settings.ACEH_RAG.ingestion, **values))


def ingest(data: bytes, filename: str, key: str):
    return document_ingest_bytes(data=data, filename=filename, source_key=key, options=IngestOptions("JDIH"))


def test_the_child_returns_what_extract_bytes_returns_and_rebuilds_its_refusals():
    assert extract_bytes_bounded(NEXT, "qanun.txt") == extract_bytes(NEXT, "qanun.txt")
    with pytest.raises(ExtractionError, match="File is empty"):
        extract_bytes_bounded(b"  ", "kosong.txt")


@pytest.mark.django_db
def test_a_parse_over_its_time_bound_is_refused_nothing_stored_and_the_next_file_ingests(settings):
    bounded(settings, parse_timeout_seconds=0.2)
    with pytest.raises(ParseTimedOut):        # the bound itself, outside ingestion
        extract_bytes_bounded(LARGE_TEXT, "besar.txt", bounds=settings.ACEH_RAG.ingestion.file_bounds())
    started = time.monotonic()
    refused = ingest(LARGE_TEXT, "besar.txt", "test:slow")
    assert time.monotonic() - started < 10
    assert refused.status == "failed"
    assert refused.reason == "Refused: parsing took longer than 0.2 s (ACEH_RAG_INGESTION__PARSE_TIMEOUT_SECONDS)"
    assert not Document.objects.exists()
    bounded(settings, parse_timeout_seconds=FileBounds.parse_timeout_seconds)
    assert ingest(NEXT, "qanun.txt", "test:next").status == "ingested"


@pytest.mark.django_db
def test_a_parse_over_its_memory_bound_is_refused_nothing_stored_and_the_next_file_ingests(settings):
    bounded(settings, parse_memory_mb=300)
    refused = ingest(LARGE_TEXT, "besar.txt", "test:hungry")
    assert refused.status == "failed"
    assert refused.reason == "Refused: parsing needed more than 300 MB (ACEH_RAG_INGESTION__PARSE_MEMORY_MB)"
    assert not Document.objects.exists()
    assert ingest(NEXT, "qanun.txt", "test:next").status == "ingested"        # same bound, a normal file
    with pytest.raises(ParseOutOfMemory):
        extract_bytes_bounded(LARGE_TEXT, "besar.txt", bounds=FileBounds(parse_memory_mb=300))


def test_a_pdf_nested_a_hundred_thousand_deep_is_refused_by_its_depth():
    fine = deep_pdf(20)
    assert "Pasal 1 Zakat" in extract_bytes(fine, "dangkal.pdf").text
    started = time.monotonic()
    with pytest.raises(ExtractionError) as error:
        extract_bytes(deep_pdf(100_000), "dalam.pdf")
    assert time.monotonic() - started < 5
    assert str(error.value) == "Refused: the PDF nests its objects more than 256 deep (ACEH_RAG_INGESTION__PDF_MAX_DEPTH)"
    with pytest.raises(ExtractionError, match="more than 10 deep"):
        extract_bytes(fine, "dangkal.pdf", bounds=FileBounds(pdf_max_depth=10))


@pytest.mark.django_db
def test_an_uploaded_deep_pdf_fails_with_its_reason_and_the_next_file_ingests():
    refused = ingest(deep_pdf(100_000), "dalam.pdf", "test:deep")
    assert refused.status == "failed" and "nests its objects more than 256 deep" in refused.reason
    assert not Document.objects.exists()
    assert ingest(deep_pdf(20), "dangkal.pdf", "test:shallow").status == "ingested"


def test_the_depth_count_skips_streams_strings_and_comments():
    from retrieval.parsing.pdf import pdf_nesting_depth

    noise = b"[" * 1000
    data = (b"%PDF-1.4\n% " + noise + b"\n1 0 obj << /A (" + noise + b" \\) ( ) ) /B [[1]] >> endobj\n"
            b"2 0 obj << /Length 1000 >>\nstream\n" + noise + b"\nendstream endobj\n")
    assert pdf_nesting_depth(data, 256) == 3


@pytest.mark.django_db
def test_a_workbook_is_read_in_the_same_bounded_child(settings):
    from livedata.models import Workbook
    from tests.livedata.files import POPULATION, xlsx_bytes

    workbook = xlsx_bytes({"Penduduk": POPULATION})
    bounded(settings, parse_timeout_seconds=0.001)
    refused = ingest(workbook, "penduduk.xlsx", "test:workbook")
    assert refused.status == "failed" and "parsing took longer than 0.001 s" in refused.reason
    assert not Workbook.objects.exists() and not Document.objects.exists()
    bounded(settings, parse_timeout_seconds=FileBounds.parse_timeout_seconds)
    assert ingest(workbook, "penduduk.xlsx", "test:workbook").status == "ingested"
