"""Long-term memory: extraction after a turn, recall during one, erasure."""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass

from django.db import transaction

from django.utils import timezone

from kernel.errors import NotFound
from kernel.principal import Principal
from memory.learning import memory_extract_from_turn, memory_record, restricted_source_documents  # noqa: F401
from memory.models import Memory
from retrieval.facade.search import get_embedder
from retrieval.facade import document_ids_visible

logger = logging.getLogger(__name__)
RECALL_LIMIT = 4


class MemoryNotFound(NotFound):
    code = "memory_not_found"


@dataclass(frozen=True)
class RecalledMemory:
    id: int
    memory_type: str
    slot: str
    text: str
    similarity: float


def memory_learn_after_commit(*, owner: str, question: str, source_message_id, used_confidential_sources: bool) -> None:
    """Queue learning from a stored turn once its transaction commits (inline without a broker).

    An unreachable broker loses only the memory, never the answer: it is logged and dropped.
    """
    from kombu.exceptions import OperationalError as BrokerUnavailable

    from memory.tasks import memory_learn

    def queue() -> None:
        try:
            # The subject and the question never reach the broker's or the worker's logs.
            memory_learn.apply_async(args=(owner, question, str(source_message_id), used_confidential_sources),
                                     argsrepr=f"(message {source_message_id})", kwargsrepr="{}")
        except BrokerUnavailable as exc:
            logger.warning("task broker unavailable, memory of message %s not learnt: %s", source_message_id, exc)

    transaction.on_commit(queue)


def memories_visible(memories: list[Memory], principal: Principal) -> list[Memory]:
    """Those whose restricted sources all pass the retrieval access predicate for ``principal``.

    A source since deleted or re-restricted is no longer visible, so its memory stays hidden.
    """
    wanted = {doc for memory in memories for doc in memory.source_document_ids or ()}
    if not wanted:
        return memories
    visible = document_ids_visible(principal=principal, document_ids=wanted)
    return [m for m in memories if set(m.source_document_ids or ()) <= visible]


def memory_recall(*, owner: str, question: str, principal: Principal, limit: int = RECALL_LIMIT,
                  query_vector=None) -> list[RecalledMemory]:
    """The owner's most relevant active memories: similarity plus importance.

    ``query_vector``: a callable giving ``question`` embedded by the current embedder (an answer
    embeds its question once for recall and search); None embeds it here.

    A memory drawn from confidential sources is recalled only for a verified
    identity (one that could see confidential documents); one drawn from a
    restricted source only for a principal who may see that source (unit and
    level by the retrieval access predicate). Preferences rank
    first: they change how every answer is written. Whether a recalled fact
    is restated in the answer is the synthesiser's decision.
    """
    memories = Memory.objects.filter(owner=owner, status=Memory.Status.ACTIVE).exclude(embedding=None)
    if not principal.verified:
        memories = memories.filter(confidential=False)
    memories = memories_visible(
        list(memories.only("id", "memory_type", "slot", "text", "importance", "embedding", "source_document_ids")),
        principal)
    if not memories:
        return []
    query = query_vector() if query_vector is not None else get_embedder().embed_queries([question])[0]
    scored = []
    for memory in memories:
        vector = list(memory.embedding)
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        similarity = float(sum(a * b for a, b in zip(query, vector)) / norm)
        # Preferences always come first: they shape every answer.
        boost = 1.0 if memory.memory_type == "preference" else 0.0
        scored.append((boost + similarity + 0.3 * memory.importance, similarity, memory))
    scored.sort(key=lambda item: (-item[0], item[2].id))
    chosen = [RecalledMemory(m.id, m.memory_type, m.slot, m.text, round(sim, 4)) for _, sim, m in scored[:limit]]
    if chosen:
        Memory.objects.filter(id__in=[m.id for m in chosen]).update(last_accessed_at=timezone.now())
    return chosen


def memory_erase(*, memory: Memory) -> None:
    """Erase text and vector at once; the row stays as a ``deleted`` tombstone."""
    Memory.objects.filter(pk=memory.pk).update(
        text="", embedding=None, status=Memory.Status.DELETED, updated_at=timezone.now())


@transaction.atomic
def memory_forget_owner(*, owner: str) -> int:
    """Forget-me: erase every memory of the owner; conversations are untouched."""
    return Memory.objects.filter(owner=owner).exclude(status=Memory.Status.DELETED).update(
        text="", embedding=None, status=Memory.Status.DELETED, updated_at=timezone.now())



