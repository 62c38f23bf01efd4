"""Long-term memory: extraction after a turn, recall during one, erasure."""
from __future__ import annotations

import math
from dataclasses import dataclass

from django.db import transaction

from django.utils import timezone

from conversations.selectors import message_source_citations
from kernel.errors import NotFound
from kernel.principal import Principal
from memory.extraction import MemoryCandidate, extract_memories
from memory.models import Memory
from retrieval.embedders import Embedder, get_embedder
from retrieval.facade import document_ids_visible

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


def memory_record(*, owner: str, candidate: MemoryCandidate, confidential: bool, source_message_id=None,
                  source_document_ids: list[str] | None = None, embedder: Embedder | None = None) -> Memory:
    """Store one extracted memory: reinforce a duplicate, supersede a contradicted slot."""
    restricted = list(dict.fromkeys(source_document_ids or ()))
    active = Memory.objects.select_for_update().filter(owner=owner, status=Memory.Status.ACTIVE)
    duplicate = active.filter(text=candidate.text).first()
    if duplicate is not None:
        # A repeat learnt beside another restricted source is bound by both.
        Memory.objects.filter(pk=duplicate.pk).update(
            importance=min(1.0, duplicate.importance + 0.05), updated_at=timezone.now(),
            confidential=duplicate.confidential or confidential,
            source_document_ids=list(dict.fromkeys([*(duplicate.source_document_ids or []), *restricted])),
        )
        return duplicate
    vector = (embedder or get_embedder()).embed_passages([candidate.text])[0]
    memory = Memory.objects.create(
        owner=owner, memory_type=candidate.memory_type, slot=candidate.slot, text=candidate.text,
        importance=candidate.importance, confidential=confidential, embedding=vector.tolist(),
        embedding_model=(embedder or get_embedder()).model_name, source_message_id=source_message_id,
        source_document_ids=restricted,
    )
    if candidate.slot:
        active.filter(slot=candidate.slot).exclude(pk=memory.pk).update(
            status=Memory.Status.SUPERSEDED, superseded_by=memory, updated_at=timezone.now())
    return memory


@transaction.atomic
def memory_extract_from_turn(*, owner: str, question: str, used_confidential_sources: bool, source_message_id=None) -> list[Memory]:
    """Learn from the user's words; the caller has stored the answer (``source_message_id``) with its sources."""
    candidates = extract_memories(question)
    restricted = restricted_source_documents(message_source_citations(message_id=source_message_id)) if candidates else []
    return [
        memory_record(owner=owner, candidate=candidate, confidential=used_confidential_sources,
                      source_message_id=source_message_id, source_document_ids=restricted)
        for candidate in candidates
    ]


def restricted_source_documents(citations: list[dict]) -> list[str]:
    """Documents among an answer's sources that carry an access restriction (the citation's restriction fields)."""
    return list(dict.fromkeys(
        str(c["document_id"]) for c in citations
        if c.get("document_id") and (c.get("confidential") or c.get("owning_org_unit")
                                     or c.get("min_position_level") is not None)))


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



