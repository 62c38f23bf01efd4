"""Re-embed stored chunks with the configured embedding model, with progress."""
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from kernel.progress import CommandProgress
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
        bars: list[CommandProgress] = []   # opened at the first report, when the total is known

        def report(progress: ReembedProgress) -> None:
            if not bars:
                bars.append(CommandProgress(progress.documents_total, stdout=self.stdout, label="documents",
                                            every=1, stream=self.stderr).__enter__())
            bars[0].update(done=progress.documents_done,
                           note=f"{progress.chunks_done} chunks re-embedded · {progress.chunks_per_second:.1f} chunks/s")

        try:
            done = chunks_reembed(
                only_stale=stale_only, collection_ids=collection,
                batch_size=settings.ACEH_RAG.embedding.batch_size, on_document=report,
            )
        except EmbeddingError as exc:
            raise CommandError(f"embedding failed: {exc}") from exc
        finally:
            for bar in bars:
                bar.__exit__(None, None, None)
        self.stdout.write(f"done: {done.documents_done} documents, {done.chunks_done} chunks")
