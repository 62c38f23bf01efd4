"""What each hybrid stage costs on the real corpus, old and new interleaved in one run.

Runs every question of the project's own sets (bench/questions_real.jsonl, bench/twins_real.jsonl) through
``chunk_search`` under each configuration below, interleaved question by question so machine load falls on
all of them alike, and prints p50/p95 per configuration, the query-embedding p95 measured in the same run,
and the mean time of each stage (``SearchOutcome.timings_ms``). Every configuration reuses the same
pre-computed query vector except ``fitted`` (embedding included), so ``fitted`` p95 against ``embed`` p95
is the budget the issue sets (hybrid p95 <= embedding p95 + 30 ms).

Each ``--side NAME=CHECKOUT[:DATA_DIR]`` runs the code of another checkout (a worktree of the commit
before a change) in its own process, on its own database if given, and every question goes through each
side in turn (the order alternating), so old and new code are timed in the same run under the same load;
the hits of each side are compared, and a question whose top 10 differ is counted. Without ``--side``
this checkout runs alone on ACEH_RAG_DATA_DIR.

Run on the ingested real corpus:
  ACEH_RAG_DATA_DIR=/path/to/db .venv/bin/python bench/search_stages.py [--repeat 2]
  .venv/bin/python bench/search_stages.py --side before=../wt-before:/db/copy --side after=.:/db/migrated
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from _setup import ROOT, django_setup, percentile

SETS = ("bench/questions_real.jsonl", "bench/twins_real.jsonl")
REPLY = "@@ "      # marks a side's answer among whatever else it prints
CONFIGURATIONS = ("legs (before)", "+ef_search", "+stages", "fitted (no embed)", "fitted")


def configurations(fitted) -> dict[str, object]:
    legs = dataclasses.replace(fitted, query_understanding=False, within_document_rerank=False, document_weight=0.0,
                               feedback_weight=0.0, rrf_k=60, hnsw_ef_search=100)
    return dict(zip(CONFIGURATIONS, (
        legs,
        dataclasses.replace(legs, hnsw_ef_search=fitted.hnsw_ef_search),
        dataclasses.replace(legs, hnsw_ef_search=fitted.hnsw_ef_search, query_understanding=True),
        fitted,
        fitted,       # with its own query embedding
    )))


def serve(checkout: Path) -> None:
    """Answer one request a line on stdin: time the embedding of a question, or one search of it."""
    django_setup(root=checkout)
    from django.conf import settings
    from django.test.utils import override_settings

    from retrieval.embedders import get_embedder
    from retrieval.evaluation import EVALUATOR
    from retrieval.search import chunk_search, hybrid

    embedder = get_embedder()
    embedder.embed_queries(["pemanasan"])
    fitted = settings.ACEH_RAG.retrieval
    configs = configurations(fitted)
    vectors: dict[str, list[float]] = {}
    for line in sys.stdin:
        request = json.loads(line)
        question, name = request["question"], request.get("config")
        if name is None:
            started = time.perf_counter()
            vectors[question] = embedder.embed_queries([question])[0]
            reply = {"ms": (time.perf_counter() - started) * 1000}
            # The configurations that reuse a vector need the text the semantic leg embeds (the formal wording of
            # a colloquial question, where the checkout has it), embedded here, outside their timings.
            if text_of := getattr(hybrid, "semantic_text", None):
                text = text_of(question, formal=getattr(fitted, "semantic_formal", False))
                vectors.setdefault(text, embedder.embed_queries([text])[0])
        else:
            embed = None if name == "fitted" else (lambda text: vectors[text])
            with override_settings(ACEH_RAG=dataclasses.replace(settings.ACEH_RAG, retrieval=configs[name])):
                started = time.perf_counter()
                outcome = chunk_search(question, mode="hybrid", top_k=10, principal=EVALUATOR, embed_query=embed)
                ms = (time.perf_counter() - started) * 1000
            reply = {"ms": ms, "stages": outcome.timings_ms, "hits": [str(hit.chunk.id) for hit in outcome.hits]}
        print(REPLY + json.dumps(reply), flush=True)


class Side:
    """One checkout's code in its own process."""

    def __init__(self, name: str, spec: str):
        checkout, _, data_dir = spec.partition(":")
        env = dict(os.environ, ACEH_RAG_LOG_LEVEL="WARNING")
        if data_dir:
            env["ACEH_RAG_DATA_DIR"] = str(Path(data_dir).resolve())
        self.name = name
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve", str(Path(checkout).resolve())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=Path(checkout).resolve())

    def ask(self, question: str, config: str | None = None) -> dict:
        self.process.stdin.write(json.dumps({"question": question, "config": config}) + "\n")
        self.process.stdin.flush()
        for line in self.process.stdout:
            if line.startswith(REPLY):
                return json.loads(line[len(REPLY):])
        raise RuntimeError(f"side {self.name} stopped")

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--side", action="append", default=[], metavar="NAME=CHECKOUT[:DATA_DIR]")
    parser.add_argument("--questions", type=int, help="Only the first N questions (a quick look).")
    parser.add_argument("--json", help="Also write the figures here.")
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    sides = [Side(*spec.split("=", 1)) for spec in args.side or [f"this={ROOT}"]]
    questions = [json.loads(line)["query"] for name in SETS for line in (ROOT / name).read_text().splitlines() if line]
    questions = questions[: args.questions]
    names = CONFIGURATIONS
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    stages: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    differing: dict[str, set[str]] = defaultdict(set)
    for repeat in range(args.repeat):
        for index, question in enumerate(questions):
            order = sides if (index + repeat) % 2 == 0 else sides[::-1]
            for side in order:
                times[(side.name, "embed")].append(side.ask(question)["ms"])
            for name in names:
                hits = {}
                for side in order:
                    reply = side.ask(question, name)
                    times[(side.name, name)].append(reply["ms"])
                    hits[side.name] = reply["hits"]
                    for stage, ms in reply["stages"].items():
                        stages[(side.name, name)][stage].append(ms)
                if len({tuple(found) for found in hits.values()}) > 1:
                    differing[name].add(question)
    for side in sides:
        side.close()
    rows = {f"{side} / {name}": {"p50_ms": round(percentile(values, 0.5), 1), "p95_ms": round(percentile(values, 0.95), 1),
                                 "stages_mean_ms": {stage: round(sum(v) / len(v), 1)
                                                    for stage, v in stages[(side, name)].items()}}
            for (side, name), values in sorted(times.items())}
    print(f"{len(questions)} questions x {args.repeat}, interleaved; sides: {', '.join(s.name for s in sides)}")
    for name, row in rows.items():
        print(f"{name:<30} p50 {row['p50_ms']:7.1f} ms  p95 {row['p95_ms']:7.1f} ms  {row['stages_mean_ms']}")
    for side in sides:
        print(f"budget ({side.name}): fitted p95 {rows[f'{side.name} / fitted']['p95_ms']} ms vs embed p95 "
              f"{rows[f'{side.name} / embed']['p95_ms']} + 30 ms")
    if len(sides) > 1:
        print("questions whose top 10 differ between sides:", {name: len(differing[name]) for name in names})
    if args.json:
        (ROOT / args.json).write_text(json.dumps({"rows": rows, "differing": {k: sorted(v) for k, v in differing.items()}},
                                                 indent=2) + "\n")


if __name__ == "__main__":
    main()
