"""Upload checks: the bytes must look like the type the file name claims."""
from __future__ import annotations

from pathlib import Path

from retrieval.formats import accepted_extensions, handler_for

from django.conf import settings

from retrieval.ingestion import IngestOptions
from retrieval.services import ingestion_request_upload

TEXT_EXTENSIONS = {".txt", ".md", ".html", ".htm"}


def content_matches_extension(data: bytes, filename: str) -> bool:
    extension = Path(filename).suffix.lower()
    registered = handler_for(filename)
    if registered:
        return registered.content_matches(data)
    if extension == ".pdf":
        return data.lstrip()[:5] == b"%PDF-"
    if extension == ".docx":
        return data[:4] == b"PK\x03\x04"
    if extension in TEXT_EXTENSIONS:
        return b"\x00" not in data[:8192]
    return False


class UploadRejected(Exception):
    """An upload refused before anything is stored (``status``: 413 too large, 415 wrong type)."""

    def __init__(self, status: int, detail: str):
        super().__init__(detail)
        self.status = status
        self.detail = detail


def upload_accept(*, file, options: IngestOptions, requested_by: str):
    """Check an uploaded file, store it and queue its ingestion (one rule for every upload route).

    ``file`` is a Django ``UploadedFile``; ``options`` the ``IngestOptions`` it is ingested with.
    Returns the queued ``Ingestion``; raises ``UploadRejected`` with nothing stored.
    """
    limit = settings.ACEH_RAG.api.max_upload_bytes
    if file.size is not None and file.size > limit:
        raise UploadRejected(413, f"File too large: {file.size} bytes (limit {limit})")
    name = Path(file.name or "upload").name
    extension = Path(name).suffix.lower()
    if extension not in accepted_extensions():
        raise UploadRejected(415, f"Unsupported file type {extension or '(none)'}; expected one of {', '.join(sorted(accepted_extensions()))}")
    data = file.read(limit + 1)
    if len(data) > limit:
        raise UploadRejected(413, f"File too large (limit {limit} bytes)")
    if not content_matches_extension(data, name):
        raise UploadRejected(415, f"File content does not match its {extension} extension")
    return ingestion_request_upload(data=data, filename=name, options=options, requested_by=requested_by)
