"""What the benchmark database costs: bytes on disk and PostgreSQL's resident memory."""
from __future__ import annotations

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
