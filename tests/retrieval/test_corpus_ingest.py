"""The real corpus through the ingest command, as staff would run it."""
from __future__ import annotations

import io
from dataclasses import replace

import pytest
from django.core.management import call_command

from retrieval.models import Chunk, Document

pytestmark = [pytest.mark.django_db, pytest.mark.corpus, pytest.mark.slow]

HARD = {
    "perpres-87-2014-peraturan-pelaksanaan-uu-12-2011-pembentukan-peraturan-perundang-undangan.pdf",
    "pp-29-2009-tata-cara-penentuan-jumlah-pembayaran-dan-penyetoran-pnbp-terutang.pdf",
    "se-bapeten-1904-2019-hasil-pindai.pdf",
}


def run(*paths) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("ingest", *map(str, paths), "--collection", "EVAL", "--create-collection", stdout=out, stderr=io.StringIO())
        return 0, out.getvalue()
    except SystemExit as exc:
        return exc.code, out.getvalue()


def summary(output: str) -> dict[str, int]:
    rows = {}
    for line in output.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            rows[parts[0]] = int(parts[1])
    return rows


def test_the_corpus_ingests_refuses_the_hard_pdfs_and_is_then_unchanged(corpus_dir, settings):
    # The text-layer path as staff meet it without OCR (tests/retrieval/parsing/test_ocr.py and
    # bench/ocr.py read the scans): OCR would spend minutes on the hard PDFs' 123 pages here.
    settings.ACEH_RAG = replace(settings.ACEH_RAG, ingestion=replace(settings.ACEH_RAG.ingestion, ocr_enabled=False))
    readable = len(list((corpus_dir / "txt").glob("*.txt"))) + len(list((corpus_dir / "pdf").glob("*.pdf")))
    code, output = run(corpus_dir / "txt", corpus_dir / "pdf")
    assert code == 1
    counts = summary(output)
    assert counts["ingested"] == readable and counts["failed"] == len(HARD), output[-2000:]
    failed = {line.split(":")[0].rsplit("/", 1)[-1] for line in output.splitlines() if line.startswith("FAILED")}
    assert failed == HARD
    assert all(("text layer" in line or "garbage" in line) for line in output.splitlines() if line.startswith("FAILED"))
    # Every good PDF was read as a regulation (parsing/test_extract.py reads the hard ones and four good ones alone).
    pdfs = Document.objects.filter(status="indexed", source_format="pdf").only("source_name", "text")
    assert len(pdfs) == len(list((corpus_dir / "pdf").glob("*.pdf")))
    assert [d.source_name for d in pdfs if "Pasal" not in d.text] == []
    # Every chunk keeps the offset invariant against its stored document text.
    for document in Document.objects.filter(status="indexed").only("id", "text")[:40]:
        for chunk in Chunk.objects.filter(document=document).only("text", "char_start", "char_end"):
            assert document.text[chunk.char_start:chunk.char_end] == chunk.text

    code, output = run(corpus_dir / "txt", corpus_dir / "pdf")
    counts = summary(output)
    assert (counts["unchanged"], counts["ingested"], counts["failed"]) == (readable, 0, len(HARD))
