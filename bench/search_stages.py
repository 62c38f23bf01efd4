"""What each hybrid stage costs on the real corpus, old and new interleaved in one run.

Runs every question of the project's own sets (bench/questions_real.jsonl, bench/twins_real.jsonl) through
``chunk_search`` under each configuration below, interleaved question by question so machine load falls on
all of them alike, and prints p50/p95 per configuration, the query-embedding p95 measured in the same run,
and the mean time of each stage (``SearchOutcome.timings_ms``). Every configuration reuses the same
pre-computed query vector except ``fitted`` (embedding included), so ``fitted`` p95 against ``embed`` p95
is the budget the issue sets (hybrid p95 <= embedding p95 + 30 ms).

Run on the ingested real corpus:
  ACEH_RAG_DATA_DIR=/path/to/db .venv/bin/python bench/search_stages.py [--repeat 2]
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import time
from collections import defaultdict

from _setup import ROOT, django_setup, percentile

SETS = ("bench/questions_real.jsonl", "bench/twins_real.jsonl")


def configurations(fitted) -> dict[str, object]:
    legs = dataclasses.replace(fitted, query_understanding=False, within_document_rerank=False, document_weight=0.0,
                               feedback_weight=0.0, rrf_k=60, hnsw_ef_search=100)
    return {
        "legs (before)": legs,
        "+ef_search": dataclasses.replace(legs, hnsw_ef_search=fitted.hnsw_ef_search),
        "+stages": dataclasses.replace(legs, hnsw_ef_search=fitted.hnsw_ef_search, query_understanding=True),
        "fitted (no embed)": fitted,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--json", help="Also write the figures here.")
    args = parser.parse_args()
    django_setup()
    from django.conf import settings
    from django.test.utils import override_settings

    from retrieval.embedders import get_embedder
    from retrieval.evaluation import EVALUATOR
    from retrieval.search import chunk_search

    questions = [json.loads(line)["query"] for name in SETS for line in (ROOT / name).read_text().splitlines() if line]
    embedder = get_embedder()
    embedder.embed_queries(["pemanasan"])
    vectors = dict(zip(questions, embedder.embed_queries(questions)))
    fitted = settings.ACEH_RAG.retrieval
    configs = configurations(fitted)
    times: dict[str, list[float]] = defaultdict(list)
    stages: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for _ in range(args.repeat):
        for question in questions:
            started = time.perf_counter()
            embedder.embed_queries([question])
            times["embed"].append((time.perf_counter() - started) * 1000)
            for name, config in [*configs.items(), ("fitted", fitted)]:
                embed = None if name == "fitted" else (lambda text: vectors[text])
                with override_settings(ACEH_RAG=dataclasses.replace(settings.ACEH_RAG, retrieval=config)):
                    started = time.perf_counter()
                    outcome = chunk_search(question, mode="hybrid", top_k=10, principal=EVALUATOR, embed_query=embed)
                    times[name].append((time.perf_counter() - started) * 1000)
                for stage, ms in outcome.timings_ms.items():
                    stages[name][stage].append(ms)
    rows = {name: {"p50_ms": round(percentile(values, 0.5), 1), "p95_ms": round(percentile(values, 0.95), 1),
                   "stages_mean_ms": {stage: round(sum(v) / len(v), 1) for stage, v in stages[name].items()}}
            for name, values in times.items()}
    print(f"{len(questions)} questions x {args.repeat}, interleaved")
    for name, row in rows.items():
        print(f"{name:<20} p50 {row['p50_ms']:7.1f} ms  p95 {row['p95_ms']:7.1f} ms  {row['stages_mean_ms']}")
    print(f"budget: fitted p95 {rows['fitted']['p95_ms']} ms vs embed p95 {rows['embed']['p95_ms']} + 30 ms")
    if args.json:
        (ROOT / args.json).write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
