"""Real workbook files written by the tests (openpyxl for .xlsx, odfpy for .ods, csv for .csv)."""
from __future__ import annotations

import csv
import io

import openpyxl
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableCell, TableRow
from odf.text import P

POPULATION = [
    ["Kabupaten/Kota", "Tahun", "Jumlah Penduduk", "Laju Pertumbuhan"],
    ["Banda Aceh", 2023, 261969, 1.62],
    ["Aceh Besar", 2023, 422132, 1.71],
    ["Pidie", 2023, 448209, 1.12],
    ["Banda Aceh", 2022, 257635, 1.58],
    ["Aceh Besar", 2022, 415025, 1.69],
]
SPENDING = [
    ["SKPA", "Triwulan", "Realisasi"],
    ["Dinas Pendidikan", "I", 120.5],
    ["Dinas Pendidikan", "II", 310.25],
    ["Dinas Kesehatan", "I", 80.0],
    ["Dinas Kesehatan", "II", 95.5],
]


def xlsx_bytes(sheets: dict[str, list[list]]) -> bytes:
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for name, rows in sheets.items():
        sheet = workbook.create_sheet(name)
        for row in rows:
            sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def ods_bytes(sheets: dict[str, list[list]]) -> bytes:
    document = OpenDocumentSpreadsheet()
    for name, rows in sheets.items():
        table = Table(name=name)
        for row in rows:
            table_row = TableRow()
            for value in row:
                if isinstance(value, (int, float)):
                    cell = TableCell(valuetype="float", value=value)
                else:
                    cell = TableCell(valuetype="string")
                cell.addElement(P(text=str(value)))
                table_row.addElement(cell)
            table.addElement(table_row)
        document.spreadsheet.addElement(table)
    buffer = io.BytesIO()
    document.write(buffer)
    return buffer.getvalue()


def csv_bytes(rows: list[list]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue().encode()
