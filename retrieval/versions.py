"""Versioned document storage: the one rule for a source's versions, whatever the file type.

A source (``source_key``) has at most one visible (indexed) version. New bytes
become the next version and supersede the visible one, under the source's
advisory lock so two writers of one source take turns; the same bytes again
change nothing but access, title and collection. Text documents
(``retrieval.ingestion``) and catalogued workbooks (``livedata``) both store
through here.
"""
from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from typing import Callable

from django.db import connection, transaction
from django.utils import timezone

from retrieval.ingest_values import IngestOptions
from retrieval.models import Collection, Document


@dataclass(frozen=True)
class StoredVersion:
    """What a store did: ``unchanged`` (these bytes are already the visible version), or a new version."""

    document_id: uuid.UUID
    unchanged: bool
    replaced: bool            # a previous version was superseded
    changed: bool = False     # unchanged bytes whose access, title or collection were updated
    chunk_count: int = 0


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _source_lock(source_key: str) -> None:
    """Serialise writers of one source for the rest of the transaction."""
    key = int.from_bytes(hashlib.blake2b(source_key.encode(), digest_size=8).digest(), "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def access_fields(options: IngestOptions) -> dict:
    return {
        "confidential": options.confidential,
        "owning_org_unit": options.owning_org_unit or None,
        "min_position_level": options.min_position_level,
        "workspace_id": options.workspace_id,
    }


def document_version_reuse(*, source_key: str, digest: str, options: IngestOptions) -> StoredVersion | None:
    """When the visible version of ``source_key`` has these bytes, apply changed access, title and
    collection in place and say so; None when the bytes are new (embed or stage them, then store)."""
    current = Document.objects.filter(source_key=source_key, status=Document.Status.INDEXED).first()
    if current is None or current.content_hash != digest:
        return None
    wanted = {**access_fields(options), "collection_id": options.collection_id, "title": options.title or current.title}
    changed = {name: value for name, value in wanted.items() if getattr(current, name) != value}
    if changed:
        Document.objects.filter(pk=current.pk).update(**changed, updated_at=timezone.now())
    return StoredVersion(document_id=current.id, unchanged=True, replaced=False, changed=bool(changed),
                         chunk_count=current.chunk_count)


def document_version_store(*, source_key: str, digest: str, filename: str, title: str, options: IngestOptions,
                           fields: dict, fill: Callable[[Document], None] | None = None) -> StoredVersion:
    """Make these bytes the visible version of ``source_key`` in one short transaction.

    Under the source lock: when another writer stored the same bytes meanwhile, nothing changes
    (``unchanged``); otherwise the visible version is superseded and the next one created with
    ``fields`` (format, text, identity, ``id`` when the caller needs it beforehand). ``fill`` runs
    inside the transaction to store what belongs to the new version (chunks, a workbook's sheets),
    so the version and its parts become visible together.
    """
    with transaction.atomic():
        _source_lock(source_key)
        Collection.objects.get_or_create(id=options.collection_id)
        previous = Document.objects.select_for_update().filter(
            source_key=source_key, status=Document.Status.INDEXED).first()
        if previous is not None and previous.content_hash == digest:
            return StoredVersion(document_id=previous.id, unchanged=True, replaced=False,
                                 chunk_count=previous.chunk_count)
        if previous is not None:
            previous.status = Document.Status.SUPERSEDED
            previous.save(update_fields=["status", "updated_at"])
        document = Document.objects.create(
            collection_id=options.collection_id, title=title, source_key=source_key, source_name=filename[:500],
            version=(previous.version + 1) if previous else 1, status=Document.Status.INDEXED, content_hash=digest,
            **access_fields(options), **fields,
        )
        if fill is not None:
            fill(document)
    return StoredVersion(document_id=document.id, unchanged=False, replaced=previous is not None,
                         chunk_count=document.chunk_count)
