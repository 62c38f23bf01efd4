"""The work of one queued ingestion, as ``retrieval.tasks.ingest_file`` runs it.

Below ``services`` (which queues the task) and ``tasks`` (which calls this), so
the two never import each other in a circle.
"""
from __future__ import annotations

import logging
import time

import psycopg
from django.db import OperationalError, connection, transaction
from django.utils import timezone

from retrieval.ingestion import IngestOptions, IngestOutcome, IngestProgress, document_ingest_path, document_reindex
from retrieval.ingestion_lease import ingestion_lease, ingestion_lease_free
from retrieval.models import Document, Ingestion
from retrieval.sources import source_file_keep
from retrieval.stored_uploads import stored_local, upload_forget

logger = logging.getLogger(__name__)


def ingestion_run(*, ingestion_id: str, final_attempt: bool = True) -> str:
    """Run one ingestion; returns its outcome, "retry" for a transient failure, or "busy" when a live
    worker already runs it (a second delivery of its message).

    The lease is held from the claim to the last write, so an ingestion left ``running`` whose lease
    is free belongs to a dead worker (``ingestion_requeue_orphans``).
    """
    with ingestion_lease(ingestion_id) as held:
        if not held:
            logger.info("ingestion %s is running on another worker", ingestion_id)
            return "busy"
        return _ingestion_run_leased(ingestion_id, final_attempt)


def _ingestion_run_leased(ingestion_id: str, final_attempt: bool) -> str:
    from retrieval.embedders import EmbeddingError

    with transaction.atomic():
        ingestion = Ingestion.objects.select_for_update().filter(pk=ingestion_id).first()
        if ingestion is None:
            logger.warning("ingestion %s no longer exists", ingestion_id)
            return "missing"
        if ingestion.status in (Ingestion.Status.SUCCEEDED, Ingestion.Status.FAILED):
            return ingestion.outcome  # a redelivered message: already done
        ingestion.status = Ingestion.Status.RUNNING
        ingestion.attempts += 1
        ingestion.save(update_fields=["status", "attempts", "updated_at"])

    options = IngestOptions.of_ingestion(ingestion)
    try:
        outcome = _ingestion_work(ingestion, options)
    except EmbeddingError as exc:
        if not final_attempt:
            Ingestion.objects.filter(pk=ingestion.pk).update(status=Ingestion.Status.QUEUED, error=str(exc))
            return "retry"
        raise
    succeeded = outcome.status != "failed"
    Ingestion.objects.filter(pk=ingestion.pk).update(
        status=Ingestion.Status.SUCCEEDED if succeeded else Ingestion.Status.FAILED,
        outcome=outcome.status,
        error=outcome.reason,
        document_id=outcome.document_id,
        chunk_count=outcome.chunk_count,
        updated_at=timezone.now(),
    )
    if ingestion.kind == Ingestion.Kind.FILE:
        if succeeded:
            source_file_keep(document_id=outcome.document_id, path=stored_local(ingestion.stored_path))
            upload_forget(ingestion.stored_path)
    return outcome.status


ORPHAN_MAX_ATTEMPTS = 3   # a file whose worker died this many times is failed, not run again


def ingestion_orphans_reclaim() -> list[str]:
    """Put back in the queue the ingestions a dead worker left ``running``; their ids, to publish.

    Runs when a worker starts (``retrieval.tasks``): the dead worker's message stays
    unacknowledged in the broker until the visibility timeout, so without this its
    file would wait an hour. An ingestion whose lease a live worker holds is left
    alone; one that killed its worker ``ORPHAN_MAX_ATTEMPTS`` times fails, so one
    file that crashes workers never blocks the others.
    """
    reclaimed = []
    running = Ingestion.objects.filter(status=Ingestion.Status.RUNNING).order_by("created_at")
    for ingestion_id in running.values_list("id", flat=True):
        with transaction.atomic():
            # The lease taken here is held to the commit: no worker claims the row in between.
            ingestion = running.select_for_update(skip_locked=True).filter(pk=ingestion_id).first()
            if ingestion is None or not ingestion_lease_free(ingestion_id):
                continue
            if ingestion.attempts >= ORPHAN_MAX_ATTEMPTS:
                ingestion.status, ingestion.outcome = Ingestion.Status.FAILED, "failed"
                ingestion.error = f"its worker died {ingestion.attempts} times while ingesting it"
            else:
                ingestion.status = Ingestion.Status.QUEUED
                reclaimed.append(str(ingestion_id))
            ingestion.save(update_fields=["status", "outcome", "error", "updated_at"])
    if reclaimed:
        logger.warning("requeued %d ingestion(s) left running by a worker that died", len(reclaimed))
    return reclaimed


def _ingestion_work(ingestion: Ingestion, options: IngestOptions):
    if ingestion.kind == Ingestion.Kind.REINDEX:
        document = Document.objects.filter(pk=ingestion.document_id).first()
        if document is None:
            return IngestOutcome(status="failed", source_name=ingestion.source_name, source_key=ingestion.source_key,
                                 reason="document was deleted")
        outcome = document_reindex(document=document)
        if outcome.status != "failed":
            chunk_statistics_refresh()
        return outcome
    def record(progress: IngestProgress) -> None:  # a scan's OCR, page by page, on the ingestion's row
        done, total = progress.ocr_file_pages
        if total:
            Ingestion.objects.filter(pk=ingestion.pk).update(ocr_pages_done=done, ocr_pages_total=total)

    return document_ingest_path(path=stored_local(ingestion.stored_path), source_key=ingestion.source_key, options=options,
                                progress=IngestProgress(on_change=record))


ANALYZE_LOCK_TIMEOUT_MS = 5000   # how long the statistics refresh waits for a table an index build holds
STATISTICS_SKIPPED = "chunk statistics not refreshed: the table was busy (an index build); autovacuum will refresh them"


def chunk_statistics_refresh() -> bool:
    """ANALYZE the chunks after a batch of ingestion; False when the table was busy and it was skipped.

    The lexical tiers read each term's share of passages from pg_stats; until
    autovacuum gets round to a freshly loaded corpus those shares describe the
    old one, and the 5% rule would nominate on stale numbers. A collection's
    index built concurrently by a worker (collection_indexes.py) holds the lock
    ANALYZE needs and waits for ANALYZE's transaction: PostgreSQL ends one of
    the two as a deadlock. The refresh is the one that gives way (the ingestion
    is stored; autovacuum refreshes the statistics later), with a warning.
    """
    from retrieval.search.lexical import forget_lexeme_statistics

    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT set_config('lock_timeout', %s, true)", [f"{ANALYZE_LOCK_TIMEOUT_MS}ms"])
            cursor.execute("ANALYZE retrieval_chunk")
    except OperationalError as exc:
        if not isinstance(exc.__cause__, (psycopg.errors.DeadlockDetected, psycopg.errors.LockNotAvailable)):
            raise
        logger.warning("chunk statistics not refreshed: the table is busy (%s); autovacuum will refresh them",
                       str(exc).splitlines()[0])
        return False
    forget_lexeme_statistics()
    return True


BULK_SHARE = 0.25         # a load that adds this share of the table's chunks rebuilds the vector index


def vector_index_rebuild_if_bulk(new_chunks: int) -> float | None:
    """Rebuild the HNSW index after a bulk load; the seconds it took, or None when the load was small.

    An index grown by many small inserts (one document at a time) finds fewer of the true nearest
    passages than one built in bulk: on the real corpus, 0.73 of the exact top 10 at ``ef_search`` 100
    against 0.84 for the same parameters built at once (docs/retrieval.md). ``REINDEX CONCURRENTLY``
    keeps searches and ingestion running while it builds.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM retrieval_chunk")
        total = cursor.fetchone()[0]
        if not total or new_chunks < BULK_SHARE * total:
            return None
        started = time.monotonic()
        # CONCURRENTLY cannot run inside a transaction (a caller's atomic block): rebuild in place there.
        concurrently = "" if connection.in_atomic_block else "CONCURRENTLY "
        cursor.execute(f"REINDEX INDEX {concurrently}chunk_embedding_hnsw")
    return time.monotonic() - started