"""Reads for the public chat, always as the anonymous visitor."""
from __future__ import annotations

import uuid
from dataclasses import dataclass

from kernel.principal import ANONYMOUS
from retrieval.facade import chunk_visible_get


@dataclass(frozen=True)
class PublicSource:
    citation: dict
    text: str


def public_source_get(*, chunk_id: uuid.UUID) -> PublicSource | None:
    """A cited passage an anonymous visitor may read; restricted and unknown alike give None."""
    hit = chunk_visible_get(principal=ANONYMOUS, chunk_id=chunk_id)
    return PublicSource(citation=hit.citation, text=hit.text) if hit else None
