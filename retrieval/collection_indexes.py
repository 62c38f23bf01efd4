"""A vector index of its own for each large collection, so a search scoped to it walks its passages only.

The corpus's HNSW graph serves a scoped search by filtering: to nominate the
``CENTERED_POOL`` passages of a collection holding 10% of a million, the
iterative scan read 1,736 index tuples (19,827 buffers, 47 ms) where an
unscoped search reads about 200 (docs/scaling.md). A partial index on the
chunk's ``collection_id`` (kept by migration 0017's triggers) holds that
collection's passages alone, and PostgreSQL picks it for any search whose
statement says ``c.collection_id = '<id>'`` (search/semantic.py).

Which collections get one:
- at least ``collection_index_min_chunks`` passages: a smaller scope is searched
  exactly (``semantic.EXACT_SCAN_MAX_CHUNKS``);
- at most ``collection_index_max_share`` of all passages: a larger one rejects
  few candidates of the corpus's graph, and its index would double most of it.

The indexes take memory beside the corpus's own (their sum is at most the
share of the passages they cover), so they are built only with
``ACEH_RAG_RETRIEVAL__COLLECTION_INDEXES=true``: at 1M chunks on this 24 GB
machine, ten of them (1.95 GB, as much as the corpus's graph) halved one
collection's hybrid p95 (95.6 → 46.3 ms) and slowed unscoped searches (47.7 →
67.9 ms), the working set no longer held by the 6 GB buffer cache.
``collection_indexes_sync`` builds what is missing and drops what no longer
qualifies (all of them when the setting is off); ``manage.py
collection_indexes``, the ingest command and a worker after an ingestion call it.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.db.models import Sum

from retrieval.models import Chunk, Document

INDEX_PREFIX = "chunk_hnsw_collection_"
CORPUS_INDEX = "chunk_embedding_hnsw"


@dataclass(frozen=True)
class CollectionIndexPlan:
    wanted: dict[str, str]          # index name -> collection id
    existing: dict[str, str]        # index name -> collection id (from the index's comment)
    chunks: dict[str, int]          # collection id -> indexed passages
    total: int

    @property
    def to_build(self) -> list[str]:
        return sorted(name for name in self.wanted if name not in self.existing)

    @property
    def to_drop(self) -> list[str]:
        return sorted(name for name in self.existing if name not in self.wanted)


@dataclass(frozen=True)
class CollectionIndexSync:
    built: tuple[str, ...]
    dropped: tuple[str, ...]
    seconds: float
    busy: bool = False      # another process was syncing: its plan covers this one's


# One sync at a time across processes (workers after their ingestions, the staff commands).
SYNC_LOCK = 0x636F6C6C   # "coll"


def index_name(collection_id: str) -> str:
    """A stable name for any collection id (ids are opaque strings; names are at most 63 bytes)."""
    return INDEX_PREFIX + hashlib.sha256(collection_id.encode()).hexdigest()[:16]


def _existing() -> dict[str, str]:
    """The collection indexes there are; one that a failed concurrent build left invalid counts as absent."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT i.relname, coalesce(obj_description(i.oid, 'pg_class'), '') FROM pg_index x "
            "JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = 'retrieval_chunk'::regclass "
            "AND i.relname LIKE %s AND x.indisvalid",
            [INDEX_PREFIX + "%"],
        )
        return {name: comment for name, comment in cursor.fetchall()}


def collection_index_plan() -> CollectionIndexPlan:
    """Which collections qualify now, from the documents' passage counts, against the indexes there are."""
    config = settings.ACEH_RAG.retrieval
    counts = dict(Document.objects.filter(status=Document.Status.INDEXED).order_by().values_list("collection_id")
                  .annotate(chunks=Sum("chunk_count")).values_list("collection_id", "chunks"))
    total = sum(counts.values())
    wanted = {index_name(collection): collection for collection, chunks in counts.items()
              if config.collection_indexes and chunks >= config.collection_index_min_chunks
              and chunks <= config.collection_index_max_share * total}
    return CollectionIndexPlan(wanted=wanted, existing=_existing(), chunks=counts, total=total)


def _corpus_index_options() -> str:
    """The corpus index's graph parameters, so a collection's graph finds neighbours as well."""
    index = next(index for index in Chunk._meta.indexes if index.name == CORPUS_INDEX)
    return f"m = {int(index.m)}, ef_construction = {int(index.ef_construction)}"


def collection_indexes_sync(*, maintenance_work_mem: str | None = None, concurrently: bool = True) -> CollectionIndexSync:
    """Build the indexes the plan wants and drop the ones it no longer does.

    Outside a transaction the builds are ``CONCURRENTLY``: searches and ingestion go on meanwhile (each build
    then reads the table twice). ``concurrently=False`` is for a load nobody searches yet. While another
    process syncs, this returns at once with ``busy``.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [SYNC_LOCK])
        if not cursor.fetchone()[0]:
            return CollectionIndexSync(built=(), dropped=(), seconds=0.0, busy=True)
        try:
            return _sync(cursor, maintenance_work_mem, concurrently and not connection.in_atomic_block)
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [SYNC_LOCK])


def _sync(cursor, maintenance_work_mem: str | None, online: bool) -> CollectionIndexSync:
    plan = collection_index_plan()
    started = time.monotonic()
    concurrently = "CONCURRENTLY " if online else ""
    if maintenance_work_mem:
        cursor.execute("SELECT set_config('maintenance_work_mem', %s, false)", [maintenance_work_mem])
    try:
        for name in plan.to_drop:
            cursor.execute(f"DROP INDEX {concurrently}IF EXISTS {name}")
        for name in plan.to_build:
            # A build that failed CONCURRENTLY leaves an invalid index of this name behind: drop it first.
            cursor.execute(f"DROP INDEX {concurrently}IF EXISTS {name}")
            cursor.execute(
                f"CREATE INDEX {concurrently}{name} ON retrieval_chunk USING hnsw (embedding vector_cosine_ops) "
                f"WITH ({_corpus_index_options()}) WHERE collection_id = %s",
                [plan.wanted[name]],
            )
            cursor.execute(f"COMMENT ON INDEX {name} IS %s", [plan.wanted[name]])
    finally:
        if maintenance_work_mem:
            cursor.execute("RESET maintenance_work_mem")
    return CollectionIndexSync(built=tuple(plan.wanted[name] for name in plan.to_build),
                               dropped=tuple(plan.existing[name] for name in plan.to_drop),
                               seconds=time.monotonic() - started)
