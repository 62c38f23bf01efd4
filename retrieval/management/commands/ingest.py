"""Ingest files or folders of regulations into a collection."""
from __future__ import annotations

import getpass
import sys
import time
from collections import Counter
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from retrieval.ingestion import OUTCOMES, IngestOptions, IngestOutcome, IngestProgress, source_key_for
from retrieval.models import Ingestion
from retrieval.services import chunk_statistics_refresh, discover_files, ingestion_create, ingestion_enqueue
from retrieval.tasks import ingest_file


class Command(BaseCommand):
    help = (
        "Ingest PDF, text/Markdown, HTML and DOCX files (folders recursively) into a collection. "
        "Unreadable files are reported with a reason; the exit status is non-zero when any failed."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", type=Path)
        parser.add_argument("--collection", required=True, help="Collection id, e.g. JDIH or PPID.")
        parser.add_argument("--title", help="Title override (only with a single file).")
        parser.add_argument("--confidential", action="store_true", help="Visible only to verified identities.")
        parser.add_argument("--org-unit", help="Restrict to principals of this organisation unit.")
        parser.add_argument("--min-level", type=int, help="Restrict to principals at or above this position level.")
        parser.add_argument("--async", dest="run_async", action="store_true",
                            help="Queue one Celery task per file and follow progress (inline without a broker).")
        parser.add_argument("--wait-timeout", type=float, default=3600.0,
                            help="With --async: stop following after this many seconds (exit 2; the tasks go on).")

    def handle(self, *args, paths, collection, title, confidential, org_unit, min_level, run_async, wait_timeout, **options):
        collection = collection.strip()
        if not collection:
            raise CommandError("--collection must not be blank")
        if min_level is not None and min_level < 0:
            raise CommandError("--min-level must be zero or more")
        files = discover_files(paths)
        if not files:
            raise CommandError("no files found under the given paths")
        if title and len(files) > 1:
            raise CommandError("--title applies to a single file; the paths hold %d files" % len(files))
        ingest_options = IngestOptions(
            collection_id=collection, title=title, confidential=confidential,
            owning_org_unit=org_unit, min_position_level=min_level,
        )
        progress = IngestProgress(on_change=self._progress_printer(len(files)))
        outcomes = self._run(files, ingest_options, progress, wait_timeout, run_async)
        self._finish_progress_line()
        if any(outcome.status in ("ingested", "replaced") for outcome in outcomes):
            chunk_statistics_refresh()
        self._summary(outcomes, progress)
        if any(outcome.status == "failed" for outcome in outcomes):
            sys.exit(1)

    def _run(self, files, options: IngestOptions, progress: IngestProgress, wait_timeout: float,
             run_async: bool) -> list[IngestOutcome]:
        """Every file becomes an Ingestion row run by the Celery task: queued with --async
        (inline without a broker), otherwise run here, one file after another."""
        requested_by = f"manage.py ingest ({getpass.getuser()})"
        with transaction.atomic():
            ingestions = [
                ingestion_create(source_name=path.name, source_key=source_key_for(options.collection_id, key),
                                 stored_path=path.resolve(), options=options, requested_by=requested_by)
                for path, key in files
            ]
            if run_async:
                for ingestion in ingestions:
                    ingestion_enqueue(ingestion=ingestion)
        ids = [ingestion.id for ingestion in ingestions]
        finished: dict = {}
        if not run_async:
            for ingestion_id in ids:
                ingest_file.apply(args=[str(ingestion_id)], throw=True)
                self._follow(ids, finished, progress)
        elif settings.CELERY_BROKER_URL:
            self.stderr.write(f"queued {len(ids)} file(s) on {settings.CELERY_BROKER_URL.split('@')[-1]}; following progress")
        deadline = time.monotonic() + wait_timeout
        while len(self._follow(ids, finished, progress)) < len(ids):
            if time.monotonic() > deadline:
                self._finish_progress_line()
                self.stderr.write(f"stopped following after {wait_timeout:.0f}s: {len(ids) - len(finished)} file(s) still queued or running "
                                  "(see the Ingestion list in the admin)")
                sys.exit(2)
            time.sleep(0.5)
        return [
            IngestOutcome(status=finished[i].outcome or "failed", source_name=finished[i].source_name,
                          source_key=finished[i].source_key, document_id=finished[i].document_id,
                          chunk_count=finished[i].chunk_count, reason=finished[i].error)
            for i in ids
        ]

    def _follow(self, ids, finished: dict, progress: IngestProgress) -> dict:
        """Count the rows that finished since the last look into ``progress``."""
        done = Ingestion.objects.filter(id__in=ids, status__in=[Ingestion.Status.SUCCEEDED, Ingestion.Status.FAILED])
        for row in done.exclude(id__in=list(finished)):
            finished[row.id] = row
            progress.add_chunks(row.chunk_count if row.outcome in ("ingested", "replaced") else 0)
            progress.file_finished()
        return finished

    def _progress_printer(self, total: int):
        tty = sys.stderr.isatty()
        state = {"last": 0.0, "files": 0}

        def show(progress: IngestProgress) -> None:
            now = time.monotonic()
            if tty:
                if now - state["last"] < 0.2 and progress.files_done < total:
                    return
            elif progress.files_done == state["files"] or not (progress.files_done == total or progress.files_done % 10 == 0):
                return  # without a terminal: one line every ten files
            state["last"], state["files"] = now, progress.files_done
            elapsed = max(now - progress.started, 1e-6)
            line = (f"[{progress.files_done}/{total} files] {progress.chunks_embedded} chunks embedded · "
                    f"{progress.chunks_embedded / elapsed:.1f} chunks/s · {progress.files_done / elapsed:.2f} files/s")
            sys.stderr.write("\r" + line.ljust(100) if tty else line + "\n")
            sys.stderr.flush()

        return show

    def _finish_progress_line(self) -> None:
        if sys.stderr.isatty():
            sys.stderr.write("\n")

    def _summary(self, outcomes: list[IngestOutcome], progress: IngestProgress) -> None:
        for outcome in outcomes:
            if outcome.status == "failed":
                self.stdout.write(f"FAILED  {outcome.source_key}: {outcome.reason}")
        counts = Counter(outcome.status for outcome in outcomes)
        elapsed = time.monotonic() - progress.started
        self.stdout.write("")
        self.stdout.write(f"{'outcome':<10} {'files':>6}")
        for status in OUTCOMES:
            self.stdout.write(f"{status:<10} {counts.get(status, 0):>6}")
        self.stdout.write(f"{'total':<10} {len(outcomes):>6}")
        chunks = sum(o.chunk_count for o in outcomes if o.status in ("ingested", "replaced"))
        self.stdout.write(f"{chunks} new chunks in {elapsed:.1f}s")
