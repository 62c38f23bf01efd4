"""A worker killed mid-batch loses no document and duplicates none (issue #36).

Real processes throughout: a private redis-server, ``celery -A acehrag worker``
processes, ``manage.py ingest --async`` as staff run it, and an OpenAI-compatible
embedding server on loopback that holds one document's request, so the kill
lands while that document is in flight, deterministically.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import psycopg
import pytest
from django.db import OperationalError, connection
from retrieval import ingestion_lease as ingestion_lease_module
from retrieval import tasks as retrieval_tasks
from retrieval.ingestion import IngestOptions, document_ingest_path
from retrieval.ingestion_jobs import ingestion_orphans_reclaim, ingestion_run
from retrieval.ingestion_lease import lease_key
from retrieval.models import Chunk, Document, Ingestion
from retrieval.services import ingestion_create
from tests.conftest import ROOT, server_env
from tests.http_fakes import FakeModelServer
from tests.retrieval.celery_processes import redis_server, worker_start, worker_stop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

FILES = 12
HELD = 6            # the file whose embedding request is held when the worker is killed
MARKER = "penanda-tahan"
LOGS = ROOT / "var" / "test-logs"


def _regulation(number: int) -> str:
    articles = "\n\n".join(
        f"Pasal {article}\nSetiap perangkat daerah nomor {number} wajib melaksanakan ketentuan ke-{article} "
        f"tentang pelayanan publik{' ' + MARKER if number == HELD and article == 2 else ''}."
        for article in range(1, 2 + number % 5)
    )
    return f"QANUN ACEH\nNOMOR {number} TAHUN 2025\nTENTANG\nPELAYANAN PUBLIK BAGIAN {number}\n\n{articles}\n"


class HoldingEmbeddings:
    """``/v1/embeddings`` that answers at once, except the first request naming MARKER, held until released."""

    def __init__(self):
        self.held = threading.Event()
        self.release = threading.Event()

    def __call__(self, path: str, body: dict):
        if not self.held.is_set() and any(MARKER in text for text in body["input"]):
            self.held.set()
            self.release.wait(60)
        vector = [1.0] + [0.0] * 383
        return 200, {"object": "list", "model": body["model"],
                     "data": [{"object": "embedding", "index": i, "embedding": vector} for i in range(len(body["input"]))]}


def _wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def test_a_worker_killed_mid_batch_loses_no_document_and_duplicates_none(tmp_path: Path):
    folder = tmp_path / "batch"
    folder.mkdir()
    for number in range(1, FILES + 1):
        (folder / f"qanun-{number:02d}.txt").write_text(_regulation(number))
    held_name = f"qanun-{HELD:02d}.txt"
    # Given what a clean, uninterrupted ingest of the same files stores
    clean = {path.name: document_ingest_path(path=path, source_key=f"CLEAN/{path.name}",
                                             options=IngestOptions.build(collection_id="CLEAN")).chunk_count
             for path in sorted(folder.iterdir())}
    assert len(set(clean.values())) > 1 and all(clean.values())

    embeddings = HoldingEmbeddings()
    with redis_server() as broker, FakeModelServer(embeddings) as embedder:
        env = server_env({"CELERY_BROKER_URL": broker, "ACEH_RAG_EMBEDDING__BACKEND": "openai",
                          "ACEH_RAG_EMBEDDING__MODEL": "holding-stub", "ACEH_RAG_EMBEDDING__BASE_URL": embedder.url})
        workers = [worker_start(env, LOGS / "killed-worker.log", name="doomed")]
        command = subprocess.Popen(
            [sys.executable, "manage.py", "ingest", str(folder), "--collection", "KILLED", "--create-collection",
             "--async", "--wait-timeout", "60"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        try:
            # When the worker is in the middle of the batch: some files stored, one in flight, the rest queued
            assert embeddings.held.wait(60), "the held file was never embedded"
            stored_before = Document.objects.filter(collection_id="KILLED").count()
            assert 3 <= stored_before < FILES
            assert Ingestion.objects.get(collection_id="KILLED", source_name=held_name).status == "running"
            os.kill(workers[0].pid, signal.SIGKILL)
            workers[0].wait(10)
            embeddings.release.set()
            # and two new workers take over
            workers += [worker_start(env, LOGS / f"replacement-{n}.log", name=f"replacement{n}") for n in (1, 2)]
            out, err = command.communicate(timeout=75)
        finally:
            embeddings.release.set()
            if command.poll() is None:
                command.kill()
            for worker in workers:
                worker_stop(worker)

    # Then every file finished, none is left queued or running
    assert command.returncode == 0, out + err
    ingestions = list(Ingestion.objects.filter(collection_id="KILLED"))
    assert len(ingestions) == FILES
    assert Counter(ingestion.status for ingestion in ingestions) == {"succeeded": FILES}
    held = next(ingestion for ingestion in ingestions if ingestion.source_name == held_name)
    assert held.attempts == 2  # the killed attempt and the one that finished it
    # every file is stored exactly once, with the chunks a clean ingest stores
    documents = list(Document.objects.filter(collection_id="KILLED"))
    assert len(documents) == FILES
    assert {document.status for document in documents} == {"indexed"}
    assert len({document.content_hash for document in documents}) == FILES
    assert {document.source_name: document.chunk_count for document in documents} == clean
    for document in documents:
        ordinals = list(Chunk.objects.filter(document=document).values_list("ordinal", flat=True))
        assert len(ordinals) == len(set(ordinals)) == clean[document.source_name]


def _running_ingestion(tmp_path: Path, number: int, attempts: int) -> Ingestion:
    path = tmp_path / f"qanun-{number:02d}.txt"
    path.write_text(_regulation(number))
    ingestion = ingestion_create(source_name=path.name, source_key=f"LEASE/{path.name}", stored_path=path,
                                 options=IngestOptions.build(collection_id="LEASE"))
    Ingestion.objects.filter(pk=ingestion.pk).update(status="running", attempts=attempts)
    return ingestion


def test_a_second_delivery_of_a_running_ingestion_leaves_it_to_its_worker(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(ingestion_lease_module, "LEASE_WAIT_SECONDS", 0.2)
    ingestion = _running_ingestion(tmp_path, 1, attempts=1)
    # Given a live worker holding the ingestion's lease (on its own connection)
    with psycopg.connect(**connection.get_connection_params()) as worker, worker.transaction():
        worker.execute("SELECT pg_advisory_xact_lock(%s)", [lease_key(ingestion.id)])
        # when its message is delivered again, or workers start and look for orphans
        assert ingestion_run(ingestion_id=str(ingestion.id)) == "busy"
        assert ingestion_orphans_reclaim() == []
    # then the ingestion stays with its worker: not run twice, not requeued
    ingestion.refresh_from_db()
    assert (ingestion.status, ingestion.attempts, Document.objects.filter(collection_id="LEASE").count()) == ("running", 1, 0)


def test_orphans_are_requeued_and_a_file_that_keeps_killing_workers_fails(tmp_path: Path):
    # Given two ingestions left running by dead workers, one of them for the third time
    orphan = _running_ingestion(tmp_path, 1, attempts=1)
    poison = _running_ingestion(tmp_path, 2, attempts=3)
    # when a worker starts and looks for orphans
    assert ingestion_orphans_reclaim() == [str(orphan.id)]
    # then the first is queued again and the other fails with the reason, so it blocks nothing
    orphan.refresh_from_db(), poison.refresh_from_db()
    assert orphan.status == "queued"
    assert (poison.status, poison.outcome, poison.error) == ("failed", "failed", "its worker died 3 times while ingesting it")
    # and running the requeued one stores it once
    assert ingestion_run(ingestion_id=str(orphan.id)) == "ingested"
    orphan.refresh_from_db()
    assert (orphan.status, orphan.attempts) == ("succeeded", 2)


def test_a_database_outage_at_the_lease_is_retried_not_lost(tmp_path: Path, monkeypatch):
    path = tmp_path / "qanun-01.txt"
    path.write_text(_regulation(1))
    ingestion = ingestion_create(source_name=path.name, source_key=f"LEASE/{path.name}", stored_path=path,
                                 options=IngestOptions.build(collection_id="LEASE"))
    # Given a database the lease cannot reach (a fresh connection to a server socket that is not there)
    params = {**connection.get_connection_params(), "host": str(tmp_path), "connect_timeout": 2}
    monkeypatch.setattr(ingestion_lease_module, "_lease", threading.local())
    monkeypatch.setattr(ingestion_lease_module.connection, "get_connection_params", lambda: params)
    # when the task runs, it fails with the error the task retries on
    with pytest.raises(OperationalError):
        ingestion_run(ingestion_id=str(ingestion.id))
    monkeypatch.undo()
    # then the ingestion is still queued for that retry, not claimed or lost
    ingestion.refresh_from_db()
    assert (ingestion.status, ingestion.attempts) == ("queued", 0)
    assert retrieval_tasks.ingest_file.autoretry_for[0] is OperationalError
