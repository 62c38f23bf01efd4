"""Stored files behind Django's storage API: uploads awaiting a worker, kept originals, workbook Parquet.

The embedded default keeps them in the data directory; ``ACEH_RAG_FILES__BACKEND=s3`` keeps them in an
S3-compatible bucket (MinIO, S3; ``kernel/config/files.py``), so web processes and workers on several
machines share them without a shared volume. Names are relative and use ``/``: ``uploads/<hex>/<name>``,
``sources/<hash>.pdf``, ``workbooks/<document id>/0.parquet``.

Readers that need a path on disk (DuckDB, the parsers) call ``files_local``: the stored file itself in
the data directory, or a copy in ``<data dir>/cache/`` for a bucket. A stored name is never rewritten
with other bytes (an upload's folder is new, a source is named by its hash, a workbook version by its
document id), so a cached copy never goes stale; ``files_delete_folder`` drops it with the original.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from django.conf import settings
from django.core.files import File
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage, storages

CACHE = "cache"


class StoredFileMissing(LookupError):
    """A stored name that holds no file."""


def _storage() -> Storage:
    return storages["files"]


def files_are_local() -> bool:
    """True when stored files are the data directory's own (no copy is made to read them)."""
    return isinstance(_storage(), FileSystemStorage)


def _checked(name: str) -> str:
    path = PurePosixPath(name)
    if not name or path.is_absolute() or ".." in path.parts or path.parts[0] == CACHE:
        raise ValueError(f"not a stored file name: {name!r}")
    return str(path)


def files_save(name: str, content: bytes | Path) -> str:
    """Store ``content`` (bytes, or the file at a path) under ``name``, replacing what it held.

    Whole or absent: a bucket's PUT is atomic, and in the data directory the bytes go to a temporary
    file renamed into place, so a crash never leaves a truncated file under a name read as complete.
    """
    name = _checked(name)
    storage = _storage()
    if isinstance(storage, FileSystemStorage):
        target = Path(storage.path(name))
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as partial:
            if isinstance(content, Path):
                with content.open("rb") as handle:
                    shutil.copyfileobj(handle, partial)
            else:
                partial.write(content)
        os.chmod(partial.name, 0o644)
        Path(partial.name).replace(target)
        return name
    if isinstance(content, Path):
        with content.open("rb") as handle:
            return storage.save(name, File(handle, name=content.name))
    return storage.save(name, ContentFile(content, name=PurePosixPath(name).name))


def files_exists(name: str) -> bool:
    return _storage().exists(_checked(name))


def files_open(name: str):
    """The stored file, opened for reading in binary."""
    try:
        return _storage().open(_checked(name), "rb")
    except FileNotFoundError as exc:
        raise StoredFileMissing(name) from exc
    except OSError as exc:  # S3: a missing key surfaces as an OSError of its own
        if files_exists(name):
            raise
        raise StoredFileMissing(name) from exc


def files_local(name: str) -> Path:
    """A path on this machine holding the stored file's bytes (see the module note)."""
    name = _checked(name)
    storage = _storage()
    if isinstance(storage, FileSystemStorage):
        return Path(storage.path(name))
    cached = Path(settings.ACEH_RAG.data_dir) / CACHE / name
    if not cached.is_file():
        cached.parent.mkdir(parents=True, exist_ok=True)
        with files_open(name) as source, tempfile.NamedTemporaryFile(dir=cached.parent, delete=False) as partial:
            shutil.copyfileobj(source, partial)
        Path(partial.name).replace(cached)   # whole or absent, for a concurrent reader
    return cached


def files_put_folder(folder: Path, prefix: str) -> None:
    """Store every file of a local ``folder`` under ``prefix/`` and remove the folder.

    In the data directory this is one rename (the folder appears whole); a bucket receives the files one by one.
    """
    prefix = _checked(prefix)
    storage = _storage()
    if isinstance(storage, FileSystemStorage):
        final = Path(storage.path(prefix))
        if final.exists():
            shutil.rmtree(final)
        final.parent.mkdir(parents=True, exist_ok=True)
        folder.rename(final)
        return
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            files_save(f"{prefix}/{path.relative_to(folder).as_posix()}", path)
    shutil.rmtree(folder, ignore_errors=True)


def files_walk(prefix: str) -> Iterator[str]:
    """Every stored name under ``prefix/`` (none when it holds nothing)."""
    prefix = _checked(prefix)
    storage = _storage()
    if isinstance(storage, FileSystemStorage) and not Path(storage.path(prefix)).is_dir():
        return
    try:
        folders, names = storage.listdir(prefix)
    except FileNotFoundError:
        return
    for name in names:
        yield f"{prefix}/{name}"
    for folder in folders:
        yield from files_walk(f"{prefix}/{folder}")


def files_delete(name: str) -> None:
    """Delete one stored file and its cached copy; a file already gone is fine."""
    name = _checked(name)
    _storage().delete(name)
    (Path(settings.ACEH_RAG.data_dir) / CACHE / name).unlink(missing_ok=True)


def files_delete_folder(prefix: str) -> None:
    """Delete everything stored under ``prefix/`` and its cached copies; nothing there is fine."""
    prefix = _checked(prefix)
    storage = _storage()
    if isinstance(storage, FileSystemStorage):
        shutil.rmtree(storage.path(prefix), ignore_errors=True)
    else:
        for name in list(files_walk(prefix)):
            storage.delete(name)
    shutil.rmtree(Path(settings.ACEH_RAG.data_dir) / CACHE / prefix, ignore_errors=True)
