"""Settings for the live-data tests: one place that switches each tool on or off."""
from __future__ import annotations

from dataclasses import replace

from django.conf import settings
from django.test import override_settings

from retrieval.ingestion import IngestOptions, document_ingest_bytes
from retrieval.models import Collection


def live_settings(*, workbooks: bool = True, portals: tuple[str, ...] = (), bps_url: str | None = None,
                  bps_enabled: bool = False, bps_key: str | None = None, sql_url: str | None = None,
                  sql_schemas: tuple[str, ...] = ("public",), timeout: float = 5.0, ttl: int = 600):
    live = settings.ACEH_RAG.livedata
    changed = replace(
        live,
        workbooks=replace(live.workbooks, enabled=workbooks),
        opendata=replace(live.opendata, portals=portals, timeout_seconds=timeout, cache_ttl_seconds=ttl),
        bps=replace(live.bps, enabled=bps_enabled, app_key=bps_key, base_url=bps_url or live.bps.base_url,
                    timeout_seconds=timeout),
        sql=replace(live.sql, database_url=sql_url, schemas=sql_schemas),
    )
    return override_settings(ACEH_RAG=replace(settings.ACEH_RAG, livedata=changed))


def ingest_workbook(data: bytes, filename: str, *, collection: str = "SatuData", collection_name: str = "",
                    **options):
    Collection.objects.update_or_create(id=collection, defaults={"name": collection_name})
    outcome = document_ingest_bytes(data=data, filename=filename, source_key=f"test:{filename}",
                                    options=IngestOptions(collection_id=collection, **options))
    assert outcome.status == "ingested", outcome
    return outcome.document_id
