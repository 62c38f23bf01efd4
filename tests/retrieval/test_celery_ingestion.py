"""The distributed path: `ingest --async` through a real Redis broker and worker."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from retrieval.models import Document, Ingestion
from tests.conftest import ROOT, server_env
from tests.retrieval.celery_processes import redis_server, worker_start, worker_stop

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def redis_url():
    with redis_server() as url:
        yield url


@pytest.fixture
def worker(redis_url):
    process = worker_start(server_env({"CELERY_BROKER_URL": redis_url}), ROOT / "var" / "test-logs" / "celery-worker.log")
    yield process
    worker_stop(process)


def test_async_ingest_runs_on_a_real_worker(tmp_path: Path, redis_url, worker):
    (tmp_path / "qanun.txt").write_text(
        "QANUN ACEH\nNOMOR 91 TAHUN 2024\nTENTANG\nTRANSPARANSI ANGGARAN\n\nPasal 1\nAnggaran diumumkan.\n"
    )
    (tmp_path / "rusak.pdf").write_bytes(b"%PDF-1.4 broken")
    # The command runs as a staff member would run it: its own process, the broker in its environment.
    command = subprocess.run(
        [sys.executable, "manage.py", "ingest", str(tmp_path), "--collection", "ASYNC", "--create-collection", "--async", "--wait-timeout", "120"],
        cwd=ROOT, env=server_env({"CELERY_BROKER_URL": redis_url}), capture_output=True, text=True, timeout=180,
    )
    assert command.returncode == 1, command.stdout + command.stderr  # the broken PDF failed
    assert "queued 2 file(s)" in command.stderr
    statuses = dict(Ingestion.objects.values_list("source_name", "status"))
    assert statuses == {"qanun.txt": "succeeded", "rusak.pdf": "failed"}
    document = Document.objects.get(collection_id="ASYNC")
    assert document.status == "indexed" and document.chunk_count >= 1
    # The work happened in the worker process, not inline in the command.
    log = (ROOT / "var" / "test-logs" / "celery-worker.log").read_text()
    assert "retrieval.tasks.ingest_file" in log and "succeeded" in log
