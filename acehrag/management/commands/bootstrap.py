"""Prepare an embedded-default installation: dev key and sample corpus."""
from django.conf import settings
from django.core.management.base import BaseCommand

from acehrag.services import dev_api_key_ensure, dev_jwt_secret_ensure


class Command(BaseCommand):
    help = ("Create and print a development API key and partner-JWT secret when ACEH_RAG_API__KEYS "
            "(and ACEH_RAG_AUTH__JWT_KEYS) are unset; ingest the sample corpus into an empty database.")

    def handle(self, *args, **options):
        config = settings.ACEH_RAG
        if config.api.keys:
            self.stdout.write(f"API keys come from ACEH_RAG_API__KEYS ({len(config.api.keys)} configured).")
        else:
            raw_key = dev_api_key_ensure(data_dir=config.data_dir)
            self.stdout.write(f"Development API key (header {config.api.key_header}): {raw_key}")
            self.stdout.write(f"  stored in {config.data_dir / 'dev-api-key'}")
            if not config.auth.jwt_keys:
                secret = dev_jwt_secret_ensure(data_dir=config.data_dir)
                self.stdout.write(f"Development partner-JWT secret (HS256, admin key 'development'): {secret}")
                self.stdout.write(f"  stored in {config.data_dir / 'dev-jwt-secret'}")
        from retrieval.facade.storage import sample_corpus_ingest_if_empty

        report = sample_corpus_ingest_if_empty()
        if report is not None:
            self.stdout.write(report)
