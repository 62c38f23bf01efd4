"""Upload acceptance, one rule for ``POST /documents``, the workspace upload and the admin form:
the size limit, an accepted extension, and bytes that look like the type the name claims."""
from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import HttpRequest

from kernel.principal import request_principal

from retrieval.errors import UploadTooLarge, UploadTypeUnsupported
from retrieval.formats import accepted_extensions, handler_for
from retrieval.ingestion import IngestOptions
from retrieval.parsing import content_matches_extension
from retrieval.services import ingestion_request_upload


def content_matches(data: bytes, filename: str) -> bool:
    """A type another app registered checks its own bytes; the text pipeline's types, the parser's rule."""
    registered = handler_for(filename)
    return registered.content_matches(data) if registered else content_matches_extension(data, filename)


def document_upload_accept(*, file, options: IngestOptions, requested_by: str):
    """Check an uploaded file, store it and queue its ingestion.

    ``file`` is a Django ``UploadedFile``; ``options`` the ``IngestOptions`` it is ingested with.
    Returns the queued ``Ingestion``; raises ``UploadTooLarge`` or ``UploadTypeUnsupported`` with
    nothing stored, or ``IngestionQueueUnavailable`` when the broker refuses it.
    """
    limit = settings.ACEH_RAG.api.max_upload_bytes
    if file.size is not None and file.size > limit:
        raise UploadTooLarge(f"File too large: {file.size} bytes (limit {limit})")
    name = Path(file.name or "upload").name
    extension = Path(name).suffix.lower()
    if extension not in accepted_extensions():
        raise UploadTypeUnsupported(f"Unsupported file type {extension or '(none)'}; expected one of {', '.join(sorted(accepted_extensions()))}")
    data = file.read(limit + 1)
    if len(data) > limit:
        raise UploadTooLarge(f"File too large (limit {limit} bytes)")
    if not content_matches(data, name):
        raise UploadTypeUnsupported(f"File content does not match its {extension} extension")
    return ingestion_request_upload(data=data, filename=name, options=options, requested_by=requested_by)


def upload_requester(request: HttpRequest) -> str:
    """Who asked for an upload: the trusted subject, else the API key's name."""
    return request_principal(request).subject or request.auth.key_name
