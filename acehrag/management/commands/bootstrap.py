"""Prepare an embedded-default installation: dev key and sample corpus."""
from django.conf import settings
from django.core.management.base import BaseCommand

from acehrag.services import dev_api_key_ensure


class Command(BaseCommand):
    help = "Create and print a development API key when ACEH_RAG_API__KEYS is unset; ingest the sample corpus into an empty database."

    def handle(self, *args, **options):
        config = settings.ACEH_RAG
        if config.api.keys:
            self.stdout.write(f"API keys come from ACEH_RAG_API__KEYS ({len(config.api.keys)} configured).")
        else:
            raw_key = dev_api_key_ensure(data_dir=config.data_dir)
            self.stdout.write(f"Development API key (header {config.api.key_header}): {raw_key}")
            self.stdout.write(f"  stored in {config.data_dir / 'dev-api-key'}")
        from retrieval.facade.storage import sample_corpus_ingest_if_empty

        report = sample_corpus_ingest_if_empty()
        if report is not None:
            self.stdout.write(report)
