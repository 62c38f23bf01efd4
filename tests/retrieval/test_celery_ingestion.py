"""The distributed path: `ingest --async` through a real Redis broker and worker."""
from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from retrieval.models import Document, Ingestion
from tests.conftest import ROOT, server_env

pytestmark = pytest.mark.django_db(transaction=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def redis_url():
    """A private redis-server on a free loopback port, stopped afterwards."""
    binary = shutil.which("redis-server")
    assert binary, "redis-server is required for the distributed ingestion test (apt-get install redis-server)"
    port = _free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    process.terminate()
    process.wait(5)


@pytest.fixture
def worker(redis_url):
    log = ROOT / "var" / "test-logs" / "celery-worker.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    env = server_env({"CELERY_BROKER_URL": redis_url})
    with open(log, "wb") as handle:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "acehrag", "worker", "--pool=solo", "--concurrency=1",
             "--loglevel=INFO", "--without-heartbeat", "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 30
            while b"ready" not in log.read_bytes() and time.monotonic() < deadline:
                assert process.poll() is None, log.read_text()
                time.sleep(0.2)
            yield process
        finally:
            process.terminate()
            process.wait(10)


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
