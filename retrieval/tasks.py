"""Celery tasks for ingestion: take an id, call the service, idempotent."""
from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

from retrieval.embedders import EmbeddingError
from retrieval.ingestion_jobs import ingestion_run

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
    return outcome


__all__ = ["ingest_file", "EmbeddingError"]
