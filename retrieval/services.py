"""Write operations for documents and chunks (ingestion lives here)."""
from __future__ import annotations


def sample_corpus_ingest_if_empty() -> str | None:
    """Ingest the bundled sample corpus when no document exists yet."""
    return None
