"""Write operations: accept a workbook file as a catalogued workbook document."""
from __future__ import annotations

import shutil
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from kernel.isolation import ParseBoundExceeded
from livedata.models import Workbook, WorkbookSheet
from livedata.workbooks import storage
from livedata.workbooks.reading import (
    SPREADSHEET_EXTENSIONS,
    WORKBOOK_EXTENSIONS,
    WorkbookReadError,
    content_matches,
    period_from,
    read_spreadsheet_bounded,
    sheet_name_for_csv,
)
from retrieval.facade.storage import (
    FormatHandler,
    IngestOptions,
    IngestOutcome,
    IngestProgress,
    content_hash,
    document_version_reuse,
    document_version_store,
    format_register,
)


def workbook_files_forget(sender, instance: Workbook, **kwargs) -> None:
    """``post_delete`` receiver: remove the deleted workbook's Parquet files once the delete commits."""
    document_id = instance.document_id
    transaction.on_commit(lambda: storage.workbook_remove(document_id))


def register_workbook_format() -> None:
    for extension in WORKBOOK_EXTENSIONS:
        format_register((extension,), FormatHandler(
            ingest=workbook_ingest, content_matches=lambda data, ext=extension: content_matches(data, ext)))


def _stage_sheets(data: bytes, filename: str, folder: Path) -> list[dict]:
    """Write each sheet as Parquet into ``folder``; return the catalogue rows (without storage)."""
    if Path(filename).suffix.lower() in SPREADSHEET_EXTENSIONS:
        sheets = []
        for position, sheet in enumerate(read_spreadsheet_bounded(data, settings.ACEH_RAG.ingestion.file_bounds())):
            path = storage.table_write(sheet.table, folder, position)
            sheets.append({"position": position, "name": sheet.name[:200], "file": path.name,
                           "columns": storage.parquet_columns(path), "row_count": sheet.table.num_rows})
        return sheets
    try:
        path, columns, rows = storage.csv_write(data, folder)
    except Exception as exc:  # DuckDB's sniffer errors name the problem
        raise WorkbookReadError(f"not a readable CSV file: {exc}") from exc
    return [{"position": 0, "name": sheet_name_for_csv(filename), "file": path.name, "columns": columns, "row_count": rows}]


def workbook_ingest(*, data: bytes, filename: str, source_key: str, options: IngestOptions,
                    progress: IngestProgress | None = None) -> IngestOutcome:
    """Catalogue one workbook under ``source_key``: unchanged bytes are a no-op, changed bytes supersede.

    The sheets are written as Parquet before the catalogue transaction; the
    document and its sheets become visible together.
    """
    started = time.monotonic()
    digest = content_hash(data)
    extension = Path(filename).suffix.lower()

    def outcome(status: str, **values) -> IngestOutcome:
        if progress:
            progress.file_finished()
        return IngestOutcome(status=status, source_name=filename, source_key=source_key,
                             seconds=round(time.monotonic() - started, 3), **values)

    reused = document_version_reuse(source_key=source_key, digest=digest, options=options)
    if reused is not None:
        return outcome("updated" if reused.changed else "unchanged", document_id=reused.document_id)

    folder = storage.staging_dir()
    try:
        sheets = _stage_sheets(data, filename, folder)
    except WorkbookReadError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        return outcome("failed", reason=str(exc))
    except ParseBoundExceeded as exc:
        shutil.rmtree(folder, ignore_errors=True)
        return outcome("failed", reason=exc.message)
    document_id = uuid.uuid4()
    title = (options.title or Path(filename).stem.replace("_", " "))[:500]
    period = period_from(options.title or "", filename)

    def fill(document) -> None:
        final = storage.move_into_place(folder, document.id)
        workbook = Workbook.objects.create(
            document_id=document.id, period=period, source_format=extension.lstrip("."), sheet_count=len(sheets),
            row_count=sum(sheet["row_count"] for sheet in sheets), ingest_seconds=round(time.monotonic() - started, 3))
        WorkbookSheet.objects.bulk_create([
            WorkbookSheet(workbook=workbook, position=s["position"], name=s["name"], columns=s["columns"],
                          row_count=s["row_count"], storage=f"{final}/{s['file']}")
            for s in sheets
        ])

    try:
        stored = document_version_store(
            source_key=source_key, digest=digest, filename=filename, title=title, options=options, fill=fill,
            fields={"id": document_id, "source_format": extension.lstrip("."), "year": int(period) if period else None,
                    "subject": title, "identity": {"kind": "workbook", "sheets": [s["name"] for s in sheets]},
                    "indexed_at": timezone.now()})
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        storage.workbook_remove(document_id)
        raise
    if stored.unchanged:
        shutil.rmtree(folder, ignore_errors=True)
        return outcome("unchanged", document_id=stored.document_id)
    return outcome("replaced" if stored.replaced else "ingested", document_id=stored.document_id)
