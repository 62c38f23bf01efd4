"""Restore a backup into the configured database and data directory, then verify every table (acehrag/backup.py)."""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from acehrag.backup import BackupFailed, backup_restore


class Command(BaseCommand):
    help = ("Load a backup written by `backup` into the configured (new) database and data directory; "
            "fails unless every table has the rows the backup recorded.")

    def add_arguments(self, parser):
        parser.add_argument("source", type=Path, help="The backup directory.")

    def handle(self, *args, source: Path, **options):
        try:
            manifest = backup_restore(source=source)
        except BackupFailed as exc:
            raise CommandError(exc.message) from exc
        rows = sum(manifest.tables.values())
        self.stdout.write(f"restored {len(manifest.tables)} tables ({rows:,} rows, each as backed up) and "
                          f"{manifest.files:,} files from {source} in {manifest.seconds:g} s")
