"""Load on a real server over loopback: concurrent streams, searches, a burst beyond the bound.

Starts the server a source tree defines (``acehrag/serving.py``: uvicorn; plain uvicorn
for an older tree without it) serving this tree by default (``--before PATH``
also serves another tree, e.g. main's, on the same data in the same run),
holding the sample corpus, then runs bounded phases against it:

1. ``--streams`` clients (50) loop ``POST /query/stream`` for ``--stream-seconds`` (60):
   streams that reach ``done``, error frames, HTTP statuses, connection errors,
   p50/p95 time to ``done``;
2. ``--searches`` clients (16) loop ``POST /search`` for ``--search-seconds`` (30):
   requests/s, p95, errors;
3. ``--burst`` clients (200) loop ``POST /query/stream`` for ``--burst-seconds`` (20):
   everything beyond the answer bound must be ``503`` with ``Retry-After``.

Throughout, ``/healthz`` is probed every 0.25 s from a process of its own (max
latency as a client sees it, not delayed by the load generator's own event loop;
the in-loop figure is printed beside it) and the database's connections are
sampled from ``pg_stat_activity`` (max during, and 10 s after).

Run: .venv/bin/python bench/load.py [--before /work/main] [--embedder hashing]
Loopback only; every loop is bounded by its phase's duration.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from collections import Counter
from pathlib import Path

import httpx

from _setup import ROOT, django_setup, percentile

from _load_server import KEY, Probe, Server, with_probe


async def stream_once(client: httpx.AsyncClient, question: str, outcomes: Counter, done_ms: list[float]) -> None:
    started = time.perf_counter()
    try:
        async with client.stream("POST", "/query/stream", json={"query": question}) as response:
            if response.status_code != 200:
                retry = response.headers.get("Retry-After")
                outcomes[f"http {response.status_code}{'+Retry-After' if retry else ''}"] += 1
                await response.aread()
                if retry and retry.isdigit():
                    await asyncio.sleep(int(retry))  # a well-behaved client honours Retry-After
                return
            async for line in response.aiter_lines():
                if line == "event: done":
                    outcomes["done"] += 1
                    done_ms.append((time.perf_counter() - started) * 1000)
                    return
                if line == "event: error":
                    outcomes["error frame"] += 1
                    return
            outcomes["stream ended without done"] += 1
    except httpx.HTTPError as exc:
        outcomes[f"connection error ({type(exc).__name__})"] += 1


async def stream_phase(url: str, clients: int, seconds: float, questions: list[str]):
    outcomes: Counter = Counter()
    done_ms: list[float] = []
    until = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients + 10, max_keepalive_connections=clients + 10)
    async with httpx.AsyncClient(base_url=url, headers={"X-API-Key": KEY}, timeout=120, limits=limits) as client:
        async def loop(offset: int) -> None:
            n = offset
            while time.monotonic() < until:
                await stream_once(client, questions[n % len(questions)], outcomes, done_ms)
                n += clients
        await asyncio.gather(*(loop(i) for i in range(clients)))
    return outcomes, done_ms


async def search_phase(url: str, clients: int, seconds: float, questions: list[str]):
    outcomes: Counter = Counter()
    latencies: list[float] = []
    until = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients + 10, max_keepalive_connections=clients + 10)
    async with httpx.AsyncClient(base_url=url, headers={"X-API-Key": KEY}, timeout=60, limits=limits) as client:
        async def loop(offset: int) -> None:
            n = offset
            while time.monotonic() < until:
                started = time.perf_counter()
                try:
                    response = await client.post("/search", json={"query": questions[n % len(questions)], "top_k": 5})
                    outcomes["200" if response.status_code == 200 else f"http {response.status_code}"] += 1
                    if response.status_code == 200:
                        latencies.append((time.perf_counter() - started) * 1000)
                except httpx.HTTPError as exc:
                    outcomes[f"connection error ({type(exc).__name__})"] += 1
                n += clients
        started = time.monotonic()
        await asyncio.gather(*(loop(i) for i in range(clients)))
        elapsed = time.monotonic() - started
    return outcomes, latencies, elapsed


def load() -> str:
    """The 1-minute load average: other work on the machine skews every latency here."""
    return f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"


def describe(outcomes: Counter) -> str:
    return ", ".join(f"{name}: {count}" for name, count in sorted(outcomes.items(), key=lambda item: -item[1]))


def measure(label: str, server: Server, conninfo: dict, args, questions: list[str]) -> dict:
    print(f"\n== {label}: {server.url} (machine load {load()})", flush=True)
    figures = {}
    (outcomes, done_ms), probe = asyncio.run(with_probe(server.url, conninfo, stream_phase(
        server.url, args.streams, args.stream_seconds, questions)))
    errors = sum(count for name, count in outcomes.items() if name != "done")
    print(f"{args.streams} /query/stream clients, {args.stream_seconds:.0f} s: {describe(outcomes)}")
    print(f"  errors {errors}; time to done p50 {percentile(done_ms, 0.5):.0f} ms, p95 {percentile(done_ms, 0.95):.0f} ms; "
          f"/healthz max {probe.health_max_ms:.0f} ms ({probe.health_failures} failed; "
          f"{probe.in_loop_max_ms:.0f} ms seen from the load generator's loop; the probe itself woke up to "
          f"{probe.probe_late_max_ms:.0f} ms late); "
          f"db connections max {probe.connections_max}; machine load {load()}", flush=True)
    figures["streams"] = {"outcomes": dict(outcomes), "errors": errors, "p50": percentile(done_ms, 0.5),
                          "p95": percentile(done_ms, 0.95), "healthz_max_ms": probe.health_max_ms,
                          "healthz_in_loop_max_ms": probe.in_loop_max_ms,
                          "db_connections_max": probe.connections_max}
    (outcomes, latencies, elapsed), probe = asyncio.run(with_probe(server.url, conninfo, search_phase(
        server.url, args.searches, args.search_seconds, questions)))
    errors = sum(count for name, count in outcomes.items() if name != "200")
    rate = outcomes["200"] / elapsed
    print(f"{args.searches} /search clients, {args.search_seconds:.0f} s: {describe(outcomes)}")
    print(f"  errors {errors}; {rate:.1f} req/s, p50 {percentile(latencies, 0.5):.0f} ms, p95 {percentile(latencies, 0.95):.0f} ms; "
          f"/healthz max {probe.health_max_ms:.0f} ms; db connections max {probe.connections_max}; machine load {load()}",
          flush=True)
    time.sleep(10)
    after = Probe(server.url, conninfo)._connections()
    print(f"  db connections 10 s after the load: {after}")
    try:
        search_after = httpx.post(server.url + "/search", json={"query": questions[0]}, headers={"X-API-Key": KEY},
                                  timeout=30).status_code
    except httpx.HTTPError as exc:
        search_after = type(exc).__name__
    print(f"  /search right after: {search_after}", flush=True)
    figures["search"] = {"outcomes": dict(outcomes), "errors": errors, "rps": rate, "p95": percentile(latencies, 0.95),
                         "healthz_max_ms": probe.health_max_ms, "db_connections_max": probe.connections_max,
                         "db_connections_after": after, "search_after": search_after}
    if args.burst:
        (outcomes, done_ms), probe = asyncio.run(with_probe(server.url, conninfo, stream_phase(
            server.url, args.burst, args.burst_seconds, questions)))
        other = sum(count for name, count in outcomes.items() if name not in ("done", "http 503+Retry-After"))
        print(f"{args.burst} /query/stream clients, {args.burst_seconds:.0f} s: {describe(outcomes)}")
        print(f"  outcomes other than done or 503+Retry-After: {other}; time to done p95 {percentile(done_ms, 0.95):.0f} ms; "
              f"/healthz max {probe.health_max_ms:.0f} ms; db connections max {probe.connections_max}; "
              f"machine load {load()}", flush=True)
        figures["burst"] = {"outcomes": dict(outcomes), "other": other, "healthz_max_ms": probe.health_max_ms}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, help="another source tree (e.g. /work/main) measured first, same data")
    parser.add_argument("--embedder", default="hashing", help="embedding backend of the servers (default hashing: "
                        "deterministic and light, so the figures measure the server, not the model)")
    parser.add_argument("--streams", type=int, default=50)
    parser.add_argument("--stream-seconds", type=float, default=60)
    parser.add_argument("--searches", type=int, default=16)
    parser.add_argument("--search-seconds", type=float, default=30)
    parser.add_argument("--burst", type=int, default=200)
    parser.add_argument("--burst-seconds", type=float, default=20)
    args = parser.parse_args()
    django_setup(data_dir=f"var/bench-load-{args.embedder}", ACEH_RAG_API__KEYS=KEY, ACEH_RAG_EMBEDDING__BACKEND=args.embedder)
    from django.conf import settings
    from django.db import connection

    from acehrag.embedded_db import embedded_server
    from retrieval.models import Document
    from retrieval.services import sample_corpus_ingest

    if not Document.objects.exists():
        sample_corpus_ingest()
    connection.close()
    server_info = embedded_server(settings.ACEH_RAG.data_dir)
    conninfo = {**server_info.conninfo("postgres")}
    questions = [json.loads(line)["query"] for line in (ROOT / "retrieval/sample_corpus/questions.jsonl").read_text().splitlines() if line.strip()]
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACEH_RAG_")}
    env.update(ACEH_RAG_DATA_DIR=str(settings.ACEH_RAG.data_dir), ACEH_RAG_API__KEYS=KEY, ACEH_RAG_LOG_LEVEL="WARNING",
               ACEH_RAG_EMBEDDING__BACKEND=args.embedder, DJANGO_SETTINGS_MODULE="acehrag.settings",
               # The public chat's per-address limits would refuse a loopback bench; it is not measured here.
               ACEH_RAG_PUBLIC_CHAT__IP_RATE_LIMIT="100000")
    env.pop("DATABASE_URL", None)
    log_dir = ROOT / "var" / "bench-load-logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    print(f"{os.cpu_count()} CPUs (shared with other work: figures are relative within this run); "
          f"embedder {args.embedder}; {len(questions)} sample questions")
    results = {}
    for label, tree in ([("before", args.before)] if args.before else []) + [("after", ROOT)]:
        # Another tree is only read: no bytecode is written into it.
        server = Server(tree, {**env, "PYTHONDONTWRITEBYTECODE": "1"} if tree != ROOT else env, log_dir / f"{label}.log")
        try:
            results[label] = measure(f"{label} ({tree})", server, conninfo, args, questions)
        finally:
            server.stop()
        log = (log_dir / f"{label}.log").read_text(errors="replace")
        print(f"  server log: {log.count('Traceback')} tracebacks, {log.count('too many clients')} 'too many clients'")
    (log_dir / "figures.json").write_text(json.dumps(results, indent=2, default=str))


if __name__ == "__main__":
    main()
