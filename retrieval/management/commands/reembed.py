"""Re-embed stored chunks with the configured embedding model, with progress."""
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from retrieval.embedders import EmbeddingError
from retrieval.reembedding import ReembedProgress, chunks_reembed


class Command(BaseCommand):
    help = (
        "Re-embed indexed chunks (document title + section path + chunk text, the ingestion's contextual text) "
        "with the configured embedder; the stored text is unchanged. Use after changing the embedding model: "
        "/readyz reports vectors from another model until this has run."
    )

    def add_arguments(self, parser):
        parser.add_argument("--stale-only", action="store_true",
                            help="Only documents holding vectors from another model than the configured one.")
        parser.add_argument("--collection", action="append", default=[], help="Restrict to a collection (repeatable).")

    def handle(self, *args, stale_only, collection, **options):
        def report(progress: ReembedProgress) -> None:
            self.stdout.write(
                f"[{progress.documents_done}/{progress.documents_total} documents] {progress.chunks_done} chunks "
                f"re-embedded · {progress.chunks_per_second:.1f} chunks/s"
            )

        try:
            done = chunks_reembed(
                only_stale=stale_only, collection_ids=collection,
                batch_size=settings.ACEH_RAG.embedding.batch_size, on_document=report,
            )
        except EmbeddingError as exc:
            raise CommandError(f"embedding failed: {exc}") from exc
        self.stdout.write(f"done: {done.documents_done} documents, {done.chunks_done} chunks")
