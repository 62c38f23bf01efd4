"""Reads over documents and chunks; every one applies access and scope."""
from __future__ import annotations

from retrieval.models import Chunk, Document


def indexed_embedding_models() -> list[str]:
    """Distinct embedding models behind the visible index."""
    return list(
        Chunk.objects.filter(document__status=Document.Status.INDEXED)
        .values_list("embedding_model", flat=True)
        .distinct()
        .order_by("embedding_model")
    )
