"""halfvec(384) against vector(384) for the HNSW index, on the corpus bench/scale.py loaded (issue #36).

Builds a second HNSW index over ``embedding::halfvec(384)`` beside the
existing one and compares, on the same sample of clustered query vectors:
build time, index size, recall@10 against exact (full-precision) search and
the p95 of the index scan, at the ``ef_search`` values given. The schema is
not touched (an expression index; dropped afterwards unless ``--keep``): the
figures decide whether a halfvec column is worth its migration.

Run: nice -n 10 .venv/bin/python bench/scale_halfvec.py [--queries 40] [--ef 40,100] [--both] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from _scale_corpus import clustered_vectors, topic_centres
from _scale_load import HNSW_INDEX, scan_settings
from _setup import django_setup, percentile

HALFVEC_INDEX = "chunk_embedding_halfvec_hnsw"
VECTOR_TWIN = "chunk_embedding_vector_twin"
_NEAREST = {
    "vector": "SELECT id FROM retrieval_chunk ORDER BY embedding <=> %s::vector LIMIT 10",
    "halfvec": "SELECT id FROM retrieval_chunk ORDER BY embedding::halfvec(384) <=> %s::halfvec(384) LIMIT 10",
}


def nearest(kind: str, literal: str, ef: int | None) -> tuple[list, float]:
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        scan_settings(cursor, ef)
        started = time.perf_counter()
        cursor.execute(_NEAREST[kind], [literal])
        ids = [row[0] for row in cursor.fetchall()]
    return ids, (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--ef", default="40,100")
    parser.add_argument("--maintenance-work-mem", default="3GB")
    parser.add_argument("--hnsw-m", type=int, default=16, help="m of the halfvec index (give the existing index's m)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--keep", action="store_true", help="keep the halfvec index afterwards")
    parser.add_argument("--both", action="store_true", help="also time a second vector(384) build under the same conditions")
    args = parser.parse_args()
    django_setup(data_dir="var/bench-scale")
    from django.db import connection

    from retrieval.search.semantic import vector_literal

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM retrieval_chunk")
        rows = cursor.fetchone()[0]
        cursor.execute(f"SET maintenance_work_mem = '{args.maintenance_work_mem}'")
        cursor.execute("SET max_parallel_maintenance_workers = 1")
        cursor.execute(f"DROP INDEX IF EXISTS {HALFVEC_INDEX}")
        started = time.perf_counter()
        cursor.execute(f"CREATE INDEX {HALFVEC_INDEX} ON retrieval_chunk USING hnsw "
                       f"((embedding::halfvec(384)) halfvec_cosine_ops) WITH (m = {int(args.hnsw_m)}, ef_construction = 64)")
        build_s = time.perf_counter() - started
        if args.both:  # the same build over full-precision vectors, timed under the same conditions
            started = time.perf_counter()
            cursor.execute(f"CREATE INDEX {VECTOR_TWIN} ON retrieval_chunk USING hnsw "
                           f"(embedding vector_cosine_ops) WITH (m = {int(args.hnsw_m)}, ef_construction = 64)")
            vector_build_s = time.perf_counter() - started
            cursor.execute(f"DROP INDEX {VECTOR_TWIN}")
        cursor.execute("ANALYZE retrieval_chunk")
        cursor.execute("SELECT pg_relation_size(%s), pg_relation_size(%s)", [HNSW_INDEX, HALFVEC_INDEX])
        vector_bytes, halfvec_bytes = cursor.fetchone()
    result = {"rows": rows, "hnsw_m": args.hnsw_m, "halfvec_build_s": round(build_s, 1),
              "vector_build_s": round(vector_build_s, 1) if args.both else None, "vector_index_bytes": vector_bytes,
              "halfvec_index_bytes": halfvec_bytes, "ef": {}}
    literals = [vector_literal(v) for v in clustered_vectors(args.queries, topic_centres(np.random.default_rng(42)),
                                                             np.random.default_rng(7))]
    truths = [set(nearest("vector", literal, None)[0]) for literal in literals]
    kinds = ("vector", "halfvec")
    for ef in (int(value) for value in args.ef.split(",")):
        for _ in range(2):  # warm both indexes first, then time them interleaved, query by query
            recalls, timings = {kind: [] for kind in kinds}, {kind: [] for kind in kinds}
            for literal, truth in zip(literals, truths):
                for kind in kinds:
                    ids, ms = nearest(kind, literal, ef)
                    recalls[kind].append(len(truth & set(ids)) / 10)
                    timings[kind].append(ms)
        for kind in kinds:
            result["ef"].setdefault(str(ef), {})[kind] = {"recall_at_10": round(float(np.mean(recalls[kind])), 3),
                                                          "p50_ms": round(percentile(timings[kind], 0.5), 2),
                                                          "p95_ms": round(percentile(timings[kind], 0.95), 2)}
    if not args.keep:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX IF EXISTS {HALFVEC_INDEX}")
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
