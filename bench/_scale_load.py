"""Bulk loading for ``bench/scale.py``: COPY in committed batches, index builds, the resume marker.

The corpus grows in place (10k, then up to 100k, then up to 1M): document
``i`` always gets the same text and vectors, and each batch of documents
commits with its chunks, so a run that stops keeps every finished batch and the
next run continues from there. The search indexes are dropped before a load
and built once after it (building an HNSW graph once is far faster than
inserting into it row by row).
"""
from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from _scale_corpus import ChunkTexts, document_vectors

COLLECTIONS = tuple(f"SCALE-{n}" for n in range(10))
CHUNKS_PER_DOCUMENT = 100
DOCUMENTS_PER_BATCH = 100
RESTRICTED_UNIT = "Rahasia"
HNSW_INDEX = "chunk_embedding_hnsw"
GIN_INDEX = "chunk_search_vector_gin"


def is_restricted(index: int) -> bool:
    """1% of documents belong to one unit: the benchmark's selective filter."""
    return index % 100 == 0


@dataclass
class ScaleState:
    """What a data directory holds, kept in ``scale-state.json`` beside the database."""

    path: Path
    indexed_size: int = 0          # the loaded size the search indexes were built for
    load_s: float = 0.0            # load time of the size being loaded, summed over resumed runs
    build: dict | None = None      # seconds of each index build step for indexed_size
    results: dict | None = None    # size (as text) -> measured row

    @classmethod
    def read(cls, path: Path) -> "ScaleState":
        data = json.loads(path.read_text()) if path.exists() else {}
        return cls(path=path, indexed_size=data.get("indexed_size", 0), load_s=data.get("load_s", 0.0),
                   build=data.get("build", {}), results=data.get("results", {}))

    def write(self) -> None:
        data = {"indexed_size": self.indexed_size, "load_s": self.load_s, "build": self.build, "results": self.results}
        self.path.write_text(json.dumps(data, indent=1))


def loaded_chunks() -> int:
    from retrieval.models import Document

    return Document.objects.filter(collection_id__in=COLLECTIONS).count() * CHUNKS_PER_DOCUMENT


def drop_search_indexes() -> None:
    from django.db import connection

    from retrieval.services import collection_index_plan

    with connection.cursor() as cursor:
        for name in [HNSW_INDEX, GIN_INDEX, *collection_index_plan().existing]:
            cursor.execute(f"DROP INDEX IF EXISTS {name}")


def load_to(size: int, *, texts: ChunkTexts, centres: np.ndarray, model: str, state: ScaleState) -> None:
    """Add documents until ``size`` chunks are loaded, one committed batch of documents at a time."""
    from retrieval.models import Collection

    for collection in COLLECTIONS:
        Collection.objects.get_or_create(id=collection)
    loaded = loaded_chunks()
    if loaded >= size:
        return
    drop_search_indexes()
    state.indexed_size = 0
    state.write()
    first, last = loaded // CHUNKS_PER_DOCUMENT, size // CHUNKS_PER_DOCUMENT
    for start in range(first, last, DOCUMENTS_PER_BATCH):
        started = time.perf_counter()
        _load_batch(range(start, min(last, start + DOCUMENTS_PER_BATCH)), texts, centres, model)
        state.load_s += time.perf_counter() - started
        state.write()
        done = min(last, start + DOCUMENTS_PER_BATCH) * CHUNKS_PER_DOCUMENT
        if done % 100_000 == 0 or done == size:
            print(f"  loaded {done:,} chunks ({state.load_s:.0f}s of loading for this size)", flush=True)


def _load_batch(indexes: range, texts: ChunkTexts, centres: np.ndarray, model: str) -> None:
    from django.db import connection, transaction
    from pgvector.psycopg.vector import register_vector_info
    from psycopg.types import TypeInfo

    from retrieval.ingestion import full_text_sql
    from retrieval.models import Document

    with transaction.atomic():
        documents = [
            Document(
                collection_id=COLLECTIONS[index % len(COLLECTIONS)], title=f"Dokumen Skala {index}",
                source_key=f"scale:{index}", content_hash="x" * 64, status="indexed", chunk_count=CHUNKS_PER_DOCUMENT,
                owning_org_unit=RESTRICTED_UNIT if is_restricted(index) else None,
                # An identity card, so that named-instrument questions resolve.
                instrument_type="Qanun Aceh", number=str(index), year=2000 + index % 25,
            )
            for index in indexes
        ]
        Document.objects.bulk_create(documents, batch_size=1000)
        with connection.cursor() as cursor:
            cursor.execute(
                "CREATE TEMP TABLE IF NOT EXISTS scale_chunk "
                "(id uuid, document_id uuid, ordinal integer, text text, embedding vector(384)) ON COMMIT DELETE ROWS"
            )
        # Binary COPY with pgvector's dumper, on a cursor of its own so the
        # connection's other readers keep their usual types.
        raw = connection.connection.cursor()
        register_vector_info(raw, TypeInfo.fetch(connection.connection, "vector"))
        with raw.copy("COPY scale_chunk (id, document_id, ordinal, text, embedding) FROM STDIN WITH (FORMAT BINARY)") as copy:
            copy.set_types(["uuid", "uuid", "int4", "text", "vector"])
            for index, document in zip(indexes, documents):
                vectors = document_vectors(index, CHUNKS_PER_DOCUMENT, centres)
                for ordinal, text in enumerate(texts.document(index, CHUNKS_PER_DOCUMENT)):
                    copy.write_row((uuid.uuid4(), document.id, ordinal, text, vectors[ordinal]))
        with connection.cursor() as cursor:
            # Rows go in whole, tsvector included, as ingestion writes them: an
            # UPDATE afterwards would leave every row's old version behind.
            cursor.execute(
                "INSERT INTO retrieval_chunk (id, document_id, ordinal, kind, text, section_path, embedding, "
                "embedding_model, search_vector) SELECT id, document_id, ordinal, 'body', text, "
                f"ARRAY['Pasal ' || (ordinal + 1)], embedding, %s, {full_text_sql('text')} FROM scale_chunk",
                [model],
            )


def build_indexes(*, maintenance_work_mem: str, parallel_workers: int, m: int = 16, ef_construction: int = 64) -> dict:
    """Build the HNSW and GIN indexes as the migration defines them, then VACUUM ANALYZE; seconds of each step."""
    from django.db import connection

    from retrieval.services import collection_indexes_sync

    timings = {}
    with connection.cursor() as cursor:
        cursor.execute(f"SET maintenance_work_mem = '{maintenance_work_mem}'")
        cursor.execute(f"SET max_parallel_maintenance_workers = {int(parallel_workers)}")
        started = time.perf_counter()
        cursor.execute(
            f"CREATE INDEX IF NOT EXISTS {HNSW_INDEX} ON retrieval_chunk USING hnsw (embedding vector_cosine_ops) "
            f"WITH (m = {int(m)}, ef_construction = {int(ef_construction)})"
        )
        timings["hnsw_build_s"] = time.perf_counter() - started
        started = time.perf_counter()
        cursor.execute(f"CREATE INDEX IF NOT EXISTS {GIN_INDEX} ON retrieval_chunk "
                       "USING gin (collection_id, search_vector) WITH (fastupdate = off)")
        timings["gin_build_s"] = time.perf_counter() - started
        # The large collections' own vector indexes, as the ingest command builds them after a load.
        cursor.execute("ANALYZE retrieval_document")
        started = time.perf_counter()
        built = collection_indexes_sync(maintenance_work_mem=maintenance_work_mem, concurrently=False).built
        timings["collection_hnsw_build_s"] = time.perf_counter() - started
        timings["collection_indexes"] = len(built)
        # Measure a settled table: the visibility map set and fresh statistics,
        # as autovacuum would leave it soon after an ingestion.
        started = time.perf_counter()
        cursor.execute("VACUUM ANALYZE retrieval_chunk")
        cursor.execute("ANALYZE retrieval_document")
        timings["vacuum_analyze_s"] = time.perf_counter() - started
        cursor.execute("RESET maintenance_work_mem")
        cursor.execute("RESET max_parallel_maintenance_workers")
    return {name: round(value, 1) for name, value in timings.items()}


def scan_settings(cursor, ef: int | None, *, iterative: bool = False) -> None:
    """Inside a transaction: no statement timeout, and an exact scan (``ef`` None) or HNSW at ``ef_search``."""
    cursor.execute("SET LOCAL statement_timeout = 0")
    if ef is None:
        cursor.execute("SET LOCAL enable_indexscan = off")
        return
    cursor.execute("SELECT set_config('hnsw.ef_search', %s, true)", [str(ef)])
    if iterative:
        cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
