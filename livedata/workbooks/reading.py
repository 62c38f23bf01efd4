"""Spreadsheet bytes → typed sheets (python-calamine for .xlsx/.xls/.ods, DuckDB for .csv).

Each sheet's first non-empty row is its header; column types are inferred
from every value (integer, decimal, boolean, date/time, otherwise text) so a
workbook is described and queried with the types a reader would expect.
"""
from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
from python_calamine import CalamineWorkbook

from kernel.archives import FileBounds, UnsafeArchive, archive_check
from kernel.isolation import run_bounded

SPREADSHEET_EXTENSIONS = (".xlsx", ".xls", ".ods")
WORKBOOK_EXTENSIONS = (*SPREADSHEET_EXTENSIONS, ".csv")
_YEAR = re.compile(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)")


class WorkbookReadError(Exception):
    """The file is not a readable workbook (the ingestion outcome's reason)."""


@dataclass(frozen=True)
class SheetTable:
    name: str
    table: pa.Table


def period_from(*texts: str) -> str:
    """The last four-digit year named in the title or file name, or ''."""
    for text in texts:
        years = _YEAR.findall(text or "")
        if years:
            return years[-1]
    return ""


def content_matches(data: bytes, extension: str) -> bool:
    """The bytes look like the type the file name claims (zip for xlsx/ods, OLE for xls, text for csv)."""
    if extension in (".xlsx", ".ods"):
        return data[:4] == b"PK\x03\x04"
    if extension == ".xls":
        return data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
    return b"\x00" not in data[:8192]


def _column_names(header: list) -> list[str]:
    names: list[str] = []
    for index, cell in enumerate(header, start=1):
        name = " ".join(str(cell).split()) if cell not in (None, "") else f"column_{index}"
        if isinstance(cell, float) and cell.is_integer():
            name = str(int(cell))
        base, suffix = name[:120], 2
        while name in names:
            name, suffix = f"{base}_{suffix}", suffix + 1
        names.append(name)
    return names


def _typed_column(values: list) -> pa.Array:
    present = [v for v in values if v is not None and v != ""]
    cleaned = [None if v == "" else v for v in values]
    if not present:
        return pa.array([None] * len(values), type=pa.string())
    if all(isinstance(v, bool) for v in present):
        return pa.array(cleaned, type=pa.bool_())
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        if all(isinstance(v, int) or float(v).is_integer() for v in present):
            return pa.array([None if v is None else int(v) for v in cleaned], type=pa.int64())
        return pa.array([None if v is None else float(v) for v in cleaned], type=pa.float64())
    if all(isinstance(v, dt.datetime) for v in present):
        return pa.array(cleaned, type=pa.timestamp("us"))
    if all(isinstance(v, dt.date) and not isinstance(v, dt.datetime) for v in present):
        return pa.array(cleaned, type=pa.date32())
    return pa.array([None if v is None else _text(v) for v in cleaned], type=pa.string())


def _text(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _sheet_table(rows: list[list]) -> pa.Table | None:
    rows = [row for row in rows if any(cell not in (None, "") for cell in row)]
    if not rows:
        return None
    width = max(len(row) for row in rows)
    header, body = rows[0] + [None] * (width - len(rows[0])), rows[1:]
    names = _column_names(header)
    columns = [[row[i] if i < len(row) else None for row in body] for i in range(width)]
    return pa.table({name: _typed_column(values) for name, values in zip(names, columns)})


def _read_in_child(data: bytes, bounds: FileBounds, report) -> list[SheetTable]:
    return read_spreadsheet(data, bounds)


def read_spreadsheet_bounded(data: bytes, bounds: FileBounds = FileBounds()) -> list[SheetTable]:
    """``read_spreadsheet`` in a child process bounded by ``bounds.parse_timeout_seconds`` and
    ``bounds.parse_memory_mb`` (``kernel.isolation``; the sheets cross back as pickled Arrow tables);
    a read over a bound raises ``ParseBoundExceeded``."""
    return run_bounded(_read_in_child, (data, bounds), timeout_seconds=bounds.parse_timeout_seconds,
                       memory_mb=bounds.parse_memory_mb, preload=("livedata.workbooks.reading",))


def read_spreadsheet(data: bytes, bounds: FileBounds = FileBounds()) -> list[SheetTable]:
    """Every non-empty sheet of an .xlsx/.xls/.ods file, in workbook order; a hostile ZIP (.xlsx, .ods) is
    refused before calamine opens it."""
    if data.startswith(b"PK\x03\x04"):
        try:
            archive_check(data, bounds)
        except UnsafeArchive as exc:
            raise WorkbookReadError(f"refused: {exc}") from None
        except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
            raise WorkbookReadError(f"not a readable spreadsheet: corrupt ZIP archive ({exc})") from None
    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
        sheets = []
        for name in workbook.sheet_names:
            table = _sheet_table(workbook.get_sheet_by_name(name).to_python(skip_empty_area=True))
            if table is not None:
                sheets.append(SheetTable(name=name, table=table))
    except WorkbookReadError:
        raise
    except Exception as exc:  # calamine raises its own error types per format
        raise WorkbookReadError(f"not a readable spreadsheet: {exc}") from exc
    if not sheets:
        raise WorkbookReadError("the workbook has no non-empty sheet")
    return sheets


def sheet_name_for_csv(filename: str) -> str:
    return Path(filename).stem[:200] or "Sheet1"
