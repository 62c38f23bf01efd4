"""Reads for the public chat, always as the anonymous visitor."""
from __future__ import annotations

import uuid
from dataclasses import dataclass

from acehrag.auth import ANONYMOUS
from retrieval.access import Scope, visible_documents_q
from retrieval.citations import citation_for
from retrieval.models import Chunk, Document


@dataclass(frozen=True)
class PublicSource:
    citation: dict
    text: str


def public_source_get(*, chunk_id: uuid.UUID) -> PublicSource | None:
    """A cited passage an anonymous visitor may read; restricted and unknown alike give None."""
    visible = Document.objects.filter(visible_documents_q(ANONYMOUS, Scope()))
    chunk = Chunk.objects.select_related("document").filter(id=chunk_id, document__in=visible).first()
    return PublicSource(citation=citation_for(chunk, chunk.document), text=chunk.text) if chunk else None
