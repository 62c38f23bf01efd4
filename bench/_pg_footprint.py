"""What the benchmark database costs (bytes on disk, PostgreSQL's resident memory), and its buffer cache warmed."""
from __future__ import annotations

import time
from pathlib import Path

from _scale_load import GIN_INDEX, HNSW_INDEX


def pg_memory_bytes() -> int:
    """Proportional set size of the server's processes: shared buffers count once, not once per backend."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    postmaster = int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[1]) != postmaster and int(entry.name) != postmaster:
                continue
            for line in (entry / "smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
        except (OSError, ValueError):
            continue  # a process that ended while we read
    return total


def storage_bytes() -> dict:
    from django.db import connection

    from retrieval.collection_indexes import INDEX_PREFIX as COLLECTION_INDEX_PREFIX

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_database_size(current_database()), pg_indexes_size('retrieval_chunk'), "
            "pg_table_size('retrieval_chunk'), pg_relation_size(%s), pg_relation_size(%s)",
            [HNSW_INDEX, GIN_INDEX],
        )
        db, indexes, table, hnsw, gin = cursor.fetchone()
        cursor.execute("SELECT coalesce(sum(pg_relation_size(indexrelid)), 0) FROM pg_index x JOIN pg_class i "
                       "ON i.oid = x.indexrelid WHERE x.indrelid = 'retrieval_chunk'::regclass AND i.relname LIKE %s",
                       [COLLECTION_INDEX_PREFIX + "%"])
        collections = int(cursor.fetchone()[0])
    return {"db_bytes": db, "index_bytes": indexes, "chunk_table_bytes": table, "hnsw_bytes": hnsw, "gin_bytes": gin,
            "collection_hnsw_bytes": collections}


def prewarm() -> float:
    """Read the chunk table, then its indexes, into PostgreSQL's buffer cache (pg_prewarm, ``buffer`` mode), as a
    serving database holds its corpus (and autoprewarm restores after a restart). Not the OS page cache: this VM
    reclaims it within a minute, and cold pages made single searches take 150-240 ms at 1M. The indexes go
    last, the ones every search reads (full-text, the corpus's vectors) after the collections' own, so when the
    cache is smaller than the corpus it is the heap that is left out. Seconds it took."""
    from django.db import connection

    from _scale_load import HNSW_INDEX
    from retrieval.services import collection_index_plan

    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
        for relation in ("retrieval_chunk", "retrieval_document", *sorted(collection_index_plan().existing),
                         "chunk_search_vector_gin", HNSW_INDEX):
            cursor.execute("SELECT pg_prewarm(%s::regclass, 'buffer')", [relation])
    return time.perf_counter() - started
