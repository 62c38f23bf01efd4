"""Backup and restore: a populated data directory comes back whole in a fresh database and data directory."""
from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from acehrag.embedded_db import embedded_server
from tests.conftest import ROOT, server_env
from tests.factories import make_document
from tests.s3_server import s3_server

QANUN = "QANUN ACEH NOMOR 77 TAHUN 2026\nTENTANG ARSIP\n\nPasal 1\nArsip daerah disimpan paling singkat sepuluh tahun.\n"

SNAPSHOT = {
    "documents": "SELECT id::text, title, text FROM retrieval_document ORDER BY id",
    "chunks": "SELECT id::text, document_id::text, text, enabled FROM retrieval_chunk ORDER BY id",
    "conversations": "SELECT id::text, owner, title FROM conversations_conversation ORDER BY id",
    "messages": "SELECT id::text, role, content, source_citations::text FROM conversations_message ORDER BY id",
    "memories": "SELECT id, owner, text FROM memory_memory ORDER BY id",
}


def snapshot(conninfo: dict) -> dict[str, list[tuple]]:
    with psycopg.connect(**conninfo) as connection:
        return {name: connection.execute(sql).fetchall() for name, sql in SNAPSHOT.items()}


def stored_files(data_dir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(data_dir)): p.read_bytes() for name in ("sources", "uploads", "workbooks")
            for p in sorted((data_dir / name).rglob("*")) if p.is_file()}


def test_backup_then_restore_into_a_fresh_database_and_data_dir_gives_the_same_corpus_and_chats(
        transactional_db, api_client, tmp_path):
    from django.db import connection

    from memory.models import Memory

    # Given a populated deployment: an uploaded document (its original file kept), a stored answer and a memory,
    make_document(title="Qanun Arsip", chunks=["Arsip daerah disimpan paling singkat sepuluh tahun."])
    upload = api_client.post("/documents", data={"collection_id": "JDIH", "file": SimpleUploadedFile("arsip.txt", QANUN.encode())})
    assert upload.status_code == 202
    answer = api_client.post("/query", data={"query": "Berapa lama arsip daerah disimpan?"}, content_type="application/json")
    assert answer.status_code == 200
    Memory.objects.create(owner="anonymous", memory_type="fact", text="Bekerja di Dinas Perpustakaan dan Arsip.")
    server = embedded_server(settings.ACEH_RAG.data_dir)
    source_db = connection.settings_dict["NAME"]
    before = snapshot(server.conninfo(source_db))
    assert all(before.values()), {k: len(v) for k, v in before.items()}

    # when it is backed up, and the backup restored by another process into a new database and data dir,
    backup = tmp_path / "backup"
    call_command("backup", str(backup))
    fresh_db, fresh_dir = f"restore_{uuid.uuid4().hex[:8]}", tmp_path / "fresh"
    with psycopg.connect(**server.conninfo("postgres"), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{fresh_db}"')
    try:
        env = server_env({"DATABASE_URL": f"postgresql://postgres@/{fresh_db}?host={server.socket_dir}",
                          "ACEH_RAG_DATA_DIR": str(fresh_dir)})
        restored = subprocess.run([sys.executable, "manage.py", "restore", str(backup)], cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=300)
        assert restored.returncode == 0, restored.stderr[-3000:]
        assert "each as backed up" in restored.stdout
        # then documents, chunks, conversations, messages and memories are the same rows, and every stored
        # file (the upload's original among them) is there with the same bytes.
        assert snapshot(server.conninfo(fresh_db)) == before
        assert stored_files(fresh_dir) == stored_files(Path(settings.ACEH_RAG.data_dir))
        assert any(name.startswith("sources/") for name in stored_files(fresh_dir))
        # A second restore over the first is refused by nothing and changes nothing; with the files in a bucket
        # (how a deployment moves its files out of the data directory) the bucket receives every one of them.
        with s3_server() as s3:
            bucket = s3.bucket()
            again = subprocess.run([sys.executable, "manage.py", "restore", str(backup)], cwd=ROOT,
                                   env={**env, **s3.env(bucket)}, capture_output=True, text=True, timeout=300)
            assert again.returncode == 0, again.stderr[-3000:]
            client = s3.client()
            in_bucket = {key: client.get_object(Bucket=bucket, Key=key)["Body"].read() for key in s3.keys(bucket)}
        assert snapshot(server.conninfo(fresh_db)) == before
        assert in_bucket == stored_files(Path(settings.ACEH_RAG.data_dir))
    finally:
        with psycopg.connect(**server.conninfo("postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{fresh_db}" WITH (FORCE)')


def test_a_backup_directory_is_never_overwritten_and_a_missing_one_is_a_clear_error(transactional_db, tmp_path):
    call_command("backup", str(tmp_path / "b"))
    for argv, reason in ((["backup", str(tmp_path / "b")], "already holds a backup"),
                         (["restore", str(tmp_path / "nothing")], "holds no readable backup manifest")):
        result = subprocess.run([sys.executable, "manage.py", *argv], cwd=ROOT, env=server_env(),
                                capture_output=True, text=True, timeout=300)
        assert result.returncode != 0 and reason in result.stderr
