"""Back up the database and the stored files into a directory (acehrag/backup.py)."""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from acehrag.backup import BackupFailed, backup_create


class Command(BaseCommand):
    help = "Write database.dump (pg_dump), files.tar (uploads, sources, workbooks, artifacts) and manifest.json."

    def add_arguments(self, parser):
        parser.add_argument("target", type=Path, help="A new directory for the backup.")

    def handle(self, *args, target: Path, **options):
        try:
            manifest = backup_create(target=target)
        except BackupFailed as exc:
            raise CommandError(exc.message) from exc
        rows = sum(manifest.tables.values())
        self.stdout.write(f"backed up {len(manifest.tables)} tables ({rows:,} rows) and {manifest.files:,} files "
                          f"into {target} in {manifest.seconds:g} s")
