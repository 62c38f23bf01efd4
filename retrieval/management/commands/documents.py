"""Staff operations on stored documents: list, show, delete, reindex."""
from __future__ import annotations

import sys
import uuid

from django.core.management.base import BaseCommand, CommandError

from kernel.progress import CommandProgress
from retrieval.management.report import document_line, identity_label, section_lines
from retrieval.selectors import document_get_staff, document_list_staff
from retrieval.services import STATISTICS_SKIPPED, chunk_statistics_refresh, document_delete, document_reindex

IDENTITY_FIELDS = ("instrument_type", "number", "year", "subject", "issuer", "place_enacted", "date_enacted", "signatory")
ACCESS_FIELDS = ("confidential", "owning_org_unit", "min_position_level")


def _document_id(value: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise CommandError(f"{value!r} is not a document id (a UUID; see `manage.py documents list`)") from None


class Command(BaseCommand):
    help = "List, show, delete or reindex (re-chunk and re-embed) stored documents."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True, metavar="{list,show,delete,reindex}")
        listing = actions.add_parser("list", help="One line per document: id, status, identity, title, collection, chunks.")
        listing.add_argument("--collection", help="Only this collection id, e.g. JDIH.")
        listing.add_argument("--limit", type=int, default=200, help="At most this many documents (default 200).")
        show = actions.add_parser("show", help="Everything stored about one document, with its sections.")
        show.add_argument("document_id", help="The document's id (UUID).")
        delete = actions.add_parser("delete", help="Delete documents and their chunks.")
        delete.add_argument("document_ids", nargs="+", metavar="DOCUMENT_ID", help="Ids (UUID) of the documents.")
        delete.add_argument("--yes", action="store_true", help="Delete without asking for confirmation.")
        reindex = actions.add_parser("reindex", help="Re-chunk and re-embed from the stored text (after a chunker "
                                                     "or embedding-model change); ids stay the same.")
        reindex.add_argument("document_ids", nargs="*", metavar="DOCUMENT_ID", help="Ids (UUID) of the documents.")
        reindex.add_argument("--collection", help="Reindex every document of this collection.")
        reindex.add_argument("--all", action="store_true", help="Reindex every stored document.")

    def handle(self, *args, action, **options):
        getattr(self, f"_{action}")(**options)

    def _list(self, *, collection, limit, **options):
        documents = list(document_list_staff(collection_id=collection)[: max(limit, 0)])
        for document in documents:
            self.stdout.write(f"{document.id}  {document.status:<10} {document_line(document)}")
        self.stdout.write(f"{len(documents)} document(s)")

    def _show(self, *, document_id, **options):
        document = self._get(document_id)
        rows = [("id", document.id), ("title", document.title), ("identity", identity_label(document)),
                ("collection", document.collection_id), ("status", document.status),
                ("source", f"{document.source_name} ({document.source_format})"), ("source key", document.source_key),
                ("version", document.version), ("chunks", document.chunk_count), ("indexed at", document.indexed_at)]
        rows += [(name.replace("_", " "), getattr(document, name)) for name in IDENTITY_FIELDS + ACCESS_FIELDS]
        for name, value in rows:
            self.stdout.write(f"{name:<20} {'—' if value in (None, '') else value}")
        for line in section_lines(document):
            self.stdout.write(line)

    def _delete(self, *, document_ids, yes, **options):
        documents = [self._get(value) for value in document_ids]
        for document in documents:
            self.stdout.write(f"{document.id}  {document_line(document)}")
        if not yes and input(f"Delete these {len(documents)} document(s) and their chunks? [y/N] ").strip().lower() != "y":
            raise CommandError("nothing deleted")
        for document in documents:
            document_delete(document=document)
        self.stdout.write(f"deleted {len(documents)} document(s)")

    def _reindex(self, *, document_ids, collection, all, **options):
        if bool(document_ids) + bool(collection) + bool(all) != 1:
            raise CommandError("name document ids, or --collection ID, or --all (exactly one)")
        if document_ids:
            documents = [self._get(value) for value in document_ids]
        else:
            documents = list(document_list_staff(collection_id=collection).filter(status="indexed"))
            if not documents:
                raise CommandError(f"no indexed documents{f' in collection {collection!r}' if collection else ''}")
        failed = 0
        with CommandProgress(len(documents), stdout=self.stdout, label="documents") as bar:
            for done, document in enumerate(documents, start=1):
                outcome = document_reindex(document=document)
                if outcome.status == "failed":
                    failed += 1
                    bar.line(f"FAILED     {document.id} {document.title}: {outcome.reason}")
                else:
                    bar.line(f"reindexed  {document.id}  {document.title} · {outcome.chunk_count} chunks")
                bar.update(done=done, note=f"{failed} failed")
        if not chunk_statistics_refresh():
            self.stdout.write(STATISTICS_SKIPPED)
        self.stdout.write(f"reindexed {len(documents) - failed} of {len(documents)} document(s)")
        if failed:
            sys.exit(1)

    def _get(self, value: str):
        document = document_get_staff(document_id=_document_id(value))
        if document is None:
            raise CommandError(f"no document {value}")
        return document
