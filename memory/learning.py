"""Learning memories from a stored turn: what the user said, bound by the restricted sources beside it.

Below both ``services`` and ``tasks`` (the task calls it; services re-export it).
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from conversations.facade import message_source_citations
from memory.extraction import MemoryCandidate, extract_memories
from memory.models import Memory
from retrieval.facade.search import Embedder, get_embedder


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
