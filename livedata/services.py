"""Write operations: accept a workbook file as a catalogued workbook document."""
from __future__ import annotations

import hashlib
import shutil
import time
import uuid
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from livedata.models import Workbook, WorkbookSheet
from livedata.workbooks import storage
from livedata.workbooks.reading import (
    SPREADSHEET_EXTENSIONS,
    WORKBOOK_EXTENSIONS,
    WorkbookReadError,
    content_matches,
    period_from,
    read_spreadsheet,
    sheet_name_for_csv,
)
from retrieval.formats import FormatHandler, format_register
from retrieval.ingestion import IngestOptions, IngestOutcome, IngestProgress
from retrieval.models import Collection, Document


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
        for position, sheet in enumerate(read_spreadsheet(data)):
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
    digest = hashlib.sha256(data).hexdigest()
    extension = Path(filename).suffix.lower()

    def outcome(status: str, **values) -> IngestOutcome:
        if progress:
            progress.file_finished()
        return IngestOutcome(status=status, source_name=filename, source_key=source_key,
                             seconds=round(time.monotonic() - started, 3), **values)

    title = (options.title or Path(filename).stem.replace("_", " "))[:500]
    access = {"confidential": options.confidential, "owning_org_unit": options.owning_org_unit or None,
              "min_position_level": options.min_position_level}
    current = Document.objects.filter(source_key=source_key, status=Document.Status.INDEXED).first()
    if current is not None and current.content_hash == digest:
        wanted = {**access, "collection_id": options.collection_id, "title": options.title or current.title}
        changed = {name: value for name, value in wanted.items() if getattr(current, name) != value}
        if changed:
            Document.objects.filter(pk=current.pk).update(**changed, updated_at=timezone.now())
        return outcome("updated" if changed else "unchanged", document_id=current.id)

    folder = storage.staging_dir()
    try:
        sheets = _stage_sheets(data, filename, folder)
    except WorkbookReadError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        return outcome("failed", reason=str(exc))
    document_id = uuid.uuid4()
    period = period_from(options.title or "", filename)
    rows = sum(sheet["row_count"] for sheet in sheets)
    try:
        with transaction.atomic():
            Collection.objects.get_or_create(id=options.collection_id)
            previous = Document.objects.select_for_update().filter(
                source_key=source_key, status=Document.Status.INDEXED).first()
            if previous is not None and previous.content_hash == digest:
                shutil.rmtree(folder, ignore_errors=True)
                return outcome("unchanged", document_id=previous.id)
            if previous is not None:
                previous.status = Document.Status.SUPERSEDED
                previous.save(update_fields=["status", "updated_at"])
            final = storage.move_into_place(folder, document_id)
            document = Document.objects.create(
                id=document_id, collection_id=options.collection_id, title=title, source_key=source_key,
                source_name=filename[:500], source_format=extension.lstrip("."),
                version=(previous.version + 1) if previous else 1, status=Document.Status.INDEXED,
                content_hash=digest, year=int(period) if period else None, subject=title,
                identity={"kind": "workbook", "sheets": [s["name"] for s in sheets]},
                indexed_at=timezone.now(), **access,
            )
            workbook = Workbook.objects.create(
                document=document, period=period, source_format=extension.lstrip("."), sheet_count=len(sheets),
                row_count=rows, ingest_seconds=round(time.monotonic() - started, 3))
            WorkbookSheet.objects.bulk_create([
                WorkbookSheet(workbook=workbook, position=s["position"], name=s["name"], columns=s["columns"],
                              row_count=s["row_count"], storage=storage.relative(final / s["file"]))
                for s in sheets
            ])
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(storage.workbook_root() / str(document_id), ignore_errors=True)
        raise
    return outcome("replaced" if previous else "ingested", document_id=document.id)
