"""Workbooks through every ingestion path: catalogued with sheets, column types and row counts."""
from __future__ import annotations

import pytest
from django.core.management import call_command

from kernel.files import files_local
from kernel.principal import ANONYMOUS
from livedata.models import Workbook
from livedata.workbooks import storage
from retrieval.ingestion import IngestOptions, document_ingest_bytes
from retrieval.models import Document
from tests.livedata.files import POPULATION, SPENDING, csv_bytes, ods_bytes, xlsx_bytes

pytestmark = pytest.mark.django_db


def ingest(data: bytes, filename: str, **options):
    options.setdefault("collection_id", "SatuData")
    return document_ingest_bytes(data=data, filename=filename, source_key=f"test:{filename}",
                                 options=IngestOptions(**options))


@pytest.mark.parametrize("filename,data", [
    ("Penduduk Aceh 2023.xlsx", xlsx_bytes({"Penduduk": POPULATION, "Belanja": SPENDING})),
    ("Penduduk Aceh 2023.ods", ods_bytes({"Penduduk": POPULATION, "Belanja": SPENDING})),
])
def test_a_spreadsheet_is_catalogued_with_its_sheets_types_and_counts(filename, data):
    outcome = ingest(data, filename)
    assert outcome.status == "ingested", outcome
    workbook = Workbook.objects.get(document_id=outcome.document_id)
    document = workbook.document
    assert (document.title, document.year, document.collection_id, document.chunk_count) == (
        "Penduduk Aceh 2023", 2023, "SatuData", 0)
    assert workbook.period == "2023" and workbook.sheet_count == 2 and workbook.row_count == 9
    population, spending = workbook.sheets.all()
    assert population.name == "Penduduk" and population.row_count == 5
    assert [(c["name"], c["type"]) for c in population.columns] == [
        ("Kabupaten/Kota", "VARCHAR"), ("Tahun", "BIGINT"), ("Jumlah Penduduk", "BIGINT"),
        ("Laju Pertumbuhan", "DOUBLE")]
    assert population.columns[0]["values"] == ["Aceh Besar", "Banda Aceh", "Pidie"]  # a category column
    assert spending.row_count == 4 and spending.columns[2] == {"name": "Realisasi", "type": "DOUBLE"}
    total = storage.connection().execute(
        f"SELECT sum(\"Jumlah Penduduk\") FROM {storage.sheet_relation(population.storage)}").fetchone()[0]
    assert total == sum(row[2] for row in POPULATION[1:])


def test_a_csv_is_one_sheet_read_by_duckdb():
    outcome = ingest(csv_bytes(POPULATION), "penduduk_2022.csv", title="Penduduk per Kabupaten")
    workbook = Workbook.objects.get(document_id=outcome.document_id)
    (sheet,) = workbook.sheets.all()
    assert sheet.row_count == 5
    assert [c["type"] for c in sheet.columns] == ["VARCHAR", "BIGINT", "BIGINT", "DOUBLE"]
    assert workbook.document.title == "Penduduk per Kabupaten" and workbook.period == "2022"


def test_a_text_column_with_many_values_keeps_none_in_the_catalogue():
    rows = [["nama", "nilai"], *([f"orang {i}", i] for i in range(300))]
    (sheet,) = Workbook.objects.get(document_id=ingest(csv_bytes(rows), "nama.csv").document_id).sheets.all()
    assert "values" not in sheet.columns[0] and sheet.row_count == 300


def test_unchanged_bytes_are_a_no_op_and_changed_bytes_supersede():
    first = ingest(csv_bytes(POPULATION), "p.csv")
    assert ingest(csv_bytes(POPULATION), "p.csv").status == "unchanged"
    second = ingest(csv_bytes(POPULATION[:3]), "p.csv")
    assert second.status == "replaced"
    assert Document.objects.get(pk=first.document_id).status == "superseded"
    assert Workbook.objects.get(document_id=second.document_id).row_count == 2


def test_an_unreadable_workbook_fails_with_a_reason_and_leaves_nothing():
    outcome = ingest(b"PK\x03\x04 not really a zip", "rusak.xlsx")
    assert outcome.status == "failed" and "spreadsheet" in outcome.reason
    assert not Document.objects.filter(source_key="test:rusak.xlsx").exists()


def test_access_fields_apply_as_for_documents():
    from livedata.selectors import workbooks_visible
    outcome = ingest(csv_bytes(POPULATION), "rahasia.csv", confidential=True)
    assert Document.objects.get(pk=outcome.document_id).confidential
    assert not workbooks_visible(principal=ANONYMOUS).filter(document_id=outcome.document_id).exists()


def test_the_ingest_command_accepts_workbooks(tmp_path, capsys):
    (tmp_path / "belanja_2024.xlsx").write_bytes(xlsx_bytes({"Belanja": SPENDING}))
    (tmp_path / "penduduk.csv").write_bytes(csv_bytes(POPULATION))
    call_command("ingest", str(tmp_path), "--collection", "SatuData", "--create-collection")
    assert Workbook.objects.filter(document__source_key__startswith="SatuData:").count() == 2


def test_the_upload_api_accepts_a_workbook_and_refuses_a_fake(api_client, django_capture_on_commit_callbacks):
    from django.core.files.uploadedfile import SimpleUploadedFile
    good = SimpleUploadedFile("belanja.ods", ods_bytes({"Belanja": SPENDING}))
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post("/documents", {"file": good, "collection_id": "SatuData"})
    assert response.status_code == 202, response.content
    status = api_client.get(f"/ingestions/{response.json()['ingestion_id']}").json()
    assert status["status"] == "succeeded" and Workbook.objects.filter(document_id=status["stored_document_id"]).exists()
    fake = SimpleUploadedFile("belanja.xlsx", b"just text")
    assert api_client.post("/documents", {"file": fake, "collection_id": "SatuData"}).status_code == 415


def test_deleting_a_workbook_removes_its_parquet_files_after_commit(django_capture_on_commit_callbacks):
    from retrieval.services import document_delete

    outcome = ingest(csv_bytes(POPULATION), "hapus.csv")
    folder = files_local(storage.workbook_folder(outcome.document_id))
    assert any(folder.glob("*.parquet"))
    with django_capture_on_commit_callbacks(execute=True):
        document_delete(document=Document.objects.get(pk=outcome.document_id))
    assert not Workbook.objects.filter(document_id=outcome.document_id).exists()
    assert not folder.exists()


def test_a_rolled_back_delete_keeps_the_parquet_files():
    from django.db import transaction

    outcome = ingest(csv_bytes(POPULATION), "tetap.csv")
    folder = files_local(storage.workbook_folder(outcome.document_id))
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            Document.objects.filter(pk=outcome.document_id).delete()
            raise RuntimeError("rolled back")
    assert Workbook.objects.filter(document_id=outcome.document_id).exists()
    assert any(folder.glob("*.parquet"))
