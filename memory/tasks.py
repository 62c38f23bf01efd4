"""Celery tasks for memory: learn from a stored turn, after its transaction commits."""
from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

from memory.learning import memory_extract_from_turn
from retrieval.facade.search import EmbeddingError

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=2, max_retries=3, ignore_result=True)
def memory_learn(owner: str, question: str, source_message_id: str, used_confidential_sources: bool) -> int:
    """Learn the memories of one stored turn; how many were recorded.

    A retry never duplicates a memory: one already recorded is reinforced (``memory_record``).
    """
    try:
        return len(memory_extract_from_turn(owner=owner, question=question, source_message_id=source_message_id,
                                            used_confidential_sources=used_confidential_sources))
    except EmbeddingError as exc:
        # The answer is stored and correct; only the memory is lost. Say so in the log.
        logger.warning("memory extraction skipped for message %s: %s", source_message_id, exc)
        return 0
