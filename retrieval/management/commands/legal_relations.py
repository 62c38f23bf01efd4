"""List the legal relations extracted from the corpus, or rebuild them from stored text."""
from __future__ import annotations

import json
import uuid

from django.core.management.base import BaseCommand, CommandError

from retrieval.relations.selectors import document_citation, relations_listing
from retrieval.relations.services import relations_rebuild


class Command(BaseCommand):
    help = (
        "List which indexed regulation revokes, supersedes or amends which (with the clause), "
        "or --rebuild: re-extract every indexed document's relations from its stored text (no re-embedding)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--document", help="Only relations stated by or about this document id.")
        parser.add_argument("--unresolved", action="store_true", help="Only relations whose target is not indexed.")
        parser.add_argument("--json", dest="as_json", action="store_true", help="One JSON object per line.")
        parser.add_argument("--rebuild", action="store_true", help="Re-extract relations for the whole corpus first.")

    def handle(self, *args, document, unresolved, as_json, rebuild, **options):
        document_id = None
        if document:
            try:
                document_id = uuid.UUID(document)
            except ValueError:
                raise CommandError(f"--document must be a document id (UUID), got {document!r}") from None
        if rebuild:
            outcome = relations_rebuild(document_ids=[document_id] if document_id else None,
                                        on_progress=self._progress)
            self.stderr.write("")
            self.stderr.write(f"rebuilt: {outcome.documents} documents, {outcome.relations} relations, "
                              f"{outcome.resolved} with an indexed target")
        rows = list(relations_listing(document_id=document_id, unresolved=unresolved))
        for row in rows:
            item = {
                "source_document_id": str(row.source_document_id),
                "source": document_citation(row.source_document),
                "pasal": " ".join(filter(None, [row.pasal, f"ayat ({row.ayat})" if row.ayat else ""])) or None,
                "relation": row.relation,
                "articles": list(row.articles),
                "target": row.target_citation,
                "target_title": row.target_title or None,
                "target_document_id": str(row.target_document_id) if row.target_document_id else None,
                "effective_date": row.effective_date or None,
                "clause": " ".join(row.source_document.text[row.char_start:row.char_end].split()),
            }
            if as_json:
                self.stdout.write(json.dumps(item, ensure_ascii=False))
            else:
                target = item["target_document_id"] or "not indexed"
                articles = f" (Pasal {', '.join(item['articles'])})" if item["articles"] else ""
                self.stdout.write(f"{item['source']} {item['pasal'] or '(judul)'} {row.relation}{articles} "
                                  f"{item['target']} -> {target}")
        if not as_json:
            self.stderr.write(f"{len(rows)} relation(s)")

    def _progress(self, done: int, total: int, relations: int) -> None:
        self.stderr.write(f"\r[{done}/{total} documents] {relations} relations", ending="")
        self.stderr.flush()
