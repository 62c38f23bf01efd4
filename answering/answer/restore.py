"""A follow-up's earlier cited passages, restored from what the answer stored (seed: "Document follow-ups").

The stored ``metadata.synthesis.source_passages`` packet names each cited
chunk (document_id, chunk_id) and how much of it was shown (a positive
integer ``visible_chars``). A carried follow-up re-reads those chunks' current
bodies within that prefix, with the caller's access and scope rechecked; a
packet with missing or invalid bounds is left to fresh retrieval. Shared and
workspace chats read no packets (only caller-owned, unshared chats do).
"""
from __future__ import annotations

import uuid

from answering.answer.contracts import MAX_PASSAGES, Prepared
from answering.answer.steps import StepRecorder
from answering.followup import FollowupDecision
from answering.types import Passage, passage_from_hit
from conversations.facade import exchange_source_passages
from retrieval import facade
from retrieval.facade import PassagePacket


def passage_packet(entry: dict) -> PassagePacket | None:
    """One stored entry, or None when its identity or bound is missing or invalid."""
    chars = entry.get("visible_chars")
    if isinstance(chars, bool) or not isinstance(chars, int) or chars <= 0:
        return None
    try:
        return PassagePacket(document_id=uuid.UUID(str(entry["document_id"])), chunk_id=uuid.UUID(str(entry["chunk_id"])),
                             visible_chars=chars)
    except (KeyError, ValueError, TypeError):
        return None


def restored_passages(prepared: Prepared, steps: StepRecorder, followup: FollowupDecision) -> list[Passage]:
    shared = prepared.conversation_owner != prepared.request.owner or (prepared.sources and prepared.sources.workspace_id)
    if prepared.is_new_conversation or shared or not followup.exchanges:
        return []
    entries = exchange_source_passages(conversation_id=prepared.conversation_id,
                                       exchange_indices=list(followup.exchanges))
    packets: dict[uuid.UUID, PassagePacket] = {}
    invalid = 0
    for entry in entries:
        packet = passage_packet(entry)
        if packet is None:
            invalid += 1
        elif packet.chunk_id not in packets and len(packets) < MAX_PASSAGES:
            packets[packet.chunk_id] = packet
    if not packets and not invalid:
        return []
    with steps.tool("restore_passages", {"exchanges": list(followup.exchanges)}) as call:
        hits = facade.chunks_restored_visible(principal=prepared.request.principal, scope=prepared.request.scope,
                                              packets=list(packets.values()))
        call.summary = {"restored": len(hits), "invalid": invalid}
    return [passage_from_hit(hit, "followup") for hit in hits]
