"""Reads over documents and chunks; every one applies access and scope."""
from __future__ import annotations

import uuid

from django.db.models import QuerySet

from acehrag.auth import Principal
from retrieval.access import Scope, visible_documents_q
from retrieval.models import Chunk, Document, Ingestion


def indexed_embedding_models() -> list[str]:
    """Distinct embedding models behind the visible index."""
    return list(
        Chunk.objects.filter(document__status=Document.Status.INDEXED)
        .values_list("embedding_model", flat=True)
        .distinct()
        .order_by("embedding_model")
    )


def document_list_visible(*, principal: Principal, scope: Scope | None = None) -> QuerySet[Document]:
    return Document.objects.filter(visible_documents_q(principal, scope)).defer("text").order_by("title", "id")


def document_get_visible(*, principal: Principal, document_id: uuid.UUID) -> Document | None:
    return document_list_visible(principal=principal).filter(id=document_id).first()


def ingestion_get(*, ingestion_id: uuid.UUID) -> Ingestion | None:
    return Ingestion.objects.filter(id=ingestion_id).first()
