"""Uploaded bytes kept for the worker until they are ingested (``kernel/files.py``: the data directory or a bucket).

An ingestion's ``stored_path`` is either a stored name under ``uploads/`` (an upload: the worker reads
it wherever it runs, and it is deleted once ingested) or an absolute path (a staff command's own source
file on the machine that runs it, never deleted).
"""
from __future__ import annotations

import uuid
from pathlib import Path, PurePosixPath

from django.conf import settings

from kernel.files import files_delete_folder, files_local, files_save

UPLOADS = "uploads"


def upload_store(*, data: bytes, filename: str) -> str:
    """Keep uploaded bytes where any worker can read them; their stored name (the ingestion's ``stored_path``)."""
    return files_save(f"{UPLOADS}/{uuid.uuid4().hex}/{Path(filename).name}", data)


def upload_name(stored_path: str) -> str | None:
    """The stored name of an upload, or None for a command's own file.

    An absolute path inside ``<data dir>/uploads`` is an upload queued before uploads were stored by name.
    """
    path = Path(stored_path)
    if path.is_absolute():
        uploads = Path(settings.ACEH_RAG.data_dir) / UPLOADS
        return path.relative_to(settings.ACEH_RAG.data_dir).as_posix() if path.is_relative_to(uploads) else None
    parts = PurePosixPath(stored_path).parts
    return stored_path if len(parts) == 3 and parts[0] == UPLOADS else None


def stored_local(stored_path: str) -> Path:
    """A path on this machine holding the ingestion's bytes (a cached copy of an upload kept in a bucket)."""
    name = upload_name(stored_path)
    return files_local(name) if name else Path(stored_path)


def upload_forget(stored_path: str) -> None:
    """Delete an upload's folder (a no-op for a command's own file)."""
    name = upload_name(stored_path)
    if name:
        files_delete_folder(str(PurePosixPath(name).parent))
