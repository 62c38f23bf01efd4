"""Celery tasks for ingestion: take an id, call the service, idempotent."""
from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_init, worker_ready
from django.conf import settings
from django.db import OperationalError

from retrieval.embedders import EmbeddingError
from retrieval.ingestion_jobs import ingestion_orphans_reclaim, ingestion_run
from retrieval.ingestion_lease import lease_connections_kept

logger = logging.getLogger(__name__)


class TransientIngestionError(RuntimeError):
    """A failure worth retrying (database or embedding server hiccup)."""


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(OperationalError, TransientIngestionError),
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=3,
)
def ingest_file(self, ingestion_id: str) -> str:
    """Ingest the file of one Ingestion row; re-running a finished one is a no-op."""
    outcome = ingestion_run(ingestion_id=ingestion_id, final_attempt=self.request.retries >= self.max_retries)
    if outcome == "retry":
        raise TransientIngestionError(f"ingestion {ingestion_id}: transient failure")
    if outcome in ("ingested", "replaced") and settings.ACEH_RAG.retrieval.collection_indexes:
        collection_indexes_refresh.delay()
    return outcome


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=2, max_retries=3)
def collection_indexes_refresh() -> list[str]:
    """Build the vector index of a collection an ingestion made large enough (a check of the documents'
    passage counts when none is); the collections built."""
    from retrieval.collection_indexes import collection_indexes_sync

    return list(collection_indexes_sync().built)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=2, max_retries=3)
def ingestions_reclaim() -> int:
    """Queue again the ingestions a dead worker left running; how many."""
    reclaimed = ingestion_orphans_reclaim()
    for ingestion_id in reclaimed:
        ingest_file.delay(ingestion_id)
    return len(reclaimed)


@worker_init.connect
def keep_lease_connections(sender, **kwargs) -> None:
    """A worker runs one ingestion after another: its lease connection stays open between them."""
    lease_connections_kept()


@worker_ready.connect
def reclaim_when_a_worker_starts(sender, **kwargs) -> None:
    """A worker that starts may replace one that died: look for its orphans.

    Only a message is sent here: the worker's main process keeps no database
    connection that forked pool processes would inherit.
    """
    ingestions_reclaim.delay()


__all__ = ["ingest_file", "ingestions_reclaim", "EmbeddingError"]
