"""Write operations on documents, chunks and ingestions."""
from __future__ import annotations

import json
import logging
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from retrieval.ingestion import (
    IngestOptions,
    IngestProgress,
    discover_files,
    document_ingest_bytes,
    document_ingest_path,
    document_reindex,
    source_key_for,
)
from retrieval.collection_indexes import collection_index_plan, collection_indexes_sync
from retrieval.errors import IngestionQueueUnavailable
from retrieval.ingestion_jobs import (STATISTICS_SKIPPED, chunk_statistics_refresh, ingestion_run,
                                      vector_index_rebuild_if_bulk)
from retrieval.models import Chunk, Collection, Document, Ingestion
from retrieval.stored_uploads import upload_forget, upload_store
from retrieval.tasks import ingest_file

logger = logging.getLogger(__name__)

SAMPLE_CORPUS_DIR = Path(__file__).resolve().parent / "sample_corpus"


def ingestion_create(
    *, source_name: str, source_key: str, stored_path: Path | str, options: IngestOptions, requested_by: str = ""
) -> Ingestion:
    Collection.objects.get_or_create(id=options.collection_id)
    return Ingestion.objects.create(
        source_name=source_name[:500],
        source_key=source_key,
        stored_path=str(stored_path),
        collection_id=options.collection_id,
        title=options.title,
        confidential=options.confidential,
        owning_org_unit=options.owning_org_unit or None,
        min_position_level=options.min_position_level,
        workspace_id=options.workspace_id,
        requested_by=requested_by[:256],
    )


def _upload_scope(options: IngestOptions) -> str:
    """Uploads into a workspace are their own sources: the same file name elsewhere is another document."""
    return f"workspace/{options.workspace_id}/" if options.workspace_id else ""


def ingestion_request_upload(*, data: bytes, filename: str, options: IngestOptions, requested_by: str) -> Ingestion:
    """Keep uploaded bytes, record who asked, and queue the ingestion (admin upload, API)."""
    name = Path(filename).name
    stored = upload_store(data=data, filename=name)
    with transaction.atomic():
        ingestion = ingestion_create(
            source_name=name, stored_path=stored,
            source_key=source_key_for(options.collection_id, f"upload/{_upload_scope(options)}{name}"),
            options=options, requested_by=requested_by,
        )
        ingestion_enqueue(ingestion=ingestion)
    return ingestion


def ingestion_request_reindex(*, document: Document, requested_by: str) -> Ingestion:
    """Record and queue a re-index (re-chunk, re-embed) of a stored document."""
    with transaction.atomic():
        ingestion = Ingestion.objects.create(
            kind=Ingestion.Kind.REINDEX, source_name=document.source_name or document.title[:500],
            source_key=document.source_key, collection_id=document.collection_id, title=document.title,
            confidential=document.confidential, owning_org_unit=document.owning_org_unit,
            min_position_level=document.min_position_level, document=document, requested_by=requested_by[:256],
        )
        ingestion_enqueue(ingestion=ingestion)
    return ingestion


def ingestion_enqueue(*, ingestion: Ingestion) -> None:
    """Queue the ingestion once the surrounding transaction commits.

    A broker that cannot take the task withdraws the ingestion (row and uploaded
    bytes) and raises ``IngestionQueueUnavailable``: an upload is queued or gone,
    never stored and forgotten.
    """
    transaction.on_commit(lambda: _ingestion_publish(ingestion))


def _ingestion_publish(ingestion: Ingestion) -> None:
    from kombu.exceptions import OperationalError as BrokerUnavailable

    try:
        ingest_file.delay(str(ingestion.id))
    except BrokerUnavailable as exc:
        logger.warning("task broker unavailable, ingestion %s withdrawn: %s", ingestion.id, exc)
        Ingestion.objects.filter(pk=ingestion.pk).delete()
        upload_forget(ingestion.stored_path)  # only our own copy of an upload, never a command's source file
        raise IngestionQueueUnavailable("The ingestion queue is unavailable; the upload was not kept") from exc


def chunk_set_enabled(*, chunk_ids: list, enabled: bool, by: str) -> int:
    """Enable or disable chunks, recording who disabled them and when; returns how many changed."""
    changed = Chunk.objects.filter(pk__in=chunk_ids).exclude(enabled=enabled)
    if enabled:
        return changed.update(enabled=True, disabled_by="", disabled_at=None)
    return changed.update(enabled=False, disabled_by=by[:256], disabled_at=timezone.now())


def document_delete(*, document: Document) -> None:
    """Remove a document, all its versions' chunks go with it (cascade)."""
    Document.objects.filter(pk=document.pk).delete()


def sample_corpus_manifest() -> list[dict]:
    manifest = SAMPLE_CORPUS_DIR / "manifest.json"
    return json.loads(manifest.read_text())["documents"] if manifest.exists() else []


def sample_corpus_ingest(progress: IngestProgress | None = None) -> list:
    """Ingest the bundled sample corpus with the access fields its manifest gives."""
    outcomes = []
    for entry in sample_corpus_manifest():
        options = IngestOptions.build(collection_id=entry.get("collection") or "JDIH", title=entry.get("title"),
                                      confidential=bool(entry.get("confidential")),
                                      owning_org_unit=entry.get("owning_org_unit"),
                                      min_position_level=entry.get("min_position_level"))
        path = SAMPLE_CORPUS_DIR / entry["file"]
        outcomes.append(
            document_ingest_path(
                path=path, source_key=source_key_for(options.collection_id, f"sample/{entry['file']}"),
                options=options, progress=progress,
            )
        )
    return outcomes


def sample_corpus_ingest_if_empty() -> str | None:
    """Ingest the sample corpus into a database that has no document yet."""
    if Document.objects.exists() or not sample_corpus_manifest():
        return None
    outcomes = sample_corpus_ingest()
    chunk_statistics_refresh()
    ok = sum(1 for o in outcomes if o.status != "failed")
    failed = [f"{o.source_name}: {o.reason}" for o in outcomes if o.status == "failed"]
    lines = [f"Sample corpus: {ok} document(s) ingested, {sum(o.chunk_count for o in outcomes)} chunks."]
    lines += [f"  failed {line}" for line in failed]
    return "\n".join(lines)


__all__ = [
    "IngestOptions",
    "IngestProgress",
    "chunk_set_enabled",
    "collection_index_plan",
    "collection_indexes_sync",
    "chunk_statistics_refresh",
    "STATISTICS_SKIPPED",
    "discover_files",
    "document_delete",
    "document_ingest_bytes",
    "document_reindex",
    "ingestion_create",
    "IngestionQueueUnavailable",
    "ingestion_enqueue",
    "vector_index_rebuild_if_bulk",
    "ingestion_request_reindex",
    "ingestion_request_upload",
    "ingestion_run",
    "sample_corpus_ingest",
    "sample_corpus_ingest_if_empty",
    "upload_store",
]
