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

from kernel.progress import CommandProgress
from retrieval.ingestion import OUTCOMES, IngestOptions, IngestOutcome, IngestProgress, source_key_for
from retrieval.management.report import document_line, section_lines
from retrieval.models import Ingestion
from retrieval.formats import accepted_extensions
from retrieval.selectors import collection_ids, document_get_staff
from retrieval.services import (
    STATISTICS_SKIPPED, chunk_statistics_refresh, collection_indexes_sync, discover_files, ingestion_create, ingestion_enqueue,
    vector_index_rebuild_if_bulk,
)
from retrieval.tasks import ingest_file


def formats_text() -> str:
    """Every extension ``ingest`` accepts: the parsed documents and the registered workbooks (.csv, .xlsx, …)."""
    return ", ".join(sorted(accepted_extensions()))


class Command(BaseCommand):
    @property
    def help(self) -> str:
        return (
            f"Ingest files (folders recursively) into an existing collection; accepted: {formats_text()} "
            "(spreadsheets become catalogued workbooks). Prints each file's parsed identity (type, number/year, "
            "title), collection and chunk count (-v 2: its sections too); failures are named by path with a "
            "reason and make the exit status 1."
        )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                            help=f"Files or folders (searched recursively) of {formats_text()}.")
        parser.add_argument("--collection", required=True,
                            help="Collection id, e.g. JDIH or PPID; it must exist unless --create-collection is given.")
        parser.add_argument("--create-collection", action="store_true",
                            help="Create the collection when it does not exist yet (a typo would otherwise make one).")
        parser.add_argument("--title", help="Title override (only with a single file).")
        parser.add_argument("--confidential", action="store_true", help="Visible only to verified identities.")
        parser.add_argument("--org-unit", help="Restrict to principals of this organisation unit.")
        parser.add_argument("--min-level", type=int, help="Restrict to principals at or above this position level.")
        parser.add_argument("--async", dest="run_async", action="store_true",
                            help="Queue one Celery task per file and follow progress (inline without a broker).")
        parser.add_argument("--keep-vector-index", action="store_true",
                            help="Do not rebuild the vector index after a bulk load (one adding a quarter of all chunks).")
        parser.add_argument("--wait-timeout", type=float, default=3600.0,
                            help="With --async: stop following after this many seconds (exit 2; the tasks go on).")

    def handle(self, *args, paths, collection, create_collection, title, confidential, org_unit, min_level, run_async,
               wait_timeout, **options):
        collection = collection.strip()
        if not collection:
            raise CommandError("--collection must not be blank")
        known = collection_ids()
        if collection not in known and not create_collection:
            listed = ", ".join(known) or "none yet"
            raise CommandError(f"unknown collection {collection!r} (known: {listed}); "
                               "check the spelling, or add --create-collection to create it")
        if min_level is not None and min_level < 0:
            raise CommandError("--min-level must be zero or more")
        files = discover_files(paths)
        if not files:
            raise CommandError("no files found under the given paths")
        if title and len(files) > 1:
            raise CommandError("--title applies to a single file; the paths hold %d files" % len(files))
        ingest_options = IngestOptions.build(collection_id=collection, title=title, confidential=confidential,
                                             owning_org_unit=org_unit, min_position_level=min_level)
        verbosity = options.get("verbosity", 1)
        with CommandProgress(len(files), stdout=self.stdout) as bar:
            progress = IngestProgress(on_change=lambda p: bar.update(
                done=p.files_done, note=f"{p.chunks_embedded} chunks · {p.chunks_embedded / bar.elapsed:.1f} chunks/s"
                + (f" · {p.ocr_pages} pages by OCR" if p.ocr_pages else "")))
            outcomes = self._run(files, ingest_options, progress, wait_timeout, run_async, bar)
            for (path, _), outcome in zip(files, outcomes):
                self._report(bar, path, outcome, verbosity)
        if any(outcome.status in ("ingested", "replaced") for outcome in outcomes) and not chunk_statistics_refresh():
            self.stdout.write(STATISTICS_SKIPPED)
        self._summary(outcomes, progress)
        new_chunks = sum(o.chunk_count for o in outcomes if o.status in ("ingested", "replaced"))
        if not options.get("keep_vector_index") and (seconds := vector_index_rebuild_if_bulk(new_chunks)) is not None:
            self.stdout.write(f"vector index rebuilt after a bulk load in {seconds:.1f}s")
        if new_chunks and (indexes := collection_indexes_sync()).built:
            self.stdout.write(f"vector index built for collection(s) {', '.join(indexes.built)} "
                              f"in {indexes.seconds:.1f}s")
        if any(outcome.status == "failed" for outcome in outcomes):
            sys.exit(1)

    def _report(self, bar: CommandProgress, path: Path, outcome: IngestOutcome, verbosity: int) -> None:
        """One line per file: its parsed identity, collection and chunks (-v 2: its sections); failures by path."""
        if outcome.status == "failed":
            bar.line(f"FAILED     {path}: {outcome.reason}")
            return
        document = document_get_staff(document_id=outcome.document_id) if outcome.document_id else None
        if verbosity < 1 or document is None:
            return
        bar.line(f"{outcome.status:<10} {path}  {document_line(document)}")
        if verbosity >= 2:
            for line in section_lines(document):
                bar.line(line)

    def _run(self, files, options: IngestOptions, progress: IngestProgress, wait_timeout: float,
             run_async: bool, bar: CommandProgress) -> list[IngestOutcome]:
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
                bar.__exit__(None, None, None)
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

    def _summary(self, outcomes: list[IngestOutcome], progress: IngestProgress) -> None:
        counts = Counter(outcome.status for outcome in outcomes)
        elapsed = time.monotonic() - progress.started
        self.stdout.write("")
        self.stdout.write(f"{'outcome':<10} {'files':>6}")
        for status in OUTCOMES:
            self.stdout.write(f"{status:<10} {counts.get(status, 0):>6}")
        self.stdout.write(f"{'total':<10} {len(outcomes):>6}")
        chunks = sum(o.chunk_count for o in outcomes if o.status in ("ingested", "replaced"))
        self.stdout.write(f"{chunks} new chunks in {elapsed:.1f}s")
