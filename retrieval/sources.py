"""The original file behind a document, kept so an administrator can download it.

Files are stored by content hash under ``<data dir>/sources/``: the same bytes
ingested twice are kept once, and no server path reaches the admin or the API.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from django.conf import settings

from retrieval.models import Document


def source_dir() -> Path:
    return settings.ACEH_RAG.data_dir / "sources"


def source_file_path(document: Document) -> Path | None:
    """The kept original of ``document``, or None when it was ingested before files were kept."""
    if not document.content_hash:
        return None
    path = source_dir() / f"{document.content_hash}{Path(document.source_name).suffix.lower()}"
    return path if path.is_file() else None


def source_file_keep(*, document_id, path: Path) -> None:
    """Copy the ingested file next to the others (a no-op when those bytes are kept already)."""
    document = Document.objects.filter(pk=document_id).only("content_hash", "source_name").first()
    if document is None or not document.content_hash or not path.is_file():
        return
    target = source_dir() / f"{document.content_hash}{Path(document.source_name).suffix.lower()}"
    if target.exists():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    shutil.copyfile(path, partial)
    partial.replace(target)
