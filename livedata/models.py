"""Catalogued workbooks: the catalogue lives in PostgreSQL, the cells in Parquet files.

A workbook is a ``retrieval.Document`` (title, collection, access fields,
versions and supersession as every document) with no chunks; its sheets are
stored as one Parquet file each under the data directory and queried with
DuckDB (see ``livedata.workbooks.storage``).
"""
from __future__ import annotations

from django.db import models



class Workbook(models.Model):
    document = models.OneToOneField("retrieval.Document", on_delete=models.CASCADE, primary_key=True, related_name="workbook")
    period = models.CharField(max_length=40, blank=True)          # e.g. "2024", from the title or file name
    source_format = models.CharField(max_length=10)               # xlsx | xls | ods | csv
    sheet_count = models.PositiveIntegerField(default=0)
    row_count = models.PositiveBigIntegerField(default=0)
    ingest_seconds = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.document.title


class WorkbookSheet(models.Model):
    workbook = models.ForeignKey(Workbook, on_delete=models.CASCADE, related_name="sheets")
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    columns = models.JSONField(default=list)                      # [{"name": ..., "type": "BIGINT"}, ...]
    row_count = models.PositiveBigIntegerField(default=0)
    storage = models.CharField(max_length=500)                    # Parquet path relative to the data dir

    class Meta:
        ordering = ["workbook", "position"]
        constraints = [models.UniqueConstraint(fields=["workbook", "position"], name="workbook_sheet_position")]

    def __str__(self) -> str:
        return f"{self.workbook_id}:{self.name}"
