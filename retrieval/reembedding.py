"""Re-embed stored chunks with the configured embedder (``manage.py reembed``).

The text embedded is the ingestion's contextual text (document title, the
chunk's legal reference or section path, its table header, then the chunk);
the stored chunk text is unchanged. Each document's chunks are embedded
outside any transaction and written in one short transaction, so searches
never see a document half re-embedded. With ``only_stale`` only documents
holding vectors from another model are done: what the readiness check
(``embedding_model``) asks for.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from django.db import transaction

from retrieval.embedders import Embedder, get_embedder
from retrieval.ingestion import embedding_text
from retrieval.models import Chunk, Document


@dataclass
class ReembedProgress:
    documents_total: int
    documents_done: int = 0
    chunks_done: int = 0
    started: float = 0.0

    @property
    def chunks_per_second(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.chunks_done / elapsed if elapsed > 0 else 0.0


def documents_to_reembed(*, only_stale: bool, collection_ids: list[str], model_name: str):
    documents = Document.objects.filter(status=Document.Status.INDEXED)
    if collection_ids:
        documents = documents.filter(collection_id__in=collection_ids)
    if only_stale:
        stale = Chunk.objects.exclude(embedding_model=model_name).values("document_id")
        documents = documents.filter(id__in=stale)
    return documents.only("id", "title").order_by("title", "id")


def chunks_reembed(
    *, only_stale: bool = False, collection_ids: list[str] | None = None, batch_size: int = 32,
    embedder: Embedder | None = None, on_document: Callable[[ReembedProgress], None] | None = None,
) -> ReembedProgress:
    embedder = embedder or get_embedder()
    documents = list(documents_to_reembed(only_stale=only_stale, collection_ids=collection_ids or [], model_name=embedder.model_name))
    progress = ReembedProgress(documents_total=len(documents), started=time.monotonic())
    for document in documents:
        chunks = list(
            Chunk.objects.filter(document_id=document.id)
            .only("id", "text", "section_path", "legal_reference", "table_header").order_by("ordinal")
        )
        texts = [embedding_text(document.title, chunk) for chunk in chunks]
        vectors = [row for start in range(0, len(texts), batch_size) for row in embedder.embed_passages(texts[start:start + batch_size])]
        for chunk, vector in zip(chunks, vectors):
            chunk.embedding = vector
            chunk.embedding_model = embedder.model_name
        with transaction.atomic():
            Chunk.objects.bulk_update(chunks, ["embedding", "embedding_model"], batch_size=500)
        progress.documents_done += 1
        progress.chunks_done += len(chunks)
        if on_document:
            on_document(progress)
    return progress
