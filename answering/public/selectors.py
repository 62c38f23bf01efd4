"""Reads for the public chat, always as the anonymous visitor."""
from __future__ import annotations

import uuid
from dataclasses import dataclass

from kernel.principal import ANONYMOUS
from retrieval.access import chunks_visible
from retrieval.citations import citation_for


@dataclass(frozen=True)
class PublicSource:
    citation: dict
    text: str


def public_source_get(*, chunk_id: uuid.UUID) -> PublicSource | None:
    """A cited passage an anonymous visitor may read; restricted and unknown alike give None."""
    chunk = chunks_visible(ANONYMOUS).select_related("document").filter(id=chunk_id).first()
    return PublicSource(citation=citation_for(chunk, chunk.document), text=chunk.text) if chunk else None
