"""Small factories that build data through the real ingestion service."""
from __future__ import annotations

import uuid

from retrieval.ingestion import IngestOptions, document_ingest_bytes
from retrieval.models import Document


def make_document(
    *,
    chunks: list[str] | None = None,
    text: str | None = None,
    title: str | None = None,
    collection: str = "JDIH",
    confidential: bool = False,
    org_unit: str | None = None,
    min_level: int | None = None,
    filename: str | None = None,
    workspace_id: uuid.UUID | None = None,
) -> Document:
    """Ingest a small text document; ``chunks`` become separate Pasal."""
    if text is None:
        body = "\n\n".join(f"Pasal {i}\n{content}" for i, content in enumerate(chunks or ["Isi."], start=1))
        text = f"{title or 'Dokumen Uji'}\n\n{body}\n"
    outcome = document_ingest_bytes(
        data=text.encode("utf-8"),
        filename=filename or f"doc-{uuid.uuid4().hex[:8]}.txt",
        source_key=f"test:{uuid.uuid4()}",
        options=IngestOptions(
            collection_id=collection, title=title, confidential=confidential,
            owning_org_unit=org_unit, min_position_level=min_level, workspace_id=workspace_id,
        ),
    )
    assert outcome.status == "ingested", outcome
    return Document.objects.get(pk=outcome.document_id)
