"""Ingestion service, command and upload API on the real database."""
from __future__ import annotations

import io
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command

from retrieval.ingestion import IngestOptions, document_ingest_bytes
from retrieval.models import Chunk, Document, Ingestion

pytestmark = pytest.mark.django_db

QANUN = """QANUN ACEH
NOMOR 91 TAHUN 2024
TENTANG
TRANSPARANSI ANGGARAN (CONTOH)

BAB I
KETENTUAN UMUM

Pasal 1
Dalam Qanun ini yang dimaksud dengan:
1. Aceh adalah daerah provinsi yang bersifat istimewa.
2. Anggaran adalah rencana keuangan tahunan Pemerintah Aceh.

BAB II
KETERBUKAAN

Pasal 2
(1) Pemerintah Aceh wajib mengumumkan ringkasan anggaran paling lambat 14 (empat belas) hari setelah ditetapkan.
(2) Pengumuman sebagaimana dimaksud pada ayat (1) dimuat dalam laman resmi Pemerintah Aceh.

Pasal 3
Masyarakat berhak memperoleh salinan dokumen anggaran.
"""


def ingest(text: str, key: str = "test:qanun", filename: str = "qanun.txt", **options):
    return document_ingest_bytes(
        data=text.encode("utf-8"), filename=filename, source_key=key,
        options=IngestOptions(collection_id=options.pop("collection", "JDIH"), **options),
    )


def test_ingest_stores_document_chunks_and_vectors():
    outcome = ingest(QANUN)
    assert outcome.status == "ingested" and outcome.chunk_count >= 2
    document = Document.objects.get(pk=outcome.document_id)
    assert document.status == "indexed" and document.collection_id == "JDIH"
    assert document.instrument_type == "Qanun Aceh" and document.number == "91" and document.year == 2024
    chunks = list(Chunk.objects.filter(document=document).order_by("ordinal"))
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    for chunk in chunks:
        assert document.text[chunk.char_start : chunk.char_end] == chunk.text
        assert chunk.embedding_model == "hashing-bow-384"
        assert chunk.search_vector
    pasal2 = next(c for c in chunks if "wajib mengumumkan" in c.text)
    assert pasal2.section_path[-1] == "Pasal 2" and "BAB II" in pasal2.section_path
    assert pasal2.legal_reference.startswith("Qanun Aceh Nomor 91 Tahun 2024 Pasal 2")


def test_unchanged_bytes_are_a_no_op():
    first = ingest(QANUN)
    rows = Chunk.objects.count()
    second = ingest(QANUN)
    assert second.status == "unchanged" and second.document_id == first.document_id
    assert Chunk.objects.count() == rows and Document.objects.count() == 1


def test_changed_access_on_unchanged_bytes_updates_in_place():
    first = ingest(QANUN)
    second = ingest(QANUN, confidential=True)
    assert second.status == "updated" and second.document_id == first.document_id
    assert Document.objects.get(pk=first.document_id).confidential is True


def test_changed_bytes_supersede_the_previous_version():
    first = ingest(QANUN)
    second = ingest(QANUN.replace("14 (empat belas)", "7 (tujuh)"))
    assert second.status == "replaced" and second.document_id != first.document_id
    old, new = Document.objects.get(pk=first.document_id), Document.objects.get(pk=second.document_id)
    assert (old.status, new.status, new.version) == ("superseded", "indexed", 2)


def test_search_sees_only_the_current_version(api_client):
    ingest(QANUN)
    ingest(QANUN.replace("14 (empat belas)", "7 (tujuh)"))
    response = api_client.post("/search", data={"query": "mengumumkan ringkasan anggaran", "mode": "lexical", "top_k": 50},
                               content_type="application/json")
    texts = [r["text"] for r in response.json()["results"]]
    assert any("7 (tujuh)" in t for t in texts)
    assert not any("14 (empat belas)" in t for t in texts)


@pytest.mark.parametrize(
    "data,filename,reason",
    [
        (b"", "kosong.txt", "empty"),
        (b"   \n\n  ", "spasi.txt", "empty"),
        (b"hello", "gambar.png", "unsupported"),
        (b"%PDF-1.4 this is not really a pdf", "rusak.pdf", "pdf"),
    ],
)
def test_unreadable_files_fail_with_a_reason(data, filename, reason):
    outcome = document_ingest_bytes(data=data, filename=filename, source_key=f"test:{filename}", options=IngestOptions("JDIH"))
    assert outcome.status == "failed"
    assert reason in outcome.reason.lower()
    assert "\n" not in outcome.reason
    assert not Document.objects.exists()


class SimulatedCrash(RuntimeError):
    pass


def test_a_crash_before_commit_leaves_nothing_and_a_rerun_recovers():
    def crash():
        raise SimulatedCrash("power cut")

    with pytest.raises(SimulatedCrash):
        document_ingest_bytes(data=QANUN.encode(), filename="q.txt", source_key="test:crash",
                              options=IngestOptions("JDIH"), before_commit=crash)
    assert not Document.objects.exists() and not Chunk.objects.exists()
    outcome = document_ingest_bytes(data=QANUN.encode(), filename="q.txt", source_key="test:crash", options=IngestOptions("JDIH"))
    assert outcome.status == "ingested"


def test_a_crash_while_replacing_keeps_the_old_version_visible():
    first = ingest(QANUN, key="test:replace")

    def crash():
        raise SimulatedCrash("killed")

    with pytest.raises(SimulatedCrash):
        document_ingest_bytes(data=(QANUN + "\nPasal 4\nTambahan.\n").encode(), filename="q.txt", source_key="test:replace",
                              options=IngestOptions("JDIH"), before_commit=crash)
    assert list(Document.objects.values_list("id", "status")) == [(first.document_id, "indexed")]


# --- the ingest command ---------------------------------------------------------


def run_ingest(*args) -> tuple[int, str]:
    """The command into a collection the test makes on the way (as `--create-collection` does)."""
    out = io.StringIO()
    try:
        call_command("ingest", *args, "--create-collection", stdout=out, stderr=io.StringIO())
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue()


def test_ingest_command_reports_failures_and_is_idempotent(tmp_path: Path):
    (tmp_path / "qanun.txt").write_text(QANUN)
    (tmp_path / "nested").mkdir()
    (tmp_path / "nested" / "laporan.md").write_text("# Laporan PPID\n\nJumlah permohonan informasi 120 pada 2025.\n")
    (tmp_path / "kosong.txt").write_text("")
    (tmp_path / "gambar.png").write_bytes(b"\x89PNG\r\n")
    code, output = run_ingest(str(tmp_path), "--collection", "EVAL")
    assert code == 1
    assert "FAILED" in output and "kosong.txt" in output and "gambar.png" in output
    assert _count(output, "ingested") == 2 and _count(output, "failed") == 2
    code, output = run_ingest(str(tmp_path), "--collection", "EVAL")
    assert _count(output, "unchanged") == 2 and _count(output, "ingested") == 0
    assert Document.objects.filter(status="indexed").count() == 2


def test_ingest_command_applies_access_options(tmp_path: Path):
    path = tmp_path / "qanun.txt"
    path.write_text(QANUN)
    code, _ = run_ingest(str(path), "--collection", "JDIH", "--title", "Judul Khusus", "--confidential",
                         "--org-unit", "Bappeda", "--min-level", "3")
    assert code == 0
    document = Document.objects.get()
    assert (document.title, document.confidential, document.owning_org_unit, document.min_position_level) == (
        "Judul Khusus", True, "Bappeda", 3)


def _count(output: str, outcome: str) -> int:
    for line in output.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == outcome:
            return int(parts[1])
    raise AssertionError(f"no {outcome} row in summary:\n{output}")


# --- the upload API ----------------------------------------------------------------


def upload(client, content: bytes, name: str, **fields):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = {"collection_id": "JDIH", **fields, "file": SimpleUploadedFile(name, content)}
    return client.post("/documents", data=data)


def test_upload_is_accepted_then_stored(api_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as queued:
        response = upload(api_client, QANUN.encode(), "qanun-91.txt", confidential="false")
    assert len(queued) == 1  # one task, queued only once the request's transaction committed
    assert response.status_code == 202
    body = response.json()
    assert set(body) == {"ingestion_id", "status", "source_name"} and body["source_name"] == "qanun-91.txt"
    status = api_client.get(f"/ingestions/{body['ingestion_id']}").json()
    assert status["status"] == "succeeded" and status["outcome"] == "ingested"
    document = api_client.get(f"/documents/{status['stored_document_id']}")
    assert document.status_code == 200
    assert document.json()["identity"]["number"] == "91"
    listing = api_client.get("/documents").json()
    assert listing["count"] == 1 and listing["items"][0]["id"] == status["stored_document_id"]


def test_failed_upload_reports_its_reason(api_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(api_client, b"   ", "kosong.txt")
    status = api_client.get(f"/ingestions/{response.json()['ingestion_id']}").json()
    assert status["status"] == "failed" and status["stored_document_id"] is None and status["error"]


def test_oversized_upload_is_413(api_client, settings):
    from dataclasses import replace

    settings.ACEH_RAG = replace(settings.ACEH_RAG, api=replace(settings.ACEH_RAG.api, max_upload_bytes=100))
    response = upload(api_client, b"x" * 101, "besar.txt")
    assert response.status_code == 413 and "too large" in response.json()["detail"]
    assert not Ingestion.objects.exists()


@pytest.mark.parametrize("content,name", [(b"MZ\x90\x00", "program.exe"), (b"plain text", "palsu.pdf"), (b"%PDF-1.4", "palsu.docx")])
def test_wrong_type_upload_is_415(api_client, content, name):
    response = upload(api_client, content, name)
    assert response.status_code == 415
    assert not Ingestion.objects.exists()


def test_unknown_ingestion_is_404(api_client):
    missing = uuid.uuid4()
    response = api_client.get(f"/ingestions/{missing}")
    assert (response.status_code, response.json()) == (404, {"detail": f"Ingestion {missing} not found",
                                                          "code": "ingestion_not_found"})


def test_only_admins_delete_documents(api_client):
    document_id = ingest(QANUN).document_id
    denied = api_client.delete(f"/documents/{document_id}", HTTP_X_USER_SUBJECT="emp")
    assert denied.status_code == 403
    deleted = api_client.delete(f"/documents/{document_id}", HTTP_X_USER_SUBJECT="boss", HTTP_X_USER_ROLE="admin")
    assert deleted.status_code == 204 and deleted.content == b""
    assert not Document.objects.exists() and not Chunk.objects.exists()


def test_ingest_command_refreshes_the_term_statistics_the_lexical_tiers_read(tmp_path: Path):
    from django.db import connection

    (tmp_path / "qanun.txt").write_text(QANUN)
    with connection.cursor() as cursor:
        # Whatever an earlier ANALYZE left, this transaction starts without statistics for the column.
        cursor.execute("DELETE FROM pg_statistic WHERE starelid = 'retrieval_chunk'::regclass")
    assert run_ingest(str(tmp_path), "--collection", "EVAL")[0] == 0
    with connection.cursor() as cursor:
        cursor.execute("SELECT most_common_elems FROM pg_stats WHERE tablename = 'retrieval_chunk' AND attname = 'search_vector'")
        [(lexemes,)] = cursor.fetchall()
    # The corpus's own lexemes are in the statistics right after the command.
    assert lexemes and "transparansi" in lexemes


def test_a_junk_chunk_is_stored_disabled_and_never_found():
    from retrieval.access import Scope
    from retrieval.evaluation import EVALUATOR
    from retrieval.facade import chunks_search

    junk = "\n".join("s o (d q) o Lq) 0\" U) co oN o co oN 01 C\\ ON r_r) No C.l s C.I N oNoN L o J(dq) L".split() * 3)
    outcome = ingest(QANUN + "\nLAMPIRAN\nTABEL\n" + junk + "\n", key="test:junk")
    chunks = list(Chunk.objects.filter(document_id=outcome.document_id).order_by("ordinal"))
    junked = [c for c in chunks if "Lq)" in c.text]
    assert junked and all(not c.enabled and c.disabled_by == "ingestion: junk text" for c in junked)
    assert all(c.enabled for c in chunks if c not in junked)
    # Nothing is lost: the text is stored; search never returns the junk, even when asked in its own words.
    assert Document.objects.get(pk=outcome.document_id).text.count("Lq)") == 3
    found = chunks_search(principal=EVALUATOR, query="Lq oN co", top_k=20, scope=Scope.from_request(None, None))
    assert found.hits and not any("Lq)" in hit.text for hit in found.hits)
