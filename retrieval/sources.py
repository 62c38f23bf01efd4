"""The original file behind a document, kept so an administrator can download it.

Files are stored by content hash under ``sources/`` (``kernel/files.py``: the data directory or a
bucket): the same bytes ingested twice are kept once, and no server path reaches the admin or the API.
"""
from __future__ import annotations

from pathlib import Path

from kernel.files import files_exists, files_save
from retrieval.models import Document


def _source_name(document: Document) -> str:
    return f"sources/{document.content_hash}{Path(document.source_name).suffix.lower()}"


def source_file_name(document: Document) -> str | None:
    """The stored name of ``document``'s kept original, or None when it was ingested before files were kept."""
    if not document.content_hash:
        return None
    name = _source_name(document)
    return name if files_exists(name) else None


def source_file_keep(*, document_id, path: Path) -> None:
    """Store the ingested file next to the others (a no-op when those bytes are kept already)."""
    document = Document.objects.filter(pk=document_id).only("content_hash", "source_name").first()
    if document is None or not document.content_hash or not path.is_file():
        return
    name = _source_name(document)
    if not files_exists(name):
        files_save(name, path)
