"""Sheets as Parquet files (stored files: the data directory or a bucket), queried in-process with DuckDB.

Why DuckDB over Parquet rather than PostgreSQL tables in a dedicated schema:
a workbook's sheets arrive with arbitrary columns, so PostgreSQL would need
DDL per upload (a table per sheet, migrations outside Django's, dropped on
supersession) and its aggregates over a million-row sheet would compete with
search on the same server. Parquet files are written once before the
catalogue transaction (like embeddings), are immutable per version, and DuckDB
aggregates them column-wise in milliseconds (``bench/tools.py``). A process
reads a sheet kept in a bucket from its local copy (``kernel.files.files_local``):
a version's files never change, and a local file keeps DuckDB's reads in milliseconds.
"""
from __future__ import annotations

import tempfile
import threading
import uuid
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
from django.conf import settings

from kernel.files import files_delete_folder, files_local, files_put_folder

_local = threading.local()
DUCKDB_THREADS = 2


WORKBOOKS = "workbooks"


def connection() -> duckdb.DuckDBPyConnection:
    """One in-memory DuckDB connection per thread (DuckDB connections are not shared across threads)."""
    con = getattr(_local, "con", None)
    if con is None:
        con = duckdb.connect(":memory:", config={"threads": DUCKDB_THREADS})
        _local.con = con
    return con


def quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def staging_dir() -> Path:
    """A fresh folder for one ingestion's files; renamed into place once catalogued."""
    root = Path(settings.ACEH_RAG.data_dir) / WORKBOOKS / ".staging"
    root.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(dir=root))


def table_write(table: pa.Table, folder: Path, position: int) -> Path:
    path = folder / f"{position}.parquet"
    pq.write_table(table, path, compression="zstd")
    return path


def csv_write(data: bytes, folder: Path) -> tuple[Path, list[dict], int]:
    """A CSV file straight to Parquet with DuckDB's reader (types sniffed from the file)."""
    source = folder / "source.csv"
    source.write_bytes(data)
    target = folder / "0.parquet"
    con = connection()
    relation = f"read_csv({_literal(source)}, header = true, sample_size = 20480)"
    con.execute(f"COPY (SELECT * FROM {relation}) TO {_literal(target)} (FORMAT parquet, COMPRESSION zstd)")
    source.unlink()
    return target, parquet_columns(target), parquet_rows(target)


CATEGORY_VALUES = 200


def parquet_columns(path: Path) -> list[dict]:
    """Column names and types; a text column with at most 200 distinct values also keeps them (``values``).

    The values let a figure question be matched to its rows ("Aceh Besar", "Dinas Pendidikan") from
    the catalogue, without scanning the sheet at question time.
    """
    con = connection()
    relation = f"read_parquet({_literal(path)})"
    columns = []
    for name, kind, *_ in con.execute(f"DESCRIBE SELECT * FROM {relation}").fetchall():
        column = {"name": name, "type": kind}
        if kind == "VARCHAR":
            values = con.execute(f"SELECT DISTINCT {quote(name)} FROM {relation} WHERE {quote(name)} IS NOT NULL "
                                 f"LIMIT {CATEGORY_VALUES + 1}").fetchall()
            if len(values) <= CATEGORY_VALUES:
                column["values"] = sorted(value for (value,) in values)
        columns.append(column)
    return columns


def parquet_rows(path: Path) -> int:
    return pq.ParquetFile(path).metadata.num_rows


def workbook_folder(document_id) -> str:
    """The stored folder of a workbook version's sheets."""
    return f"{WORKBOOKS}/{document_id}"


def move_into_place(folder: Path, document_id: uuid.UUID) -> str:
    """Store a staged folder's sheets as the workbook's; their stored folder."""
    final = workbook_folder(document_id)
    files_put_folder(folder, final)
    return final


def workbook_remove(document_id) -> None:
    """Delete a workbook's Parquet folder; a folder already gone is fine."""
    files_delete_folder(workbook_folder(document_id))


def _literal(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def sheet_relation(storage: str) -> str:
    """The FROM clause of one stored sheet (a path we wrote, quoted as a literal)."""
    return f"read_parquet({_literal(files_local(storage))})"
