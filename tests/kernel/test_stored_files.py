"""Stored files behind Django's storage API (kernel/files.py): the data directory, or an S3-compatible bucket
that web processes and workers on different machines share without a shared volume."""
from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from django.conf import settings as django_settings

from kernel.config.files import FilesSettings
from kernel.files import (files_delete_folder, files_exists, files_local, files_open, files_put_folder, files_save,
                          files_walk, StoredFileMissing)
from tests.conftest import TEST_API_KEY
from tests.livedata.files import POPULATION, xlsx_bytes
from tests.retrieval.celery_processes import redis_server, worker_start, worker_stop
from tests.s3_server import s3_server


@pytest.fixture(scope="module")
def s3():
    with s3_server() as server:
        yield server


@pytest.fixture
def bucket_files(s3, settings, tmp_path):
    """This process's stored files in a new bucket, its data directory (the local cache) new too."""
    bucket = s3.bucket()
    env = s3.env(bucket)
    files = FilesSettings(backend="s3", bucket=bucket, endpoint_url=env["ACEH_RAG_FILES__ENDPOINT_URL"],
                          region="us-east-1", access_key_id=s3.access_key_id, secret_access_key=s3.secret_access_key)
    from dataclasses import replace

    settings.ACEH_RAG = replace(django_settings.ACEH_RAG, data_dir=tmp_path / "data", files=files)
    settings.STORAGES = {**django_settings.STORAGES, "files": files.storage(tmp_path / "data")}
    return bucket


@pytest.mark.parametrize("name", ["", "/etc/passwd", "uploads/../../x", "cache/uploads/a"])
def test_a_name_outside_the_stored_files_is_refused(name):
    with pytest.raises(ValueError, match="not a stored file name"):
        files_save(name, b"x")


def test_in_the_data_directory_a_save_is_whole_and_a_folder_moves_in_whole(settings, tmp_path):
    settings.ACEH_RAG = __import__("dataclasses").replace(django_settings.ACEH_RAG, data_dir=tmp_path)
    settings.STORAGES = {**django_settings.STORAGES, "files": FilesSettings().storage(tmp_path)}
    files_save("sources/a.txt", b"one")
    files_save("sources/a.txt", b"two")                      # replaced, not renamed beside it
    assert [p.name for p in (tmp_path / "sources").iterdir()] == ["a.txt"]
    assert files_local("sources/a.txt") == tmp_path / "sources" / "a.txt"
    staged = tmp_path / "staging"
    (staged / "deep").mkdir(parents=True)
    (staged / "0.parquet").write_bytes(b"P")
    (staged / "deep" / "1.parquet").write_bytes(b"Q")
    files_put_folder(staged, "workbooks/w1")
    assert not staged.exists() and sorted(files_walk("workbooks")) == ["workbooks/w1/0.parquet", "workbooks/w1/deep/1.parquet"]
    files_delete_folder("workbooks/w1")
    assert list(files_walk("workbooks")) == [] and files_exists("sources/a.txt")
    with pytest.raises(StoredFileMissing):
        files_open("sources/none.txt")


def test_in_a_bucket_files_are_read_through_a_local_copy_that_goes_with_them(s3, bucket_files, tmp_path):
    files_save("workbooks/w2/0.parquet", b"PAR1")
    staged = tmp_path / "staged"
    staged.mkdir()
    (staged / "1.parquet").write_bytes(b"PAR2")
    files_put_folder(staged, "workbooks/w2")
    assert s3.keys(bucket_files) == {"workbooks/w2/0.parquet", "workbooks/w2/1.parquet"} and not staged.exists()
    local = files_local("workbooks/w2/1.parquet")
    assert local.read_bytes() == b"PAR2" and local.is_relative_to(tmp_path / "data" / "cache")
    with files_open("workbooks/w2/0.parquet") as stored:
        assert stored.read() == b"PAR1"
    assert sorted(files_walk("workbooks")) == ["workbooks/w2/0.parquet", "workbooks/w2/1.parquet"]
    files_delete_folder("workbooks/w2")
    assert s3.keys(bucket_files) == set() and not local.exists()
    with pytest.raises(StoredFileMissing):
        files_open("workbooks/w2/0.parquet")


def _wait_succeeded(server_url: str, ingestion_id: str) -> dict:
    deadline = time.monotonic() + 120
    while True:
        status = httpx.get(f"{server_url}/ingestions/{ingestion_id}", headers={"X-API-Key": TEST_API_KEY}).json()
        if status["status"] in ("succeeded", "failed") or time.monotonic() > deadline:
            return status
        time.sleep(0.3)


@pytest.mark.django_db(transaction=True)
def test_a_web_process_and_a_worker_on_different_data_directories_share_uploads_sources_and_sheets(
        s3, live_server_factory, tmp_path):
    bucket = s3.bucket()
    web_dir, worker_dir = tmp_path / "web", tmp_path / "worker"
    with redis_server() as broker:
        shared = {**s3.env(bucket), "CELERY_BROKER_URL": broker, "ACEH_RAG_WORKBOOKS__ENABLED": "true"}
        server = live_server_factory(**shared, ACEH_RAG_DATA_DIR=str(web_dir))
        from tests.conftest import server_env

        worker = worker_start(server_env({**shared, "ACEH_RAG_DATA_DIR": str(worker_dir)}), tmp_path / "worker.log")
        try:
            # Given a workbook and a regulation uploaded to the web process, ingested by a worker elsewhere,
            headers = {"X-API-Key": TEST_API_KEY}
            sheet = httpx.post(f"{server.url}/documents", headers=headers, timeout=60, data={"collection_id": "SatuData"},
                               files={"file": ("Jumlah Penduduk Kabupaten Kota 2023.xlsx",
                                               xlsx_bytes({"Penduduk": POPULATION}))})
            qanun = httpx.post(f"{server.url}/documents", headers=headers, timeout=60, data={"collection_id": "JDIH"},
                               files={"file": ("qanun-arsip.txt", b"Pasal 1\nArsip daerah disimpan sepuluh tahun.\n")})
            assert sheet.status_code == qanun.status_code == 202, (sheet.text, qanun.text)
            done = [_wait_succeeded(server.url, r.json()["ingestion_id"]) for r in (sheet, qanun)]
        finally:
            worker_stop(worker)
    assert [d["status"] for d in done] == ["succeeded", "succeeded"], done
    workbook_id = done[0]["stored_document_id"]
    # then the bucket holds the sheet's Parquet and both originals, and no upload is left waiting;
    keys = s3.keys(bucket)
    assert f"workbooks/{workbook_id}/0.parquet" in keys and not any(k.startswith("uploads/") for k in keys)
    assert sorted(Path(k).suffix for k in keys if k.startswith("sources/")) == [".txt", ".xlsx"]
    # the web process's data directory never held them,
    assert not any((web_dir / name).exists() for name in ("uploads", "sources", "workbooks"))
    # and the web process answers a figure question from the sheet the worker stored.
    answer = httpx.post(f"{server.url}/query", headers=headers, timeout=60,
                        json={"query": "Berapa jumlah penduduk Aceh Besar tahun 2023?"}).json()
    assert "422132" in answer["answer"], answer
    assert (web_dir / "cache" / "workbooks" / workbook_id / "0.parquet").is_file()
