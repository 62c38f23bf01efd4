"""Inspect or stop the embedded PostgreSQL of the data directory."""
import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from acehrag.embedded_db import embedded_status, embedded_stop


class Command(BaseCommand):
    help = "Show the status of, or stop, the embedded PostgreSQL under ACEH_RAG_DATA_DIR."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["status", "stop"],
                            help="status: whether the data directory's PostgreSQL runs (and where); stop: stop it.")

    def handle(self, *args, action, **options):
        if settings.ACEH_RAG.database_url:
            raise CommandError("DATABASE_URL is set: the embedded PostgreSQL is not in use.")
        data_dir = settings.ACEH_RAG.data_dir
        if action == "status":
            self.stdout.write(json.dumps(embedded_status(data_dir), indent=2))
        elif embedded_stop(data_dir):
            self.stdout.write("embedded PostgreSQL stopped")
        else:
            self.stdout.write("embedded PostgreSQL was not running")
