"""Hostile files are refused within their bound, with the reason, before a parser trusts them.

Each file is generated small in memory: a DOCX whose member inflates a
thousandfold, one with thousands of members, a billion-laughs document.xml,
an XLSX and an ODS carrying the same, a PDF with thousands of empty pages and
one whose page tree contains itself, an HTML page nested 100,000 deep. The
last test sends a bomb through the upload route: the ingestion fails with the
reason, nothing is stored, and the next file ingests in the same process.
"""
from __future__ import annotations

import io
import time
import zipfile

import pytest

from kernel.archives import FileBounds
from livedata.workbooks.reading import WorkbookReadError, read_spreadsheet
from retrieval.parsing import ExtractionError, extract_bytes

DOCUMENT_XML = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
                '<w:body><w:p><w:r><w:t>Pasal 1 Zakat dibayar melalui Baitul Mal.</w:t></w:r></w:p></w:body></w:document>')
LAUGHS = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
          + "".join(f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, 10))
          + ']><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
          '<w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>')


def zipped(members: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def docx(**extra: bytes | str) -> bytes:
    return zipped({"[Content_Types].xml": "<Types/>", "word/document.xml": DOCUMENT_XML, **extra})


def refused(data: bytes, filename: str, bounds: FileBounds = FileBounds(), within: float = 10.0) -> str:
    started = time.monotonic()
    with pytest.raises(ExtractionError) as error:
        extract_bytes(data, filename, bounds=bounds)
    assert time.monotonic() - started < within
    return str(error.value)


def test_a_member_that_inflates_a_thousandfold_is_a_decompression_bomb():
    bomb = docx(**{"word/media/image1.png": b"\0" * (8 * 1024 * 1024)})
    assert len(bomb) < 20_000
    assert "inflates" in refused(bomb, "bom.docx") and "decompression bomb" in refused(bomb, "bom.docx")


def test_member_count_member_size_and_total_size_are_bounded():
    many = docx(**{f"word/media/{n}.txt": b"x" for n in range(50)})
    assert "members (at most 20)" in refused(many, "banyak.docx", FileBounds(max_members=20))
    big = docx(**{"word/media/a.bin": bytes(range(256)) * 4096})       # 1 MB, barely compressible
    assert "inflates to 1,048,576 bytes (at most 500,000)" in refused(big, "besar.docx", FileBounds(max_member_bytes=500_000))
    assert "archive inflates to" in refused(big, "besar.docx", FileBounds(max_total_bytes=500_000))


def test_billion_laughs_in_a_docx_is_refused_before_python_docx_reads_it():
    reason = refused(docx(**{"word/document.xml": LAUGHS}), "tawa.docx")
    assert "word/document.xml declares a DTD or entities" in reason


def test_the_same_bounds_hold_for_xlsx_and_ods_workbooks():
    xlsx_bomb = zipped({"[Content_Types].xml": "<Types/>", "xl/worksheets/sheet1.xml": b" " * (8 * 1024 * 1024)})
    with pytest.raises(WorkbookReadError, match="refused: .*decompression bomb"):
        read_spreadsheet(xlsx_bomb)
    ods_laughs = zipped({"mimetype": "application/vnd.oasis.opendocument.spreadsheet", "content.xml": LAUGHS})
    with pytest.raises(WorkbookReadError, match="refused: content.xml declares a DTD"):
        read_spreadsheet(ods_laughs)


def test_a_pdf_with_thousands_of_empty_pages_is_refused_by_its_page_count():
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(6_000):
        writer.add_blank_page(10, 10)
    buffer = io.BytesIO()
    writer.write(buffer)
    assert "more than 5,000 pages" in refused(buffer.getvalue(), "halaman.pdf")


def test_a_pdf_whose_page_tree_contains_itself_ends_with_a_reason():
    cyclic = (b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
              b"2 0 obj << /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >> endobj\n"
              b"3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >> endobj\n"
              b"trailer << /Root 1 0 R /Size 4 >>\n%%EOF\n")
    assert refused(cyclic, "siklus.pdf", within=5)


def test_html_nested_a_hundred_thousand_deep_is_refused_not_a_recursion_error():
    deep = b"<html><body>" + b"<div>" * 100_000 + b"teks" + b"</div>" * 100_000 + b"</body></html>"
    assert "HTML nested 100,00" in refused(deep, "dalam.html")
    fine = b"<html><body>" + b"<div>" * 50 + b"Pasal 1 teks biasa." + b"</div>" * 50 + b"</body></html>"
    assert "Pasal 1" in extract_bytes(fine, "biasa.html").text


@pytest.mark.django_db
def test_an_uploaded_bomb_fails_with_its_reason_stores_nothing_and_the_next_file_ingests(
        api_client, django_capture_on_commit_callbacks):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from retrieval.models import Document

    def upload(content: bytes, name: str) -> dict:
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client.post("/documents", data={"collection_id": "JDIH", "file": SimpleUploadedFile(name, content)})
        return api_client.get(f"/ingestions/{response.json()['ingestion_id']}").json()

    bomb = upload(docx(**{"word/media/image1.png": b"\0" * (8 * 1024 * 1024)}), "bom.docx")
    assert bomb["status"] == "failed" and bomb["stored_document_id"] is None and "decompression bomb" in bomb["error"]
    laughs = upload(docx(**{"word/document.xml": LAUGHS}), "tawa.docx")
    assert laughs["status"] == "failed" and "declares a DTD" in laughs["error"]
    assert not Document.objects.exists()
    import docx as python_docx

    document = python_docx.Document()
    document.add_paragraph("Pasal 1 Zakat dibayar melalui Baitul Mal Aceh setiap tahun.")
    buffer = io.BytesIO()
    document.save(buffer)
    good = upload(buffer.getvalue(), "qanun.docx")
    assert good["stored_document_id"] and good["error"] is None, good
