"""A follow-up about a decree that later decrees extended ("trus diperpanjang gak?" after the disaster-status decree).

A decree that sets a status for a period ("selama 14 hari sejak 28 November sampai 11 Desember 2025") is extended
by decrees of its own ("Penetapan Perpanjangan Status …"; legal relations of kind ``extends``). When the
conversation is on the first, the extending decrees join the documents it carries, nearest first; and when the
question asks about the extension itself, their passages lead: the first decree's "dapat diperpanjang" says that
it may be extended, the extending decree's "Perpanjangan … sejak 12 Desember sampai 25 Desember 2025" that it was.
"""
from __future__ import annotations

import re
import uuid

from answering.types import Passage
from retrieval.facade.documents import extending_documents

# "diperpanjang gak?", "ada perpanjangan?", "was it extended?"
ASKS_EXTENSION = re.compile(r"\b(?:di)?perpanjang(?:an|kan|nya)?\b|\bextend(?:ed|s|ion)?\b", re.I)


def with_extensions(carried: list[uuid.UUID], *, principal, scope, allowed: set | None) -> list[uuid.UUID]:
    """``carried`` followed by the visible decrees extending them (inside the request's documents, if any)."""
    more = extending_documents(principal=principal, document_ids=carried, scope=scope)
    return carried + [d for d in more if d not in carried and (allowed is None or d in allowed)]


def extensions_first(question: str, passages: list[Passage], carried: list[uuid.UUID], asked: int) -> list[Passage]:
    """For a question about the extension, the passages of the extending decrees (``carried[asked:]``, nearest
    first) before the others."""
    extending = carried[asked:]
    if not extending or not ASKS_EXTENSION.search(question):
        return passages
    order = {document_id: index for index, document_id in enumerate(extending)}
    leading = sorted((p for p in passages if p.document_id in order), key=lambda p: order[p.document_id])
    return leading + [p for p in passages if p.document_id not in order]
