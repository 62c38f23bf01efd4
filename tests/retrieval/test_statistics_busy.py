"""The statistics refresh after an ingestion gives way to a table an index build holds: the ingestion is stored and
the command ends cleanly (a worker building a collection's index concurrently once made ANALYZE a deadlock's victim,
and `manage.py ingest --async` ended with a traceback)."""
from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from retrieval import ingestion_jobs
from retrieval.models import Chunk
from retrieval.services import chunk_statistics_refresh
from tests.factories import make_document

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_refresh_is_skipped_while_the_table_is_held_and_runs_once_it_is_free(monkeypatch, caplog):
    make_document(chunks=["Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh."])
    monkeypatch.setattr(ingestion_jobs, "ANALYZE_LOCK_TIMEOUT_MS", 200)
    connection.ensure_connection()
    holder = psycopg.connect(**connection.get_connection_params())
    try:
        # What CREATE INDEX CONCURRENTLY holds for as long as it builds.
        holder.execute("LOCK TABLE retrieval_chunk IN SHARE UPDATE EXCLUSIVE MODE")
        with caplog.at_level("WARNING", logger="retrieval.ingestion_jobs"):
            assert chunk_statistics_refresh() is False
        assert "chunk statistics not refreshed: the table is busy" in caplog.text
        assert Chunk.objects.count() == 1                      # the connection is still usable
    finally:
        holder.rollback()
        holder.close()
    assert chunk_statistics_refresh() is True
